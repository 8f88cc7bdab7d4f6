package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/internal/config"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/runtime"
	"github.com/forgetools/forgetools/toolserver"
)

// demoStep is one scripted step: a tool call, or something someone else
// does on the forge meanwhile. A call whose id repeats an earlier one
// replays that call, as a model retrying after a timeout would. $NAME in
// args is a value an earlier step captured from what it read back.
type demoStep struct {
	note, id, tool, args string
	// session makes the call as another session than the agent's.
	session string
	// capture names a value to take from the result: the first group of re.
	capture string
	re      *regexp.Regexp
	// forge, when set, is done on the local forge instead of a tool call,
	// and said is how the demo shows it.
	forge func(ctx context.Context, f *local.Forge) error
	said  string
	// decide, when set ("approve" or "deny"), is the operator deciding the
	// approval the last parked call named ($APPROVAL), with reason,
	// through the same code as `forgetools approvals`.
	decide, reason string
}

// reviewer is someone else on the forge: not an agent of this gateway.
const reviewer = "alice"

// demoCI is the demo forge's CI command: it passes once config.go handles
// an empty file. grep and sh exist on any machine.
const demoCI = `grep -n 'len(data) == 0' config.go || { echo 'config.go: Load does not handle an empty file'; exit 1; }`

const (
	demoMaintainer = "maintainer"
	configGo       = "package app\n\nimport \"encoding/json\"\n\n// Load parses a configuration file.\n" +
		"func Load(data []byte) (*Config, error) {\n\tvar c Config\n\terr := json.Unmarshal(data, &c)\n\treturn &c, err\n}\n"
	fixedConfigGo = "package app\n\nimport (\n\t\"encoding/json\"\n\t\"errors\"\n)\n\n" +
		"// ErrEmpty is the error for an empty configuration file.\nvar ErrEmpty = errors.New(\"config: the file is empty\")\n\n" +
		"// Load parses a configuration file.\nfunc Load(data []byte) (*Config, error) {\n\tif len(data) == 0 {\n\t\treturn nil, ErrEmpty\n\t}\n" +
		"\tvar c Config\n\terr := json.Unmarshal(data, &c)\n\treturn &c, err\n}\n"
)

var (
	shaRe  = regexp.MustCompile(`(?m)^sha: ([0-9a-f]{40})$`)
	headRe = regexp.MustCompile(`(?m)^head_sha: ([0-9a-f]{40})$`)
	runRe  = regexp.MustCompile(`(?m)^run_id: ([0-9]+)$`)
	subRe  = regexp.MustCompile(`subscription (\S+)$`)
	nextRe = regexp.MustCompile(`(?m)^next_cursor: ([0-9]+)$`)
	// approvalRe finds the approval id in a parked call's line.
	approvalRe = regexp.MustCompile(`pending_approval: approval (ap-[a-z2-7]+):`)
)

// demoOperator is the person deciding the demo's parked pushes.
const demoOperator = "demo-operator"

