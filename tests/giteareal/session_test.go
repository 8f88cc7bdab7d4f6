package giteareal_test

import (
	"fmt"
	"strings"
	"testing"
)

// Every arm the fake's session covers (tests/forges TestGiteaSession),
// against the real server, each result checked with Gitea's own API.
func TestRealGiteaSession(t *testing.T) {
	e := start(t, asBot)
	host := e.g.URL + e.repo

	// Issues: labels go by id, resolved from the names first.
	want(t, "create issue", e.ok("forge_create_issue", `,"title":"Gadget squeaks","body":"Steps: press.","labels":["bug","docs"]`),
		"Created issue #1 in "+e.repo+": "+host+"/issues/1")
	var got issue
	e.get("/issues/1", &got)
	if got.Title != "Gadget squeaks" || got.Body != stamped+"Steps: press." || strings.Join(got.labels(), ",") != "bug,docs" {
		t.Errorf("Gitea holds issue #1 as %+v", got)
	}
	want(t, "missing label", e.fails("forge_create_issue", `,"title":"x","labels":["bug","wontfix"]`),
		`forge_create_issue failed: invalid_argument: Gitea takes labels by id, and `+e.repo+` has no label "wontfix"; nothing was written: use existing labels (or leave them out)`)
	if n := len(e.issues()); n != 1 {
		t.Errorf("Gitea holds %d issues after a refused create, want 1", n)
	}
	wantPrefix(t, "comment", e.ok("forge_comment_on_issue", `,"issue_number":1,"body":"Reproduced."`),
		"Commented on issue #1 in "+e.repo+": "+host+"/issues/1#issuecomment-")
	var comments []struct{ Body string }
	e.get("/issues/1/comments", &comments)
	if len(comments) != 1 || comments[0].Body != stamped+"Reproduced." {
		t.Errorf("Gitea holds the comments %+v", comments)
	}
	read := e.ok("forge_get_issue", `,"issue_number":1`)
	for _, part := range []string{"labels: bug, docs\n", "author: forgetools-bot\n", "Reproduced.\n", "comments: 1\n"} {
		if !strings.Contains(read, part) {
			t.Errorf("get issue lacks %q:\n%s", part, read)
		}
	}
	e.addIssue(e.u.bot.Token, "Unlabelled")
	list := e.ok("forge_list_issues", `,"labels":["bug"]`)
	if strings.Count(list, "# issues[") != 1 || !strings.Contains(list, "Gadget squeaks") {
		t.Errorf("list issues labelled bug:\n%s", list)
	}
	want(t, "update issue", e.ok("forge_update_issue", `,"issue_number":1,"state":"closed","labels":["docs"]`),
		"Updated issue #1 in "+e.repo+": "+host+"/issues/1")
	e.get("/issues/1", &got)
	if got.State != "closed" || strings.Join(got.labels(), ",") != "docs" {
		t.Errorf("after the update Gitea holds issue #1 as %+v", got)
	}

	// The push arms: a branch in one call, a file on it, never main.
	want(t, "write to main", e.fails("forge_write_file", `,"branch":"main","path":"NOTES.md","content":"x","message":"Notes"`),
		"forge_write_file failed: permission_denied: main is the default branch of "+e.repo+", and this gateway does not allow pushing to it; nothing was written: create a branch (forge_create_branch), write there and open a pull request")
	mainHead := e.head("main")
	want(t, "create branch", e.ok("forge_create_branch", `,"branch":"fix-squeak"`), "Created branch fix-squeak in "+e.repo+" at "+mainHead)
	read = e.ok("forge_read_file", `,"path":"src/gadget.go","ref":"fix-squeak"`)
	blob := field(t, read, "sha")
	if !strings.Contains(read, "package gadget\n") {
		t.Errorf("read file:\n%s", read)
	}
	quiet := "package gadget\n\n// Squeak is quiet now.\nfunc Squeak() string {\n\treturn \"\"\n}\n"
	ack := e.ok("forge_write_file", `,"branch":"fix-squeak","path":"src/gadget.go","content":`+jsonString(quiet)+`,"message":"Quiet the gadget","expected_sha":"`+blob+`"`)
	want(t, "write file", ack, "Committed src/gadget.go to fix-squeak in "+e.repo+": "+e.head("fix-squeak"))
	if content := e.file("fix-squeak", "src/gadget.go"); content != quiet {
		t.Errorf("Gitea holds src/gadget.go on fix-squeak as %q", content)
	}
	wantPrefix(t, "stale write", e.fails("forge_write_file", `,"branch":"fix-squeak","path":"src/gadget.go","content":"x","message":"m","expected_sha":"`+blob+`"`),
		"forge_write_file failed: failed_precondition: src/gadget.go on fix-squeak in "+e.repo+" is now blob ")
	dir := e.ok("forge_list_dir", `,"ref":"fix-squeak"`)
	for _, part := range []string{"README.md", "src", ".gitea"} {
		if !strings.Contains(dir, part) {
			t.Errorf("list dir lacks %q:\n%s", part, dir)
		}
	}
	repo := e.ok("forge_get_repo", ``)
	for _, part := range []string{"default_branch: main\n", "permission: admin\n", "visibility: public\n"} {
		if !strings.Contains(repo, part) {
			t.Errorf("get repo lacks %q:\n%s", part, repo)
		}
	}

	// Pull requests, reviews and the merge.
	want(t, "create pull request", e.ok("forge_create_pull_request", `,"title":"Quiet the gadget","body":"Fixes #1.","head_ref":"fix-squeak"`),
		"Opened PR #3 in "+e.repo+": "+host+"/pulls/3")
	wantPrefix(t, "request changes", e.ok("forge_submit_review", `,"pull_number":3,"verdict":"request_changes","body":"Add a test.","comments":[{"path":"src/gadget.go","line":3,"body":"Why a comment?"}]`),
		"Submitted request_changes review on PR #3 in "+e.repo+": "+host+"/pulls/3#")
	wantPrefix(t, "approve", e.ok("forge_submit_review", `,"pull_number":3,"verdict":"approve"`), "Submitted approve review on PR #3")
	var reviews []struct {
		State         string
		User          struct{ Login string }
		CommentsCount int `json:"comments_count"`
	}
	e.get("/pulls/3/reviews", &reviews)
	if len(reviews) != 2 || reviews[0].State != "REQUEST_CHANGES" || reviews[0].CommentsCount != 1 || reviews[1].State != "APPROVED" ||
		reviews[1].CommentsCount != 0 || reviews[0].User.Login != e.u.reviewer.Name {
		t.Errorf("Gitea holds the reviews %+v", reviews)
	}
	e.ok("forge_comment_on_pull_request", `,"pull_number":3,"body":"Rebased."`)
	pr := e.ok("forge_get_pull_request", `,"pull_number":3`)
	head := field(t, pr, "head_sha")
	for _, part := range []string{"verdict: request_changes\n", "verdict: approve\n", "Why a comment?", "Rebased.", "\nmergeable: true"} {
		if !strings.Contains(pr, part) {
			t.Errorf("get pull request lacks %q:\n%s", part, pr)
		}
	}
	if list := e.ok("forge_list_pull_requests", `,"head":"fix-squeak"`); strings.Count(list, "# pull_requests[") != 1 {
		t.Errorf("list pull requests:\n%s", list)
	}
	want(t, "stale merge", e.fails("forge_merge_pull_request", `,"pull_number":3,"expected_head_sha":"0000000"`),
		"forge_merge_pull_request failed: failed_precondition: the head of "+e.repo+"#3 is "+head+", not 0000000: it moved since you read it; nothing was merged, read it again and decide")
	ack = e.ok("forge_merge_pull_request", `,"pull_number":3,"method":"squash","expected_head_sha":"`+head+`"`)
	want(t, "merge", ack, "Merged PR #3 in "+e.repo+" (squash): "+e.head("main"))
	if content := e.file("main", "src/gadget.go"); content != quiet {
		t.Errorf("main after the merge holds %q", content)
	}

	// CI without a runner: a dispatch makes a run Gitea queues, which
	// the reads see as waiting; nothing ever runs it.
	want(t, "trigger", e.ok("forge_trigger_ci", `,"workflow":"ci.yml","ref":"main","inputs":[{"name":"level","value":"full"}]`),
		"Triggered ci.yml on main in "+e.repo)
	runs := e.ok("forge_list_ci_runs", ``)
	runID := field(t, runs, "run_id")
	var run struct {
		ID     int64
		Event  string
		Status string
	}
	e.get("/actions/runs/"+runID, &run)
	if run.Event != "workflow_dispatch" || fmt.Sprint(run.ID) != runID {
		t.Errorf("Gitea holds run %s as %+v", runID, run)
	}
	want(t, "subscribe", e.fails("forge_subscribe", `,"kind":"issue","number":1`),
		"forge_subscribe failed: unimplemented: Gitea delivers no change notifications to forgetools (read the issue or pull request again to see changes), so subscribe cannot run on forge gitea/"+e.g.Host)
	got1 := e.ok("forge_get_ci_run", `,"run_id":"`+runID+`"`)
	if !strings.Contains(got1, "status: "+run.Status+"\n") || !strings.Contains(got1, "# jobs[0]") {
		t.Errorf("get ci run (Gitea says status %s):\n%s", run.Status, got1)
	}
}

func jsonString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`)
	return `"` + r.Replace(s) + `"`
}

// head is a branch's head commit as Gitea holds it.
func (e *env) head(branch string) string {
	e.t.Helper()
	var b struct{ Commit struct{ ID string } }
	e.get("/branches/"+branch, &b)
	return b.Commit.ID
}

// file is a file's content on a branch as Gitea holds it.
func (e *env) file(ref, path string) string {
	e.t.Helper()
	var c struct{ Content string }
	e.get("/contents/"+path+"?ref="+ref, &c)
	raw, err := base64Decode(c.Content)
	if err != nil {
		e.t.Fatal(err)
	}
	return raw
}
