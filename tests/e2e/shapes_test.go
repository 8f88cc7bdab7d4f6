package e2e_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// shapeStep is one arm's call, as the flat tool and as its grouped
// action. Args may use a value an earlier step captured ({head}, {sub}).
type shapeStep struct {
	flat, group, action, args string
	// capture names the value the step's output yields for later steps,
	// by a regexp with one group.
	capture, from string
	// fails marks a step that must fail (and fail alike).
	fails bool
}

var shapeSteps = []shapeStep{
	{flat: "forge_get_repo", group: "forge_repo", action: "get_repo", args: `{"repo":"demo/app"}`},
	{flat: "forge_list_dir", group: "forge_repo", action: "list_dir", args: `{"repo":"demo/app"}`},
	{flat: "forge_read_file", group: "forge_repo", action: "read_file", args: `{"repo":"demo/app","path":"README.md"}`},
	{flat: "forge_search_code", group: "forge_repo", action: "search_code", args: `{"repo":"demo/app","query":"demo/APP"}`},
	{flat: "forge_create_branch", group: "forge_push", action: "create_branch", args: `{"repo":"demo/app","branch":"fix"}`},
	{flat: "forge_write_file", group: "forge_push", action: "write_file", args: `{"repo":"demo/app","branch":"fix","path":"FIX.md","content":"fixed\n","message":"Fix it"}`},
	{flat: "forge_commit_files", group: "forge_push", action: "commit_files", args: `{"repo":"demo/app","branch":"fix","message":"Two more","files":[{"path":"A.md","content":"a\n"},{"path":"docs/B.md","content":"b\n"}]}`},
	{flat: "forge_read_file", group: "forge_repo", action: "read_file", args: `{"repo":"demo/app","path":"README.md","start_line":1,"end_line":1}`},
	{flat: "forge_list_commits", group: "forge_repo", action: "list_commits", args: `{"repo":"demo/app","ref":"fix","limit":1}`},
	{flat: "forge_create_issue", group: "forge_issue", action: "open", args: `{"repo":"demo/app","title":"Track it","labels":["bug"]}`},
	{flat: "forge_get_issue", group: "forge_issue", action: "get", args: `{"repo":"demo/app","issue_number":1}`},
	{flat: "forge_list_issues", group: "forge_issue", action: "list", args: `{"repo":"demo/app","labels":["bug"]}`},
	{flat: "forge_search_issues", group: "forge_issue", action: "search", args: `{"repo":"demo/app","query":"track"}`},
	{flat: "forge_comment_on_issue", group: "forge_issue", action: "comment", args: `{"repo":"demo/app","issue_number":1,"body":"On it."}`},
	{flat: "forge_list_comments", group: "forge_issue", action: "list_comments", args: `{"repo":"demo/app","kind":"issue","number":1,"limit":1}`},
	{flat: "forge_update_issue", group: "forge_issue", action: "update", args: `{"repo":"demo/app","issue_number":1,"state":"closed","state_reason":"completed"}`},
	{flat: "forge_subscribe", group: "forge_subscription", action: "subscribe", args: `{"repo":"demo/app","kind":"issue","number":1}`,
		capture: "sub", from: `\bsubscription_id: (\S+)|subscription (\S+)`},
	{flat: "forge_create_pull_request", group: "forge_pull_request", action: "open", args: `{"repo":"demo/app","title":"Fix it","head_ref":"fix"}`},
	{flat: "forge_get_pull_request", group: "forge_pull_request", action: "get", args: `{"repo":"demo/app","pull_number":2}`,
		capture: "head", from: `\nhead_sha: ([0-9a-f]{40})\n`},
	{flat: "forge_get_pull_request_diff", group: "forge_pull_request", action: "diff", args: `{"repo":"demo/app","pull_number":2}`},
	{flat: "forge_compare", group: "forge_repo", action: "compare", args: `{"repo":"demo/app","base":"main","head":"fix"}`},
	{flat: "forge_list_pull_requests", group: "forge_pull_request", action: "list", args: `{"repo":"demo/app"}`},
	{flat: "forge_comment_on_pull_request", group: "forge_pull_request", action: "comment", args: `{"repo":"demo/app","pull_number":2,"body":"Ready."}`},
	{flat: "forge_submit_review", group: "forge_pull_request", action: "review", args: `{"repo":"demo/app","pull_number":2,"verdict":"comment","body":"Fine.","comments":[{"path":"FIX.md","line":1,"body":"Why?"}]}`},
	{flat: "forge_list_comments", group: "forge_issue", action: "list_comments", args: `{"repo":"demo/app","kind":"reviews","number":2}`},
	// The review's one inline comment is thread 1 in both worlds (a
	// captured "1" would be normalised out of every later output).
	{flat: "forge_list_review_threads", group: "forge_pull_request", action: "list_threads", args: `{"repo":"demo/app","pull_number":2}`},
	{flat: "forge_reply_to_review_thread", group: "forge_pull_request", action: "reply_thread", args: `{"repo":"demo/app","pull_number":2,"thread_id":"1","body":"Because."}`},
	{flat: "forge_resolve_review_thread", group: "forge_pull_request", action: "resolve_thread", args: `{"repo":"demo/app","pull_number":2,"thread_id":"1"}`},
	{flat: "forge_update_pull_request", group: "forge_pull_request", action: "update", args: `{"repo":"demo/app","pull_number":2,"title":"Fix it now","ready":true}`},
	{flat: "forge_trigger_ci", group: "forge_ci", action: "trigger", args: `{"repo":"demo/app","workflow":"ci","ref":"fix"}`},
	{flat: "forge_list_ci_runs", group: "forge_ci", action: "list_runs", args: `{"repo":"demo/app"}`},
	{flat: "forge_get_ci_run", group: "forge_ci", action: "get_run", args: `{"repo":"demo/app","run_id":"1"}`},
	{flat: "forge_rerun_ci", group: "forge_ci", action: "rerun", args: `{"repo":"demo/app","run_id":"1"}`},
	{flat: "forge_merge_pull_request", group: "forge_pull_request", action: "merge", args: `{"repo":"demo/app","pull_number":2,"expected_head_sha":"{head}"}`},
	{flat: "forge_get_events", group: "forge_subscription", action: "get_events", args: `{"subscription_id":"{sub}"}`},
	{flat: "forge_unsubscribe", group: "forge_subscription", action: "unsubscribe", args: `{"subscription_id":"{sub}"}`},
	// Failures read the same too, naming the tool the model called.
	{flat: "forge_get_issue", group: "forge_issue", action: "get", args: `{"repo":"demo/app","issue_number":99}`, fails: true},
	{flat: "forge_write_file", group: "forge_push", action: "write_file", args: `{"repo":"demo/app","branch":"main","path":"x","content":"x","message":"m"}`, fails: true},
	{flat: "forge_commit_files", group: "forge_push", action: "commit_files", args: `{"repo":"demo/app","branch":"fix","message":"m","files":[{"path":"A.md","content":"stale"}]}`, fails: true},
	{flat: "forge_reply_to_review_thread", group: "forge_pull_request", action: "reply_thread", args: `{"repo":"demo/app","pull_number":2,"thread_id":"999","body":"x"}`, fails: true},
}