// jsonValue is s as a JSON string, as a person would write it (no \u0026
// for &).
func jsonValue(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

var demoScript = []demoStep{
	{note: "A maintainer, whom the operator lets push to main, adds config.go.", session: demoMaintainer, id: "seed", tool: "forge_write_file",
		args: `{"repo":"demo/app","branch":"main","path":"config.go","content":` + jsonValue(configGo) + `,"message":"Add the config loader"}`},
	{note: "An agent files an issue.", id: "call-1", tool: "forge_create_issue",
		args: `{"repo":"demo/app","title":"Crash when the config file is empty","body":"Steps: run with an empty config.","labels":["bug"]}`},
	{note: "The same call is retried (same tool call id): the gateway deduplicates it.", id: "call-1", tool: "forge_create_issue",
		args: `{"repo":"demo/app","title":"Crash when the config file is empty","body":"Steps: run with an empty config.","labels":["bug"]}`},
	{note: "It looks at the repository and reads the code, keeping the blob sha it needs to change the file.", id: "call-2", tool: "forge_get_repo",
		args: `{"repo":"demo/app"}`},
	{id: "call-3", tool: "forge_list_dir", args: `{"repo":"demo/app"}`},
	{id: "call-4", tool: "forge_read_file", args: `{"repo":"demo/app","path":"config.go"}`, capture: "SHA", re: shaRe},
	{note: "CI on main fails; the failed job's log says why.", id: "call-5", tool: "forge_trigger_ci",
		args: `{"repo":"demo/app","workflow":"ci","ref":"main"}`},
	{id: "call-6", tool: "forge_list_ci_runs", args: `{"repo":"demo/app","ref":"main","limit":1}`, capture: "RUN", re: runRe},
	{id: "call-7", tool: "forge_get_ci_run", args: `{"repo":"demo/app","run_id":"$RUN"}`},
	{note: "It tries to commit straight to main. Pushes wait for an operator (the default policy): the gateway parks the call, and nothing reaches the forge.",
		id: "call-8", tool: "forge_write_file", capture: "APPROVAL", re: approvalRe,
		args: `{"repo":"demo/app","branch":"main","path":"config.go","content":"","message":"Fix it on main","expected_sha":"$SHA"}`},
	{note: "The operator denies it; calling again, the model reads why.", decide: "deny", reason: "not on main: commit to a branch of your own and open a pull request"},
	{id: "call-8", tool: "forge_write_file",
		args: `{"repo":"demo/app","branch":"main","path":"config.go","content":"","message":"Fix it on main","expected_sha":"$SHA"}`},
	{note: "It pushes a branch with the fix: parked, approved by the operator, and the same call again reads the result.", id: "call-9", tool: "forge_create_branch",
		args: `{"repo":"demo/app","branch":"fix-empty-config"}`, capture: "APPROVAL", re: approvalRe},
	{decide: "approve", reason: "a branch for the fix"},
	{id: "call-9", tool: "forge_create_branch", args: `{"repo":"demo/app","branch":"fix-empty-config"}`},
	{note: "It commits the fix, opens a pull request and runs CI on it.", id: "call-10", tool: "forge_write_file", capture: "APPROVAL", re: approvalRe,
		args: `{"repo":"demo/app","branch":"fix-empty-config","path":"config.go","content":` + jsonValue(fixedConfigGo) +
			`,"message":"Return ErrEmpty for an empty config file\n\nFixes #1.","expected_sha":"$SHA"}`},
	{decide: "approve", reason: "the diff handles the empty file"},
	{id: "call-10", tool: "forge_write_file",
		args: `{"repo":"demo/app","branch":"fix-empty-config","path":"config.go","content":` + jsonValue(fixedConfigGo) +
			`,"message":"Return ErrEmpty for an empty config file\n\nFixes #1.","expected_sha":"$SHA"}`},
	{id: "call-11", tool: "forge_create_pull_request",
		args: `{"repo":"demo/app","title":"Handle an empty config file","body":"Fixes #1.","head_ref":"fix-empty-config"}`},
	{note: "It subscribes to the pull request, to hear of reviews and CI without polling.", id: "call-12", tool: "forge_subscribe",
		args: `{"repo":"demo/app","kind":"pull_request","number":2}`, capture: "SUBSCRIPTION", re: subRe},
	{id: "call-13", tool: "forge_trigger_ci", args: `{"repo":"demo/app","workflow":"ci","ref":"fix-empty-config"}`},
	{id: "call-14", tool: "forge_list_ci_runs", args: `{"repo":"demo/app","ref":"fix-empty-config","limit":1}`},
	{note: "Meanwhile a reviewer on the forge asks a question, with an inline comment.",
		said:  reviewer + " reviews PR #2: comment \"Does a file of only whitespace count as empty?\", on config.go:13 \"len(bytes.TrimSpace(data)) == 0?\"",
		forge: reviewQuestion},
	{note: "The agent reads its events: the operator's decisions and the review arrived without a poll (the local forge reports its own writes).",
		id: "call-15", tool: "forge_get_events", args: `{}`, capture: "CURSOR", re: nextRe},
	{note: "It answers, approves what CI passed, and reads the pull request as it stands: its head sha is what gets merged.",
		id: "call-16", tool: "forge_comment_on_pull_request",
		args: `{"repo":"demo/app","pull_number":2,"body":"No: whitespace stays a JSON syntax error, with its own message; ErrEmpty is for a file with no bytes."}`},
	{id: "call-17", tool: "forge_submit_review",
		args: `{"repo":"demo/app","pull_number":2,"verdict":"approve","body":"Handles the empty file; CI passes."}`},
	{id: "call-18", tool: "forge_get_pull_request", args: `{"repo":"demo/app","pull_number":2}`, capture: "HEAD", re: headRe},
	{note: "A write with the sha read before the fix is stale: approved, it runs and the forge refuses it, nothing written.", id: "call-19", tool: "forge_write_file",
		args: `{"repo":"demo/app","branch":"fix-empty-config","path":"config.go","content":"","message":"Oops","expected_sha":"$SHA"}`, capture: "APPROVAL", re: approvalRe},
	{decide: "approve"},
	{id: "call-19", tool: "forge_write_file",
		args: `{"repo":"demo/app","branch":"fix-empty-config","path":"config.go","content":"","message":"Oops","expected_sha":"$SHA"}`},
	{note: "It merges the head it reviewed (approved by the operator), reads config.go back on main and closes the issue.", id: "call-20", tool: "forge_merge_pull_request",
		args: `{"repo":"demo/app","pull_number":2,"expected_head_sha":"$HEAD"}`, capture: "APPROVAL", re: approvalRe},
	{decide: "approve", reason: "reviewed head, CI passes"},
	{id: "call-20", tool: "forge_merge_pull_request", args: `{"repo":"demo/app","pull_number":2,"expected_head_sha":"$HEAD"}`},
	{id: "call-21", tool: "forge_read_file", args: `{"repo":"demo/app","path":"config.go","ref":"main"}`},
	{id: "call-22", tool: "forge_update_issue", args: `{"repo":"demo/app","issue_number":1,"state":"closed","state_reason":"completed"}`},
	{note: "Passing next_cursor as after acknowledges the page it read; its own writes come marked own.",
		id: "call-23", tool: "forge_get_events", args: `{"after":$CURSOR}`},
	{note: "Done with the pull request.", id: "call-24", tool: "forge_unsubscribe", args: `{"subscription_id":"$SUBSCRIPTION"}`},
	{id: "call-25", tool: "forge_list_pull_requests", args: `{"repo":"demo/app","state":"all"}`},
}

// reviewQuestion is the reviewer's review, made on the forge directly.
func reviewQuestion(ctx context.Context, f *local.Forge) error {
	_, err := f.SubmitReview(ctx, toolserver.Call{Account: reviewer}, &gatewayv1.SubmitReviewRequest{
		Repo: "demo/app", PullNumber: 2, Verdict: gatewayv1.Verdict_VERDICT_COMMENT, Body: "Does a file of only whitespace count as empty?",
		Comments: []*gatewayv1.ReviewCommentInput{{Path: "config.go", Line: 13, Body: "len(bytes.TrimSpace(data)) == 0?"}},
	})
	return err
}

func newDemo() *cobra.Command {
	var g gatewayFlags
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run an agent landing a fix on the embedded local forge and print what the model sees",
		Long: `Run a scripted agent session against an in-process gateway on the local
sandbox forge: file an issue (and retry it), read the repository and a file,
run CI (the demo configures a grep as the CI command), get refused on main,
push a branch with a fix, open a pull request and subscribe to it, run CI
again; a reviewer on the forge asks a question, and the agent reads the
review as an event; it answers, approves, gets a stale write refused, merges
the reviewed head, reads the file back on main, closes the issue and reads
its own writes as events.

The demo plays the operator too. The embedded default's policy is the
gateway's default: reads and writes run, every push (branch, commit, merge)
and every high-risk call waits for an operator. So each push parks (the
model reads pending_approval and an approval id, and nothing reaches the
forge), the demo's operator decides it through the same code as
"forgetools approvals approve|deny", and the same call made again reads the
outcome: its commit to main is denied, and the model reads the reason. Each call is printed as the model made it,
followed by the text the model reads back; what others do on the forge is
printed with a "!". A maintainer session, allowed to push to main, seeds the
repository first.

Without --store the demo uses a fresh SQLite file and git directory in a
temporary directory, so every run tells the same story; no credentials, no
network. With --store the data stays, and the demo says where to git clone
the repository from.`,
		Example: `  forgetools demo
  forgetools demo --store /tmp/demo/forge.db && git clone /tmp/demo/repos/demo/app.git`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			log, err := g.logger(cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			if g.store == "" {
				dir, err := os.MkdirTemp("", "forgetools-demo-")
				if err != nil {
					return err
				}
				defer os.RemoveAll(dir)
				g.store = filepath.Join(dir, "demo.db")
			}
			cfg := demoConfig(g.store)
			sys, err := open(cmd.Context(), cfg, log)
			if err != nil {
				return err
			}
			defer sys.Close()
			sessions := map[string]*runtime.Toolset{}
			for _, s := range []string{"demo", demoMaintainer} {
				id, _ := sys.svc.SessionIdentity(s)
				if sessions[s], err = runtime.NewToolset(gatewayv1tools.ForgeTools,
					runtime.NewBroker(runtime.TransportFunc(sys.svc.Transport(id)))); err != nil {
					return err
				}
			}
			out := cmd.OutOrStdout()
			vars := map[string]string{}
			for _, s := range demoScript {
				if s.note != "" {
					fmt.Fprintf(out, "\n# %s\n", s.note)
				}
				if s.decide != "" {
					text, err := decide(cmd.Context(), sys.svc, vars["APPROVAL"], s.decide == "approve", demoOperator, s.reason)
					if err != nil {
						return fmt.Errorf("demo: the operator's %s: %w", s.decide, err)
					}
					fmt.Fprintf(out, "! %s: forgetools approvals %s %s\n%s\n", demoOperator, s.decide, vars["APPROVAL"], indent(strings.TrimSuffix(text, "\n")))
					continue
				}
				if s.forge != nil {
					fmt.Fprintf(out, "! %s\n", s.said)
					if err := s.forge(cmd.Context(), sys.local); err != nil {
						return fmt.Errorf("demo: %s: %w", s.said, err)
					}
					continue
				}
				args := s.args
				for k, v := range vars {
					args = strings.ReplaceAll(args, "$"+k, v)
				}
				session := s.session
				if session == "" {
					session = "demo"
				}
				prompt := ">"
				if session != "demo" {
					prompt = "(" + session + ") >"
				}
				fmt.Fprintf(out, "%s %s %s\n", prompt, s.tool, args)
				res := sessions[session].Execute(cmd.Context(), runtime.Call{ID: s.id, Name: s.tool, Args: json.RawMessage(args)})
				fmt.Fprintln(out, indent(res.Text))
				if s.capture != "" {
					m := s.re.FindStringSubmatch(res.Text)
					if m == nil {
						return fmt.Errorf("demo: %s did not show the %s it needs next", s.tool, strings.ToLower(s.capture))
					}
					vars[s.capture] = m[1]
				}
			}
			path := filepath.Join(gitDirOf(cfg), "demo", "app.git")
			if cmd.Flags().Changed("store") {
				fmt.Fprintf(out, "\n# The repository is a git repository: git clone %s\n", path)
			} else {
				fmt.Fprintf(out, "\n# The repository was a git repository in a temporary directory; run with --store to keep it and git clone it.\n")
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&g.store, "store", "", "SQLite file to keep the demo's state in (its repositories go beside it, in repos/); default: a temporary directory")
	cmd.Flags().StringVar(&g.logLevel, "log-level", "warn", "log level: debug, info, warn or error (logs go to stderr)")
	return cmd
}

// demoConfig is the default configuration on store, with the demo's CI
// command and a maintainer account that may push to default branches.
func demoConfig(store string) *config.Config {
	cfg := config.Default(filepath.Dir(store))
	cfg.Store = store
	cfg.Forges[0].CICommand = demoCI
	// The agent's session reads the maintainer's code and the reviewer's
	// review before it merges: the operator trusts both, so the
	// untrusted-content rule does not hold the merge.
	cfg.Accounts[0].Flow.TrustedAuthors = []string{cfg.Accounts[0].Name, cfg.Accounts[0].AgentHandle, cfg.Accounts[0].OwnerHandle, demoMaintainer, reviewer}
	cfg.Accounts = append(cfg.Accounts, config.Account{
		Name: demoMaintainer, AgentHandle: "maintainer", OwnerHandle: "demo-owner", Scope: []string{"demo/*"},
		Sessions: []config.Session{{Name: demoMaintainer}}, PushToDefaultBranch: true,
		// The maintainer's seeding is the operator's own: it waits for no one.
		Policy: config.Policy{Push: "allow", Risk: map[string]string{"high": "allow"}, UnreviewedMerge: "allow"},
	})
	return cfg
}

// gitDirOf is where cfg's (only) local forge keeps its repositories.
func gitDirOf(cfg *config.Config) string {
	dir, _ := gitDir(cfg.Forges[0], cfg.Store)
	return dir
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}
