package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/handler"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/runtime"
)

// demoStep is one scripted step: a tool call the agent makes, or something
// other people do on the forge meanwhile. A call whose id repeats an
// earlier one replays that call, as a model retrying after a timeout would.
// $SUBSCRIPTION and $CURSOR in args are what earlier steps returned.
type demoStep struct {
	note, id, tool, args string
	// forge, when set, is done on the local forge instead of a tool call,
	// and said is how the demo shows it.
	forge func(ctx context.Context, f *local.Forge) error
	said  string
}

// reviewer is someone else on the forge: not an agent of this gateway.
const reviewer = "alice"

var demoScript = []demoStep{
	{note: "An agent files an issue.", id: "call-1", tool: "forge_create_issue",
		args: `{"repo":"demo/app","title":"Crash when the config file is empty","body":"Steps: run with an empty config.","labels":["bug"]}`},
	{note: "The same call is retried (same tool call id): the gateway deduplicates it.", id: "call-1", tool: "forge_create_issue",
		args: `{"repo":"demo/app","title":"Crash when the config file is empty","body":"Steps: run with an empty config.","labels":["bug"]}`},
	{note: "It comments, then reads the issue back: bodies come fenced, attribution is a parsed claim.", id: "call-2", tool: "forge_comment_on_issue",
		args: `{"repo":"demo/app","issue_number":1,"body":"Reproduced on main; a fix is on the way."}`},
	{id: "call-3", tool: "forge_get_issue", args: `{"repo":"demo/app","issue_number":1}`},
	{note: "It opens a pull request from a pushed branch, and subscribes to it.", id: "call-4", tool: "forge_create_pull_request",
		args: `{"repo":"demo/app","title":"Handle an empty config file","body":"Fixes #1.","head_ref":"fix-empty-config","base_ref":"main"}`},
	{id: "call-5", tool: "forge_subscribe", args: `{"repo":"demo/app","kind":"pull_request","number":2}`},
	{note: "Meanwhile a reviewer on the forge asks for changes, with an inline comment.",
		said:  reviewer + " reviews PR #2: request_changes \"Please add a test.\", on config.go:12 \"Return an error here instead of nil.\"",
		forge: reviewChanges},
	{note: "The agent reads its events: the review arrived without a poll (the local forge reports its own writes).",
		id: "call-6", tool: "forge_get_events", args: `{}`},
	{note: "It answers; CI runs and passes; a maintainer merges.", id: "call-7", tool: "forge_comment_on_pull_request",
		args: `{"repo":"demo/app","pull_number":2,"body":"Test added."}`},
	{said: "CI reports success on PR #2", forge: func(ctx context.Context, f *local.Forge) error {
		return f.SetChecks(ctx, "demo/app", 2, "success")
	}},
	{said: "a maintainer merges PR #2", forge: func(ctx context.Context, f *local.Forge) error {
		return f.SetState(ctx, "demo/app", 2, "merged")
	}},
	{note: "Passing next_cursor as after acknowledges the page it read; its own comment comes marked own.",
		id: "call-8", tool: "forge_get_events", args: `{"after":$CURSOR}`},
	{id: "call-9", tool: "forge_get_pull_request", args: `{"repo":"demo/app","pull_number":2}`},
	{id: "call-10", tool: "forge_list_issues", args: `{"repo":"demo/app","labels":["bug"],"limit":10}`},
	{note: "Done with the pull request.", id: "call-11", tool: "forge_unsubscribe", args: `{"subscription_id":"$SUBSCRIPTION"}`},
	{note: "Failures are one line the model can act on: a review that is not an approval needs a body...", id: "call-12", tool: "forge_submit_review",
		args: `{"repo":"demo/app","pull_number":2,"verdict":"comment"}`},
	{note: "...and a missing issue is an in-band not_found.", id: "call-13", tool: "forge_get_issue", args: `{"repo":"demo/app","issue_number":99}`},
}

// reviewChanges is the reviewer's review, made on the forge directly.
func reviewChanges(ctx context.Context, f *local.Forge) error {
	_, err := f.SubmitReview(ctx, handler.Call{Account: reviewer}, &gatewayv1.SubmitReviewRequest{
		Repo: "demo/app", PullNumber: 2, Verdict: gatewayv1.Verdict_VERDICT_REQUEST_CHANGES, Body: "Please add a test.",
		Comments: []*gatewayv1.ReviewCommentInput{{Path: "config.go", Line: 12, Body: "Return an error here instead of nil."}},
	})
	return err
}

var (
	subscriptionRE = regexp.MustCompile(`subscription (\S+)$`)
	cursorRE       = regexp.MustCompile(`(?m)^next_cursor: (\d+)$`)
)

func newDemo() *cobra.Command {
	var f toolFlags
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the tools on the embedded local forge and print what the model sees",
		Long: `Run a scripted agent session against an in-process gateway on the local
sandbox forge: file an issue (and retry it), comment, read it back, open a
pull request and subscribe to it; a reviewer on the forge asks for changes,
and the agent reads the review as an event; it answers, CI passes, the pull
request is merged, and the agent reads on; then a listing, unsubscribing and
two failures. Each call is printed as the model made it, followed by the text
the model reads back; what others do on the forge is printed with a "!".

Without --store the demo uses a fresh SQLite file in a temporary directory,
so every run tells the same story; no credentials, no network.`,
		Example: `  forgetools demo
  forgetools demo --store /tmp/demo.db && forgetools call forge_list_issues '{"repo":"demo/app","state":"all"}' --store /tmp/demo.db`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f.gateway != "" {
				return usageError{errors.New("the demo runs the gateway in-process (its reviewer and CI act on the local forge directly): drop --gateway")}
			}
			if f.store == "" && f.config == "" {
				dir, err := os.MkdirTemp("", "forgetools-demo-")
				if err != nil {
					return err
				}
				defer os.RemoveAll(dir)
				f.store = filepath.Join(dir, "demo.db")
			}
			s, err := f.open(cmd.Context(), cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			defer s.close()
			if s.sys.local == nil {
				return errors.New("the demo needs a local forge in the configuration")
			}
			return runDemo(cmd, s)
		},
	}
	f.register(cmd, "warn")
	return cmd
}

func runDemo(cmd *cobra.Command, s *session) error {
	out := cmd.OutOrStdout()
	vars := map[string]string{}
	for _, st := range demoScript {
		if st.note != "" {
			fmt.Fprintf(out, "\n# %s\n", st.note)
		}
		if st.forge != nil {
			fmt.Fprintf(out, "! %s\n", st.said)
			if err := st.forge(cmd.Context(), s.sys.local); err != nil {
				return fmt.Errorf("demo: %s: %w", st.said, err)
			}
			continue
		}
		args := st.args
		for k, v := range vars {
			args = strings.ReplaceAll(args, k, v)
		}
		fmt.Fprintf(out, "> %s %s\n", st.tool, args)
		res := s.tools.Execute(cmd.Context(), runtime.Call{ID: st.id, Name: st.tool, Args: json.RawMessage(args)})
		fmt.Fprintln(out, indent(res.Text))
		if m := subscriptionRE.FindStringSubmatch(res.Text); m != nil && st.tool == "forge_subscribe" {
			vars["$SUBSCRIPTION"] = m[1]
		}
		if m := cursorRE.FindStringSubmatch(res.Text); m != nil {
			vars["$CURSOR"] = m[1]
		}
	}
	return nil
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}
