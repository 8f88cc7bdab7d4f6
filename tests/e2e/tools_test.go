package e2e_test

import (
	"os"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// aliceConfig is a local forge and one account, alice, with two sessions
// and the scope demo/*.
const aliceConfig = `
forges:
  - provider: local
    base_url: http://forge.test/f
accounts:
  - name: alice
    agent_handle: alice-bot
    owner_handle: alice
    scope: ["demo/*"]
    sessions: [alice-1, alice-2]
    # Pushes run unattended here: the approval gate has its own tests.
    policy: {push: allow, risk: {high: allow}, unreviewed_merge: allow}
`

// attribution is the claim the gateway stamps for alice's first session
// and parses back on every read.
const attribution = "claim (unverified): agent=alice-bot owner=alice session=alice-1\n"

// TestTenToolsOverSocket drives issue 2's ten tools through `forgetools call
// --gateway unix://...` against `forgetools serve`, on each store backend,
// and checks the text the model sees and the exit codes.
func TestTenToolsOverSocket(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, dsn string) {
		t.Parallel()
		e := newEnv(t)
		srv := e.serve(2, "--config", writeConfig(t, aliceConfig), "--store", dsn, "--socket-dir", socketDir(t))
		alice1 := []string{"--gateway", srv.Sockets[0]}
		alice2 := []string{"--gateway", srv.Sockets[1]}
		call := func(tool, args string, flags ...string) result {
			t.Helper()
			return e.call(tool, args, append(flags, alice1...)...)
		}

		const issue = `{"repo":"demo/app","title":"Crash on start","body":"Steps: run it.","labels":["bug","p1"]}`
		call("forge_create_issue", issue, "--id", "c1").
			want(t, 0, `Created issue #1 in demo/app: http://forge\.test/f/demo/app/issues/1`)
		// A retry with the same id, from a second process, replays; so does
		// one from the account's other session.
		call("forge_create_issue", issue, "--id", "c1").
			want(t, 0, `Issue #1 in demo/app already created by an earlier attempt`)
		e.call("forge_create_issue", issue, append([]string{"--id", "c1"}, alice2...)...).
			want(t, 0, `Issue #1 in demo/app already created by an earlier attempt`)
		call("forge_create_issue", `{"repo":"demo/app","title":"Something else"}`, "--id", "c1").
			want(t, 1, `forge_create_issue failed: invalid_argument: client_request_id was already used for a different request; a new create needs a new id`)

		call("forge_comment_on_issue", `{"repo":"demo/app","issue_number":1,"body":"Reproduced."}`).
			want(t, 0, `Commented on issue #1 in demo/app: http://forge\.test/f/demo/app/issues/1#issuecomment-1`)

		issueRecord := "repo: demo/app\nnumber: 1\nstate: open\nurl: http://forge.test/f/demo/app/issues/1\nlabels: bug, p1\nauthor: alice\n" +
			attribution +
			"<<<title-NONCE\nCrash on start\n<<<body-NONCE\nSteps: run it.\n>>>NONCE\n" +
			"created_at: TIME\nupdated_at: TIME\n"
		wantText(t, call("forge_get_issue", `{"repo":"demo/app","issue_number":1}`).record(t), header+
			"# issue\n"+issueRecord+
			"comments: 1\n# comments[0]\nauthor: alice\n"+attribution+
			"url: http://forge.test/f/demo/app/issues/1#issuecomment-1\n<<<body-NONCE\nReproduced.\n>>>NONCE\n")

		// A pull request's head is a branch of the (git) repository.
		head := call("forge_create_branch", `{"repo":"demo/app","branch":"fix-crash"}`).
			want(t, 0, `Created branch fix-crash in demo/app at ([0-9a-f]{40})`)[1]
		call("forge_create_pull_request", `{"repo":"demo/app","title":"Fix crash","body":"Fixes #1.","head_ref":"fix-crash","base_ref":"main","draft":true}`, "--id", "c2").
			want(t, 0, `Opened PR #2 in demo/app: http://forge\.test/f/demo/app/pull/2`)
		call("forge_submit_review", `{"repo":"demo/app","pull_number":2,"verdict":"request_changes","body":"Add a test.","comments":[{"path":"main.go","line":7,"body":"Check the error."}]}`).
			want(t, 0, `Submitted request_changes review on PR #2 in demo/app: http://forge\.test/f/demo/app/pull/2#pullrequestreview-1`)
		call("forge_comment_on_pull_request", `{"repo":"demo/app","pull_number":2,"body":"Test added."}`).
			want(t, 0, `Commented on PR #2 in demo/app: http://forge\.test/f/demo/app/pull/2#issuecomment-2`)
		wantText(t, call("forge_get_pull_request", `{"repo":"demo/app","pull_number":2}`).record(t), header+
			"# pull_request\nrepo: demo/app\nnumber: 2\nstate: open\nurl: http://forge.test/f/demo/app/pull/2\n"+
			"<<<head_ref-NONCE\nfix-crash\n<<<base_ref-NONCE\nmain\n>>>NONCE\ndraft: true\nauthor: alice\n"+attribution+
			"<<<title-NONCE\nFix crash\n<<<body-NONCE\nFixes #1.\n>>>NONCE\n"+
			"head_sha: "+head+"\nmergeable: true\n"+
			"reviews: 1\n# reviews[0]\nauthor: alice\nverdict: request_changes\n"+attribution+
			"url: http://forge.test/f/demo/app/pull/2#pullrequestreview-1\n<<<body-NONCE\nAdd a test.\n>>>NONCE\n"+
			"comments: 1\n# reviews[0].comments[0]\n<<<path-NONCE\nmain.go\n>>>NONCE\nline: 7\nside: RIGHT\nauthor: alice\n"+
			"<<<body-NONCE\nCheck the error.\n>>>NONCE\nthread_id: 1\n"+
			"comments: 1\n# comments[0]\nauthor: alice\n"+attribution+
			"url: http://forge.test/f/demo/app/pull/2#issuecomment-2\n<<<body-NONCE\nTest added.\n>>>NONCE\n")

		// The list holds the one issue (a pull request is not an issue).
		wantText(t, call("forge_list_issues", `{"repo":"demo/app","state":"all","labels":["bug"]}`).record(t), header+
			"# issue_list\nissues: 1\n# issues[0]\n"+issueRecord)
		wantText(t, call("forge_list_issues", `{"repo":"demo/app","state":"closed"}`).record(t), header+
			"# issue_list\nissues: none\n")

		sub := call("forge_subscribe", `{"repo":"demo/app","kind":"pull_request","number":2}`).
			want(t, 0, `Subscribed to pull_request #2 in demo/app: subscription ([0-9a-f-]{36})`)[1]
		call("forge_unsubscribe", `{"subscription_id":"`+sub+`"}`).want(t, 0, `Unsubscribed `+sub)
		call("forge_unsubscribe", `{"subscription_id":"`+sub+`"}`).
			want(t, 1, `forge_unsubscribe failed: not_found: subscription "`+sub+`" not found for this account`)

		// Tool failures are exit 1 with the text the model reads.
		call("forge_get_issue", `{"repo":"demo/app","issue_number":99}`).
			want(t, 1, `forge_get_issue failed: not_found: issue #99 not found in demo/app`)
		call("forge_submit_review", `{"repo":"demo/app","pull_number":2,"verdict":"comment"}`).
			want(t, 1, `forge_submit_review failed: invalid_argument: body is required unless verdict is approve`)
		call("forge_get_issue", `{"repo":"demo/app","issue_number":1,"title":"x"}`).
			want(t, 1, `forge_get_issue failed: invalid_argument: unknown parameter "title".*`)
	})
}

