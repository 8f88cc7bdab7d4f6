package forges_test

import (
	"strings"
	"testing"

	"github.com/forgetools/forgetools/providers/gitea/giteatest"
)

// onGitea addresses acme/gadgets on the Gitea instance.
const onGitea = `"repo":"acme/gadgets","forge_provider":"gitea"`

// giteaSent is what a Gitea or Forgejo fake received from request from
// on, one line each (see lines).
func giteaSent(t *testing.T, s *giteatest.Server, from int) []string {
	t.Helper()
	var ws []wire
	for _, r := range s.Requests()[from:] {
		ws = append(ws, wire{r.Method, r.Path, r.Query, r.Header, r.Body})
	}
	return lines(t, ws, "Authorization", map[string]string{"token " + giteaToken: "author", "token " + giteaReviewer: "reviewer", "token " + forgejoToken: "author"})
}

// Every arm on Gitea, as the model sees it, and what reached Gitea.
func TestGiteaSession(t *testing.T) {
	e := start(t)
	g := e.gitea

	// Labels go by id: "bug" and "docs" are resolved first.
	create := `{` + onGitea + `,"title":"Gadget squeaks","body":"Steps: press.","labels":["bug","docs"]}`
	want(t, "create issue", e.ok("forge_create_issue", create, "gt-create-1"),
		"Created issue #2 in acme/gadgets: https://gitea.example.com/acme/gadgets/issues/2")
	want(t, "create replay", e.ok("forge_create_issue", create, "gt-create-1"),
		"Issue #2 in acme/gadgets already created by an earlier attempt")
	// The credential's permission is read first: Gitea drops the labels
	// of one that cannot write.
	wantSent(t, "create issue", giteaSent(t, g, 0),
		"GET /repos/acme/gadgets author",
		"GET /repos/acme/gadgets/labels?limit=50&page=1 author",
		`POST /repos/acme/gadgets/issues author {"title":"Gadget squeaks","body":"`+jsonText(stamped)+`Steps: press.","ref":"","assignees":null,"due_date":null,"milestone":0,"labels":[102,103],"closed":false}`)
	want(t, "missing label", e.fails("forge_create_issue", `{`+onGitea+`,"title":"x","labels":["bug","wontfix"]}`),
		`forge_create_issue failed: invalid_argument: Gitea takes labels by id, and acme/gadgets has no label "wontfix"; nothing was written: use existing labels (or leave them out)`)

	ack := e.ok("forge_comment_on_issue", `{`+onGitea+`,"issue_number":2,"body":"Reproduced."}`)
	if !strings.HasPrefix(ack, "Commented on issue #2 in acme/gadgets: https://gitea.example.com/acme/gadgets/issues/2#issuecomment-") {
		t.Errorf("comment: %s", ack)
	}
	got := e.ok("forge_get_issue", `{`+onGitea+`,"issue_number":2}`)
	for _, part := range []string{"labels: bug, docs\n", "author: forgetools-bot\n", claim, "Reproduced.\n", "comments: 1\n"} {
		if !strings.Contains(got, part) {
			t.Errorf("get issue lacks %q:\n%s", part, got)
		}
	}
	got = e.ok("forge_list_issues", `{`+onGitea+`,"labels":["bug"]}`)
	if strings.Count(got, "# issues[") != 2 {
		t.Errorf("list issues:\n%s", got)
	}
	want(t, "update issue", e.ok("forge_update_issue", `{`+onGitea+`,"issue_number":1,"state":"closed","labels":["docs"]}`),
		"Updated issue #1 in acme/gadgets: https://gitea.example.com/acme/gadgets/issues/1")
	want(t, "state reason", e.fails("forge_update_issue", `{`+onGitea+`,"issue_number":1,"state":"closed","state_reason":"not_planned"}`),
		"forge_update_issue failed: invalid_argument: Gitea records no reason for closing or reopening an issue; leave state_reason out")

	// The push arms: a branch in one call, a file on it, never main.
	want(t, "write to main", e.fails("forge_write_file", `{`+onGitea+`,"branch":"main","path":"NOTES.md","content":"x","message":"Notes"}`),
		"forge_write_file failed: permission_denied: main is the default branch of acme/gadgets, and this gateway does not allow pushing to it; nothing was written: create a branch (forge_create_branch), write there and open a pull request")
	got = e.ok("forge_create_branch", `{`+onGitea+`,"branch":"fix-squeak"}`)
	want(t, "create branch", got, "Created branch fix-squeak in acme/gadgets at "+g.Head(gadgets, "main"))
	read := e.ok("forge_read_file", `{`+onGitea+`,"path":"src/gadget.go","ref":"fix-squeak"}`)
	blob := field(t, read, "sha")
	if !strings.Contains(read, "package gadget\n") {
		t.Errorf("read file:\n%s", read)
	}
	want(t, "write file", e.ok("forge_write_file", `{`+onGitea+`,"branch":"fix-squeak","path":"src/gadget.go","content":"package gadget // quiet\n","message":"Quiet the gadget","expected_sha":"`+blob+`"}`),
		"Committed src/gadget.go to fix-squeak in acme/gadgets: "+g.Head(gadgets, "fix-squeak"))
	want(t, "stale write", e.fails("forge_write_file", `{`+onGitea+`,"branch":"fix-squeak","path":"src/gadget.go","content":"x","message":"m","expected_sha":"`+blob+`"}`),
		"forge_write_file failed: failed_precondition: src/gadget.go on fix-squeak in acme/gadgets is now blob "+blobOf("package gadget // quiet\n")+", not "+blob+": it changed since you read it; nothing was written, read it again and decide")
	got = e.ok("forge_list_dir", `{`+onGitea+`,"ref":"fix-squeak"}`)
	for _, part := range []string{"type: dir\n", "README.md", "src"} {
		if !strings.Contains(got, part) {
			t.Errorf("list dir lacks %q:\n%s", part, got)
		}
	}
	got = e.ok("forge_get_repo", `{`+onGitea+`}`)
	for _, part := range []string{"default_branch: main\n", "permission: admin\n", "visibility: public\n"} {
		if !strings.Contains(got, part) {
			t.Errorf("get repo lacks %q:\n%s", part, got)
		}
	}

	// Pull requests, reviews and the merge.
	want(t, "create pull request", e.ok("forge_create_pull_request", `{`+onGitea+`,"title":"Quiet the gadget","body":"Fixes #2.","head_ref":"fix-squeak"}`, "gt-pr-1"),
		"Opened PR #3 in acme/gadgets: https://gitea.example.com/acme/gadgets/pulls/3")
	ack = e.ok("forge_submit_review", `{`+onGitea+`,"pull_number":3,"verdict":"request_changes","body":"Add a test.","comments":[{"path":"src/gadget.go","line":1,"body":"Why a comment?"}]}`)
	if !strings.HasPrefix(ack, "Submitted request_changes review on PR #3 in acme/gadgets: https://gitea.example.com/acme/gadgets/pulls/3#") {
		t.Errorf("request changes: %s", ack)
	}
	if !strings.HasPrefix(e.ok("forge_submit_review", `{`+onGitea+`,"pull_number":3,"verdict":"approve"}`), "Submitted approve review on PR #3") {
		t.Error("approve failed")
	}
	e.ok("forge_comment_on_pull_request", `{`+onGitea+`,"pull_number":3,"body":"Rebased."}`)
	var reviews []string
	for _, l := range giteaSent(t, g, 0) {
		if strings.HasPrefix(l, "POST /repos/acme/gadgets/pulls/3/reviews ") {
			reviews = append(reviews, l)
		}
	}
	if !strings.Contains(reviews[0], `"event":"REQUEST_CHANGES"`) || !strings.Contains(reviews[0], " reviewer ") ||
		!strings.Contains(reviews[0], `"new_position":1`) || !strings.Contains(reviews[1], `"event":"APPROVED"`) {
		t.Errorf("reviews sent:\n%s", strings.Join(reviews, "\n"))
	}
	pr := e.ok("forge_get_pull_request", `{`+onGitea+`,"pull_number":3}`)
	head := field(t, pr, "head_sha")
	for _, part := range []string{"verdict: request_changes\n", "verdict: approve\n", "Why a comment?", "Rebased.", "\nmergeable: true"} {
		if !strings.Contains(pr, part) {
			t.Errorf("get pull request lacks %q:\n%s", part, pr)
		}
	}
	got = e.ok("forge_list_pull_requests", `{`+onGitea+`,"head":"fix-squeak"}`)
	if strings.Count(got, "# pull_requests[") != 1 {
		t.Errorf("list pull requests:\n%s", got)
	}
	want(t, "stale merge", e.fails("forge_merge_pull_request", `{`+onGitea+`,"pull_number":3,"expected_head_sha":"0000000"}`),
		"forge_merge_pull_request failed: failed_precondition: the head of acme/gadgets#3 is "+head+", not 0000000: it moved since you read it; nothing was merged, read it again and decide")
	got = e.ok("forge_merge_pull_request", `{`+onGitea+`,"pull_number":3,"method":"squash","expected_head_sha":"`+head+`"}`)
	want(t, "merge", got, "Merged PR #3 in acme/gadgets (squash): "+g.Head(gadgets, "main"))
	if content, _ := g.File(gadgets, "main", "src/gadget.go"); content != "package gadget // quiet\n" {
		t.Errorf("main after the merge: %q", content)
	}

	// CI: Actions runs.
	got = e.ok("forge_list_ci_runs", `{`+onGitea+`}`)
	runID := field(t, got, "run_id")
	got = e.ok("forge_get_ci_run", `{`+onGitea+`,"run_id":"`+runID+`"}`)
	for _, part := range []string{"conclusion: failure\n", "--- FAIL: TestJam\n"} {
		if !strings.Contains(got, part) {
			t.Errorf("get ci run lacks %q:\n%s", part, got)
		}
	}
	want(t, "trigger", e.ok("forge_trigger_ci", `{`+onGitea+`,"workflow":"ci.yml","ref":"main","inputs":[{"name":"level","value":"full"}]}`),
		"Triggered ci.yml on main in acme/gadgets")
	if !strings.HasPrefix(e.ok("forge_rerun_ci", `{`+onGitea+`,"run_id":"`+runID+`","failed_only":true}`), "Re-running run "+runID+" in acme/gadgets: https://gitea.example.com/acme/gadgets/actions/runs/1") {
		t.Error("rerun failed")
	}

	want(t, "subscribe", e.fails("forge_subscribe", `{`+onGitea+`,"kind":"issue","number":1}`),
		"forge_subscribe failed: unimplemented: Gitea delivers no change notifications to forgetools (read the issue or pull request again to see changes), so subscribe cannot run on forge gitea/gitea.example.com")
	if n := len(e.github.Requests()) + len(e.forgejo.Requests()) + len(e.gitlab.Requests()); n != 0 {
		t.Errorf("other forges received %d requests", n)
	}
}

// field is the value of a "name: value" line of a read.
func field(t *testing.T, read, name string) string {
	t.Helper()
	for _, line := range strings.Split(read, "\n") {
		if v, ok := strings.CutPrefix(line, name+": "); ok {
			return v
		}
	}
	t.Fatalf("no %s line in:\n%s", name, read)
	return ""
}
