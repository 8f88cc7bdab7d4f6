package forges_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/providers/github/githubtest"
	"github.com/forgetools/forgetools/toolserver"
)

// githubPushArgs are each push arm's arguments against the GitHub fake
// (Hello-World as start seeds it). A push arm the generated table gains
// without a row here fails the test.
var githubPushArgs = map[string]func(e *env) string{
	"create_branch": func(*env) string { return `{` + hello + `,"branch":"parked-branch"}` },
	"write_file": func(*env) string {
		return `{` + hello + `,"branch":"fix-crash","path":"NOTES.md","content":"notes\n","message":"Add notes"}`
	},
	"merge_pull_request": func(e *env) string {
		n := e.github.AddPull(helloRepo, githubtest.Pull{Title: "Parked merge", Head: "fix-crash"})
		return fmt.Sprintf(`{%s,"pull_number":%d,"expected_head_sha":"%s"}`, hello, n, e.github.Head(helloRepo, "fix-crash"))
	},
	"commit_files": func(*env) string {
		return `{` + hello + `,"branch":"fix-crash","message":"Add notes","files":[{"path":"NOTES.md","content":"notes\n"},{"path":"docs/more.md","content":"more\n"}]}`
	},
}

// githubWriteSequence are the writes of the push arms that take more
// than one request: a change set is blobs, a tree, a commit and one ref
// update, the only one that moves the branch. Every other push arm is
// exactly one write.
var githubWriteSequence = map[string][]string{"commit_files": {
	"POST /repos/octocat/Hello-World/git/blobs",
	"POST /repos/octocat/Hello-World/git/blobs",
	"POST /repos/octocat/Hello-World/git/trees",
	"POST /repos/octocat/Hello-World/git/commits",
	"PATCH /repos/octocat/Hello-World/git/refs/heads/fix-crash",
}}

// TestGitHubEveryPushArmParksUntilApproved: under the default policy,
// every push arm of the generated table, over the gateway's session
// socket, sends no request at all to the GitHub fake until `forgetools
// approvals approve`; the approval sends exactly one write (one
// non-GET request), or the arm's one write sequence; the same call again
// reads the stored result and sends nothing.
func TestGitHubEveryPushArmParksUntilApproved(t *testing.T) {
	var arms []*toolserver.Arm
	for _, a := range gatewayv1handler.ForgeTable.Arms {
		if a.Approval == toolserver.ApprovalPush {
			arms = append(arms, a)
		}
	}
	if len(arms) == 0 {
		t.Fatal("the generated table has no push arm")
	}
	for _, arm := range arms {
		t.Run(arm.Name, func(t *testing.T) {
			args := githubPushArgs[arm.Name]
			if args == nil {
				t.Fatalf("push arm %s (%s) has no arguments in githubPushArgs: add them so the gate is tested on it", arm.Name, arm.Tool)
			}
			e := start(t, withPolicy("{}"))
			gh := e.github
			call := args(e)
			before := len(gh.Requests())
			m := approvalLine.FindStringSubmatch(e.fails(arm.Tool, call))
			if m == nil {
				t.Fatalf("%s did not park", arm.Tool)
			}
			if again := approvalLine.FindStringSubmatch(e.fails(arm.Tool, call)); again == nil || again[1] != m[1] {
				t.Fatalf("the repeat parked %v, want %s", again, m[1])
			}
			if n := len(gh.Requests()); n != before {
				t.Fatalf("a parked %s sent %d requests to the forge: %v", arm.Tool, n-before, sent(t, gh, before))
			}
			if out, ok := e.approvals("approve", m[1], "--operator", "ops"); !ok || !strings.Contains(out, "Approved "+m[1]+" ("+arm.Tool+" on "+helloRepo+"); the call ran.") {
				t.Fatalf("approve: %s", out)
			}
			w := writes(gh, before)
			if seq := githubWriteSequence[arm.Name]; seq != nil && !slices.Equal(w, seq) || seq == nil && len(w) != 1 {
				t.Fatalf("the approved %s sent the writes %v: %v", arm.Tool, w, sent(t, gh, before))
			}
			approved := len(gh.Requests())
			if got, failed := e.call(arm.Tool, call); failed || approvalLine.MatchString(got) {
				t.Fatalf("the same call after the approval: %s", got)
			}
			if n := len(gh.Requests()); n != approved {
				t.Fatalf("after the approval %d more requests reached the forge: %v", n-approved, sent(t, gh, approved))
			}
		})
	}
}

// writes lists the requests from index from on that are not reads.
func writes(s *githubtest.Server, from int) []string {
	var out []string
	for _, r := range s.Requests()[from:] {
		if r.Method != "GET" && r.Method != "HEAD" {
			out = append(out, r.Method+" "+r.Path)
		}
	}
	return out
}