// TestCallUsageErrors: a bad invocation exits 2 and says why on stderr,
// with nothing on stdout.
func TestCallUsageErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown tool", []string{"call", "forge_delete_repo", "{}"}, `"forge_delete_repo": unknown tool; available tools: forge_get_issue, `},
		{"unknown flag", []string{"call", "forge_get_issue", "{}", "--no-such-flag"}, "unknown flag: --no-such-flag"},
		{"no tool", []string{"call"}, "accepts between 1 and 2 arg(s)"},
		{"gateway and store", []string{"call", "forge_get_issue", "{}", "--gateway", "unix:///nowhere.sock", "--store", "x.db"},
			"--config, --github, --store and --session apply only in-process"},
		{"relative socket", []string{"call", "forge_get_issue", "{}", "--gateway", "unix://x.sock"}, "needs an absolute socket path"},
		{"token on a socket", []string{"call", "forge_get_issue", "{}", "--gateway", "unix:///x.sock", "--token-env", "HOME"},
			"a unix socket is its own identity"},
		{"unknown session", []string{"call", "forge_get_issue", "{}", "--session", "mallory"}, `--session "mallory" is not configured; sessions: demo`},
		{"token without a gateway", []string{"call", "forge_get_issue", "{}", "--token-env", "HOME"}, "without either it would be ignored"},
		{"bad log level", []string{"call", "forge_get_issue", "{}", "--log-level", "loud"}, `--log-level "loud"`},
	}
	for _, c := range cases {
		r := e.run(c.args...)
		if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%s: want exit 2, no stdout and stderr containing %q; got %v", c.name, c.want, r)
		}
	}
}

