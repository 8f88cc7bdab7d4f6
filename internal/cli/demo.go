package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/forgetools/forgetools/runtime"
)

// demoStep is one scripted tool call. A step whose id repeats an earlier
// one replays that call, as a model retrying after a timeout would.
type demoStep struct {
	note, id, tool, args string
}

var demoScript = []demoStep{
	{"An agent files an issue.", "call-1", "forge_create_issue",
		`{"repo":"demo/app","title":"Crash when the config file is empty","body":"Steps: run with an empty config.","labels":["bug"]}`},
	{"The same call is retried (same tool call id): the gateway deduplicates it.", "call-1", "forge_create_issue",
		`{"repo":"demo/app","title":"Crash when the config file is empty","body":"Steps: run with an empty config.","labels":["bug"]}`},
	{"It comments, then reads the issue back: bodies come fenced, attribution is a parsed claim.", "call-2", "forge_comment_on_issue",
		`{"repo":"demo/app","issue_number":1,"body":"Reproduced on main; a fix is on the way."}`},
	{"", "call-3", "forge_get_issue", `{"repo":"demo/app","issue_number":1}`},
	{"It opens a pull request from a pushed branch.", "call-4", "forge_create_pull_request",
		`{"repo":"demo/app","title":"Handle an empty config file","body":"Fixes #1.","head_ref":"fix-empty-config","base_ref":"main"}`},
	{"A reviewer asks for changes with an inline comment.", "call-5", "forge_submit_review",
		`{"repo":"demo/app","pull_number":2,"verdict":"request_changes","body":"Please add a test.","comments":[{"path":"config.go","line":12,"body":"Return an error here instead of nil."}]}`},
	{"", "call-6", "forge_comment_on_pull_request", `{"repo":"demo/app","pull_number":2,"body":"Test added."}`},
	{"", "call-7", "forge_get_pull_request", `{"repo":"demo/app","pull_number":2}`},
	{"", "call-8", "forge_list_issues", `{"repo":"demo/app","labels":["bug"],"limit":10}`},
	{"Subscriptions work on the local forge.", "call-9", "forge_subscribe", `{"repo":"demo/app","kind":"pull_request","number":2}`},
	{"", "call-10", "forge_unsubscribe", `{"subscription_id":"$SUBSCRIPTION"}`},
	{"Failures are one line the model can act on: a review that is not an approval needs a body...", "call-11", "forge_submit_review",
		`{"repo":"demo/app","pull_number":2,"verdict":"comment"}`},
	{"...and a missing issue is an in-band not_found.", "call-12", "forge_get_issue", `{"repo":"demo/app","issue_number":99}`},
}

func newDemo() *cobra.Command {
	var f toolFlags
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the ten tools on the embedded local forge and print what the model sees",
		Long: `Run a scripted agent session against an in-process gateway on the local
sandbox forge: file an issue (and retry it), comment, read it back, open a
pull request, review it, list, subscribe, and two failures. Each call is
printed as the model made it, followed by the text the model reads back.

Without --store the demo uses a fresh SQLite file in a temporary directory,
so every run tells the same story; no credentials, no network. It always
runs every tool on the embedded local forge, so it takes no gateway, config
or tool-filter flags.`,
		Example: `  forgetools demo
  forgetools demo --store /tmp/demo.db && forgetools call forge_list_issues '{"repo":"demo/app","state":"all"}' --store /tmp/demo.db`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f.store == "" {
				dir, err := os.MkdirTemp("", "forgetools-demo-")
				if err != nil {
					return err
				}
				defer os.RemoveAll(dir)
				f.store = filepath.Join(dir, "demo.db")
			}
			ts, closeFn, err := f.toolset(cmd.Context(), cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			defer closeFn()
			out := cmd.OutOrStdout()
			subscription := ""
			for _, s := range demoScript {
				if s.note != "" {
					fmt.Fprintf(out, "\n# %s\n", s.note)
				}
				args := strings.ReplaceAll(s.args, "$SUBSCRIPTION", subscription)
				fmt.Fprintf(out, "> %s %s\n", s.tool, args)
				res := ts.Execute(cmd.Context(), runtime.Call{ID: s.id, Name: s.tool, Args: json.RawMessage(args)})
				fmt.Fprintln(out, indent(res.Text))
				if s.tool == "forge_subscribe" {
					// The ack ends "subscription <id>".
					subscription = res.Text[strings.LastIndexByte(res.Text, ' ')+1:]
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&f.store, "store", "", "state store: a SQLite file path or a postgres:// DSN (default: a fresh temporary file)")
	cmd.Flags().StringVar(&f.logLevel, "log-level", "warn", "log level: debug, info, warn or error (logs go to stderr)")
	return cmd
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}
