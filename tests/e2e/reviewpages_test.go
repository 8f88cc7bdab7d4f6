package e2e_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// reviewPagesConfig is a local forge and one account that may push (to
// open the pull request) and write its reviews within a minute.
const reviewPagesConfig = `
forges:
  - provider: local
    base_url: http://forge.test/f
accounts:
  - name: alice
    agent_handle: alice-bot
    owner_handle: alice
    scope: ["demo/*"]
    sessions: [alice-1]
    policy: {push: allow, risk: {high: allow}}
    limits: {write_calls_per_minute: 1000}
`

var reviewBody = regexp.MustCompile(`(?m)^(r\d+)$`)

// TestReviewPagesOverSocket is issue 21's proof that a pull request's
// reviews are reachable past forge_get_pull_request's cap, on the local
// forge through `forgetools call` against `forgetools serve`, on each
// store backend: 45 reviews, of which the pull request's read shows 30,
// are read 20 a page with forge_list_comments kind reviews, each exactly
// once, oldest first, each with its verdict and without inline comments;
// an issue's number is not found; a cursor of the conversation is refused.
func TestReviewPagesOverSocket(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, dsn string) {
		t.Parallel()
		e := newEnv(t)
		srv := e.serve(1, "--config", writeConfig(t, reviewPagesConfig), "--store", dsn, "--socket-dir", socketDir(t))
		call := func(tool, args string) result { t.Helper(); return e.call(tool, args, "--gateway", srv.Sockets[0]) }

		call("forge_create_issue", `{"repo":"demo/app","title":"Not a pull request"}`).want(t, 0, `Created issue #1 in demo/app: .*`)
		call("forge_create_branch", `{"repo":"demo/app","branch":"fix"}`).want(t, 0, `Created branch .*`)
		call("forge_create_pull_request", `{"repo":"demo/app","title":"Fix","head_ref":"fix"}`).want(t, 0, `Opened PR #2 in demo/app: .*`)
		verdicts := []string{"comment", "request_changes", "approve"}
		const reviews = 45
		for i := range reviews {
			args := fmt.Sprintf(`{"repo":"demo/app","pull_number":2,"verdict":"%s","body":"r%d"`, verdicts[i%3], i)
			if i == 0 {
				args += `,"comments":[{"path":"README.md","line":1,"body":"An inline remark."}]`
			}
			call("forge_submit_review", args+"}").want(t, 0, `Submitted .* review .*`)
		}
		call("forge_comment_on_pull_request", `{"repo":"demo/app","pull_number":2,"body":"c0"}`).want(t, 0, `Commented .*`)
		if pr := call("forge_get_pull_request", `{"repo":"demo/app","pull_number":2}`).record(t); !strings.Contains(pr, "\nreviews: 45 (first 30 shown, 15 more not shown)\n") {
			t.Fatalf("the pull request's read does not cap its reviews at 30 of 45:\n%s", pr)
		}

		var bodies []string
		var pages []string
		args := `{"repo":"demo/app","kind":"reviews","number":2,"limit":20}`
		for len(pages) < 5 {
			out := call("forge_list_comments", args).record(t)
			pages = append(pages, out)
			bodies = append(bodies, reviewBody.FindAllString(out, -1)...)
			if strings.Contains(out, "An inline remark.") || strings.Contains(out, "\nc0\n") {
				t.Errorf("a page of reviews shows an inline or conversation comment:\n%s", out)
			}
			m := nextCursor.FindStringSubmatch(out)
			if m == nil {
				break
			}
			args = `{"repo":"demo/app","kind":"reviews","number":2,"limit":20,"cursor":"` + m[1] + `"}`
		}
		var want []string
		for i := range reviews {
			want = append(want, fmt.Sprint("r", i))
		}
		if len(pages) != 3 || strings.Join(bodies, " ") != strings.Join(want, " ") {
			t.Fatalf("%d pages read reviews %v\nwant 3 pages of r0 to r44 (oldest first, no gap or repeat)", len(pages), bodies)
		}
		if !strings.Contains(pages[0], "\nreviews: 20\n# reviews[0]\nauthor: alice\nverdict: comment\n") ||
			!strings.Contains(pages[0], "# reviews[1]\nauthor: alice\nverdict: request_changes\n") ||
			!strings.Contains(pages[2], "\nreviews: 5\n") {
			t.Errorf("pages do not show each review's author and verdict:\n%s\n---\n%s", pages[0], pages[2])
		}

		call("forge_list_comments", `{"repo":"demo/app","kind":"reviews","number":1}`).
			want(t, 1, `forge_list_comments failed: not_found: pull request #1 not found in demo/app: #1 is an issue`)
		cursor := nextCursor.FindStringSubmatch(pages[0])[1]
		call("forge_list_comments", `{"repo":"demo/app","kind":"pull_request","number":2,"limit":20,"cursor":"`+cursor+`"}`).
			want(t, 1, `forge_list_comments failed: invalid_argument: cursor ".*" is not one forge_list_comments gave for these arguments: .*`)
	})
}
