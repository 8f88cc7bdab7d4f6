package forges_test

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/forgetools/forgetools/providers/github/githubtest"
)

// approvalLine finds the approval id in a parked call's line.
var approvalLine = regexp.MustCompile(`pending_approval: approval (ap-[a-z2-7]+): `)

// approvals runs `forgetools approvals ARGS` on the test's configuration
// and store, with the forge credentials, and returns its output and
// whether it succeeded.
func (e *env) approvals(args ...string) (string, bool) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, append(append([]string{"approvals"}, args...), "--config", e.config)...)
	cmd.Env = credentialEnv(authorToken)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	e.seen = append(e.seen, out.String())
	return out.String(), err == nil
}

// With the default policy a push over the gateway's socket parks: no
// request reaches the GitHub fake until `forgetools approvals approve`
// sends it, once; the same call again reads the stored result and sends
// nothing; a second approval is refused.
func TestGitHubPushParksUntilApproved(t *testing.T) {
	e := start(t, withPolicy("{}"))
	gh := e.github
	before := len(gh.Requests())
	branch := `{` + hello + `,"branch":"parked"}`
	m := approvalLine.FindStringSubmatch(e.fails("forge_create_branch", branch))
	if m == nil {
		t.Fatal("the push did not park")
	}
	if n := len(gh.Requests()); n != before {
		t.Fatalf("a parked push sent %d requests to the forge: %v", n-before, sent(t, gh, before))
	}
	if out, ok := e.approvals("approve", m[1], "--operator", "ops"); !ok || !strings.Contains(out, "Approved "+m[1]+" (forge_create_branch on octocat/Hello-World); the call ran.") {
		t.Fatalf("approve: %s", out)
	}
	wantSent(t, "the approved push", sent(t, gh, before),
		"GET /repos/octocat/Hello-World author",
		"GET /repos/octocat/Hello-World/commits/main author",
		`POST /repos/octocat/Hello-World/git/refs author {"ref":"refs/heads/parked","sha":"SHA"}`)
	approved := len(gh.Requests())
	if got := e.ok("forge_create_branch", branch); !strings.HasPrefix(got, "Created branch parked in octocat/Hello-World at ") {
		t.Fatalf("the same call after the approval: %s", got)
	}
	if out, ok := e.approvals("approve", m[1]); ok || !strings.Contains(out, "already decided") {
		t.Fatalf("a second approve: %v %s", ok, out)
	}
	if n := len(gh.Requests()); n != approved {
		t.Fatalf("after the approval %d more requests reached the forge: %v", n-approved, sent(t, gh, approved))
	}
}

// An agent allowed to push still cannot merge its own unreviewed pull
// request into the default branch: neither credential's review counts as
// someone else's. Only reads reach the forge. With another login's
// approving review the merge runs.
func TestGitHubSelfMergeWaitsForAnotherReview(t *testing.T) {
	e := start(t, withPolicy("{push: allow, risk: {high: allow}}"))
	gh := e.github
	n := gh.AddPull(helloRepo, githubtest.Pull{Title: "Fix", Head: "fix-crash"})
	head := gh.Head(helloRepo, "fix-crash")
	e.ok("forge_submit_review", fmt.Sprintf(`{%s,"pull_number":%d,"verdict":"approve"}`, hello, n))
	merge := fmt.Sprintf(`{%s,"pull_number":%d,"expected_head_sha":"%s"}`, hello, n, head)
	before := len(gh.Requests())
	text := e.fails("forge_merge_pull_request", merge)
	if !approvalLine.MatchString(text) || !strings.Contains(text, "no one other than this account approved it (unreviewed_merge: operator)") {
		t.Fatalf("the self-approved merge: %s", text)
	}
	for _, r := range gh.Requests()[before:] {
		if r.Method != "GET" {
			t.Fatalf("a parked merge sent %s %s", r.Method, r.Path)
		}
	}
	gh.Review(helloRepo, n, "octocat", "APPROVED", "")
	if got := e.ok("forge_merge_pull_request", merge); !strings.HasPrefix(got, fmt.Sprintf("Merged PR #%d in octocat/Hello-World", n)) {
		t.Fatalf("the merge another login approved: %s", got)
	}
}