// wantText compares a whole result text and shows both on a mismatch.
func wantText(t *testing.T, got, want string) {
	t.Helper()
	if got != want {
		t.Fatalf("result text differs\n--- got:\n%s\n--- want:\n%s", got, want)
	}
}

// TestDemo: the README's first command runs the agent-hands flow on a
// throwaway local forge (read, branch, fix, pull request, review, CI, merge
// with the head sha, read back on main) and the change notifications (a
// subscription hears of someone else's review, then of the agent's own
// writes, marked), with only the two scripted failures, and leaves the data
// directory alone.
func TestDemo(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.run("demo")
	if r.code != 0 {
		t.Fatalf("demo: %v", r)
	}
	for _, tool := range []string{"forge_create_issue", "forge_get_repo", "forge_list_dir", "forge_read_file",
		"forge_trigger_ci", "forge_list_ci_runs", "forge_get_ci_run", "forge_create_branch", "forge_write_file",
		"forge_create_pull_request", "forge_submit_review", "forge_get_pull_request", "forge_merge_pull_request",
		"forge_update_issue", "forge_list_pull_requests", "forge_subscribe", "forge_get_events", "forge_comment_on_pull_request",
		"forge_unsubscribe"} {
		if !strings.Contains(r.stdout, "\n> "+tool+" {") {
			t.Errorf("the demo never calls %s", tool)
		}
	}
	for _, line := range []string{
		"  Created issue #1 in demo/app: http://localhost/forge/demo/app/issues/1\n",
		"  Issue #1 in demo/app already created by an earlier attempt\n",
		"  config.go: Load does not handle an empty file\n",
		// The default policy parks the agent's pushes; the demo's operator
		// denies the commit to main (the model reads why) and approves the
		// rest, each run once and read back by the same call again.
		"  forge_write_file failed: permission_denied: approval ap-",
		"operator demo-operator denied this call: not on main: commit to a branch of your own and open a pull request\n",
		"! demo-operator: forgetools approvals approve ap-",
		"  Approved ap-",
		"  Created branch fix-empty-config in demo/app at ",
		"  Opened PR #2 in demo/app: http://localhost/forge/demo/app/pull/2\n",
		"  conclusion: success\n",
		"  mergeable: true\n",
		"  forge_write_file failed: failed_precondition: config.go on fix-empty-config is now blob ",
		"  Merged PR #2 in demo/app (merge): ",
		"  \tif len(data) == 0 {\n",
		"  Updated issue #1 in demo/app: http://localhost/forge/demo/app/issues/1\n",
		"  state: merged\n",
		// The operator's decisions on the parked pushes, the CI run's
		// outcome and the review someone else made reach the subscriber
		// as events...
		"  kind: approval\n  type: state\n",
		"  state: denied\n  <<<body-",
		"operator demo-operator approved forge_create_branch on demo/app: a branch for the fix; it ran.",
		"  type: checks\n  actor: ci\n",
		"! alice reviews PR #2:",
		"  type: review\n  actor: alice\n",
		"  type: review_comment\n  actor: alice\n",
		// ...and, once that page is acknowledged, the agent's own writes
		// (marked) and the merge.
		"> forge_get_events {\"after\":6}\n",
		"  type: comment\n  own: true\n  actor: demo\n",
		"  type: review\n  own: true\n  actor: demo\n",
		"  type: state\n  own: true\n  actor: demo\n",
		"  Unsubscribed ",
	} {
		if !strings.Contains(r.stdout, line) {
			t.Errorf("the demo output lacks %q", line)
		}
	}
	if n := strings.Count(r.stdout, "failed: pending_approval: approval ap-"); n != 5 {
		t.Errorf("%d parked calls in the demo, want its 5 pushes:\n%s", n, r.stdout)
	}
	if n := strings.Count(r.stdout, " failed: ") - strings.Count(r.stdout, "failed: pending_approval") - strings.Count(r.stdout, "; the call ran and failed: "); n != 2 {
		t.Errorf("%d failed calls in the demo, want the 2 scripted ones (the denied push and the stale write):\n%s", n, r.stdout)
	}
	if !strings.Contains(r.stdout, "run with --store to keep it and git clone it") {
		t.Errorf("the demo does not say how to keep the repository")
	}
	if entries, _ := os.ReadDir(e.dataDir()); len(entries) != 0 {
		t.Errorf("the demo wrote to the data directory: %v", entries)
	}
}

// TestHelpHasExamples: every command explains itself with an example.
func TestHelpHasExamples(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, cmd := range []string{"serve", "mcp", "tools", "call", "demo", "repos", "scope"} {
		r := e.run(cmd, "--help")
		if r.code != 0 || !strings.Contains(r.stdout, "\nExamples:\n  forgetools "+cmd) {
			t.Errorf("%s --help: want exit 0 and an example; got %v", cmd, r)
		}
	}
}