// TestShapesAgree is issue 14's end-to-end check: every arm, run through
// `forgetools call` against `forgetools serve` on the local forge, once as
// the flat tool and once as the grouped tool's action, in lock step on two
// gateways with their own stores (two worlds, since a write cannot be
// made twice in one), reads the same: what only a world's clock decides
// (commit and blob shas, times, the random subscription id) and the fence
// nonce are normalised. Each read is also made as the flat tool in the
// grouped world, right after the grouped call, and must be byte-identical
// but for the nonce. SQLite only: the shape is the runtime's business,
// and the stores are covered by the other end-to-end tests.
func TestShapesAgree(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sockets := map[string]string{}
	for _, world := range []string{"flat", "grouped"} {
		srv := e.serve(1, "--config", writeConfig(t, handsConfig), "--store", storetest.SQLite(t), "--socket-dir", socketDir(t))
		sockets[world] = srv.Sockets[0]
	}
	call := func(world, tool, args string, flags ...string) result {
		t.Helper()
		return e.call(tool, args, append([]string{"--gateway", sockets[world]}, flags...)...)
	}
	vars := map[string]map[string]string{"flat": {}, "grouped": {}}
	for i, s := range shapeSteps {
		args := func(world string) string {
			a := s.args
			for k, v := range vars[world] {
				a = strings.ReplaceAll(a, "{"+k+"}", v)
			}
			return a
		}
		flat := call("flat", s.flat, args("flat"))
		if (flat.code != 0) != s.fails {
			t.Fatalf("step %d, %s: %v", i, s.flat, flat)
		}
		grouped := call("grouped", s.group, `{"action":"`+s.action+`",`+args("grouped")[1:], "--shape", "grouped")
		if s.capture != "" {
			vars["flat"][s.capture] = capture(t, s.from, flat.stdout)
			vars["grouped"][s.capture] = capture(t, s.from, grouped.stdout)
		}
		want, got := sameWorld(flat, vars["flat"]), sameWorld(grouped, vars["grouped"])
		got.stdout = strings.Replace(got.stdout, s.group+" "+s.action+" failed: ", s.flat+" failed: ", 1)
		if got.code != want.code || got.stdout != want.stdout {
			t.Errorf("step %d, %s vs %s %s:\nflat:    %v\ngrouped: %v", i, s.flat, s.group, s.action, want, got)
		}
		if flat.code != 0 || !strings.HasPrefix(flat.stdout, "Forge data") {
			continue // a write, or a failure: not to be repeated
		}
		again := call("grouped", s.flat, args("grouped"))
		if nonceless(again.stdout) != nonceless(grouped.stdout) || again.code != grouped.code {
			t.Errorf("step %d: %s and %s %s in one world differ:\n%v\n%v", i, s.flat, s.group, s.action, again, grouped)
		}
	}
}

// capture is the first non-empty group pattern matches in out.
func capture(t *testing.T, pattern, out string) string {
	t.Helper()
	for _, g := range regexp.MustCompile(pattern).FindStringSubmatch(out)[1:] {
		if g != "" {
			return g
		}
	}
	t.Fatalf("no %s in:\n%s", pattern, out)
	return ""
}

var (
	anyNonce = regexp.MustCompile(`(<<<\S*?-|>>>)[0-9a-f]{6,}\b`)
	hexSHA   = regexp.MustCompile(`\b[0-9a-f]{40}\b`)
	anyTime  = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`)
	// A cursor that pins a commit (forge_list_commits) hashes its sha, so
	// it differs between the worlds as the sha does.
	anyCursor = regexp.MustCompile(`(?m)^(\s*next_cursor: )\S+$`)
)

func nonceless(s string) string { return anyNonce.ReplaceAllString(s, "${1}NONCE") }

// sameWorld is r with what differs between two worlds in lock step
// normalised: the nonce, shas, times and the captured values.
func sameWorld(r result, vars map[string]string) result {
	out := nonceless(r.stdout)
	for k, v := range vars {
		out = strings.ReplaceAll(out, v, "{"+k+"}")
	}
	out = hexSHA.ReplaceAllString(out, "SHA")
	out = anyCursor.ReplaceAllString(out, "${1}CURSOR")
	r.stdout = anyTime.ReplaceAllString(out, "TIME")
	r.stderr = ""
	return r
}
