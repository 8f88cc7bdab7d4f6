package giteareal_test

import (
	"fmt"
	"strings"
	"testing"
)

// What only the real server showed (issue 22's D1 to D7 and the smaller
// items): each test failed against Gitea before the provider's fix.

// D1: Gitea drops label names it does not know and matches the rest
// case-sensitively, so an unknown or differently cased label widened the
// listing to every open issue.
func TestRealGiteaListIssuesLabelsNarrow(t *testing.T) {
	e := start(t, asBot)
	e.addIssue(e.u.bot.Token, "Crashes", "bug")
	e.addIssue(e.u.bot.Token, "Typo", "docs")
	e.addIssue(e.u.bot.Token, "Plain")
	want(t, "unknown label", e.fails("forge_list_issues", `,"labels":["nope"]`),
		`forge_list_issues failed: invalid_argument: `+e.repo+` has no label "nope", so no issue carries it: list its labels by reading an issue, or leave labels out`)
	want(t, "known and unknown", e.fails("forge_list_issues", `,"labels":["bug","nope"]`),
		`forge_list_issues failed: invalid_argument: `+e.repo+` has no label "nope", so no issue carries it: list its labels by reading an issue, or leave labels out`)
	got := e.ok("forge_list_issues", `,"labels":["BUG"]`)
	if strings.Count(got, "# issues[") != 1 || !strings.Contains(got, "Crashes") {
		t.Errorf("labels [BUG] (Gitea's label is bug) list:\n%s", got)
	}
	if got := e.ok("forge_list_issues", `,"labels":["bug","docs"]`); strings.Contains(got, "# issues[") {
		t.Errorf("no issue carries both bug and docs, yet:\n%s", got)
	}
}

// D2: the SDK sends only the deprecated old_branch_name, which Gitea
// resolves as a branch: a start at a sha or a tag failed.
func TestRealGiteaCreateBranchFromShaAndTag(t *testing.T) {
	e := start(t, asBot)
	first := e.head("main")
	e.mustAPI(e.u.bot.Token, "POST", "/repos/"+e.repo+"/tags", map[string]any{"tag_name": "v1.0", "target": "main"}, nil)
	e.mustAPI(e.u.bot.Token, "POST", "/repos/"+e.repo+"/contents/later.txt", map[string]any{"content": b64("later\n"), "branch": "main", "message": "later"}, nil)
	want(t, "from a sha", e.ok("forge_create_branch", `,"branch":"at-sha","from_ref":"`+first+`"`), "Created branch at-sha in "+e.repo+" at "+first)
	want(t, "from a tag", e.ok("forge_create_branch", `,"branch":"at-tag","from_ref":"v1.0"`), "Created branch at-tag in "+e.repo+" at "+first)
	if e.head("at-sha") != first || e.head("at-tag") != first {
		t.Errorf("Gitea holds at-sha at %s and at-tag at %s, want %s", e.head("at-sha"), e.head("at-tag"), first)
	}
	want(t, "from nothing", e.fails("forge_create_branch", `,"branch":"at-none","from_ref":"no-such-ref"`),
		"forge_create_branch failed: not_found: "+e.repo+" has no branch, tag or commit no-such-ref to start a branch from; nothing was created")
}

// D3: a run that does not exist read as an instance without the Actions
// run API, while Gitea said 404 for the run and lists runs fine.
func TestRealGiteaMissingRun(t *testing.T) {
	e := start(t, asBot)
	// The workflow runs on dispatch only: the repository has no run, and
	// the run API answers.
	if got := e.ok("forge_list_ci_runs", ``); strings.Contains(got, "run_id:") {
		t.Errorf("a repository with no run lists:\n%s", got)
	}
	for _, tool := range []string{"forge_get_ci_run", "forge_rerun_ci"} {
		want(t, tool, e.fails(tool, `,"run_id":"999"`),
			tool+" failed: not_found: "+e.repo+" has no Actions run 999 (forge_list_ci_runs lists its runs)")
	}
}

// Actions disabled for a repository with no runs: Gitea 1.27 answers an
// empty list, or 404 or 403 for a run, not what a missing run API
// answers; the arms say Actions is off, as the README's table says.
func TestRealGiteaActionsDisabled(t *testing.T) {
	e := start(t, asBot)
	e.mustAPI(e.u.bot.Token, "PATCH", "/repos/"+e.repo, map[string]any{"has_actions": false}, nil)
	for _, c := range []struct{ tool, args string }{
		{"forge_list_ci_runs", ``},
		{"forge_get_ci_run", `,"run_id":"1"`},
		{"forge_rerun_ci", `,"run_id":"1"`},
	} {
		want(t, c.tool, e.fails(c.tool, c.args),
			c.tool+" failed: unimplemented: Actions is disabled for "+e.repo+" on this Gitea, so it has no CI runs to read or re-run (an owner can enable it in the repository's settings)")
	}
}

// D4: a run not yet started carries the Unix epoch as its start, which
// read as created_at 1970-01-01.
func TestRealGiteaQueuedRunTime(t *testing.T) {
	e := start(t, asBot)
	e.ok("forge_trigger_ci", `,"workflow":"ci.yml","ref":"main"`)
	list := e.ok("forge_list_ci_runs", ``)
	id := field(t, list, "run_id")
	for _, read := range []string{list, e.ok("forge_get_ci_run", `,"run_id":"`+id+`"`)} {
		if strings.Contains(read, "1970-01-01") {
			t.Errorf("a queued run shows the Unix epoch:\n%s", read)
		}
	}
	// Gitea re-runs only a run that is done: a waiting one is refused,
	// and the refusal says so rather than unavailable.
	want(t, "rerun waiting", e.fails("forge_rerun_ci", `,"run_id":"`+id+`"`),
		"forge_rerun_ci failed: failed_precondition: Gitea refused to re-run run "+id+" in "+e.repo+": this workflow run is not done; nothing was re-run")
	want(t, "rerun failed jobs", e.fails("forge_rerun_ci", `,"run_id":"`+id+`","failed_only":true`),
		"forge_rerun_ci failed: failed_precondition: Gitea refused to re-run run "+id+" in "+e.repo+": this workflow run has no failed jobs to re-run; nothing was re-run")
}

// D5: an inline comment past the end of its file made Gitea answer 500
// and leave a PENDING review holding the comments that did land, which
// the reviewer's next verdict then submitted.
func TestRealGiteaReviewPastEndOfFile(t *testing.T) {
	e := start(t, asBot)
	e.openPull("fix")
	want(t, "past the end", e.fails("forge_submit_review", `,"pull_number":1,"verdict":"comment","body":"Two notes.","comments":[{"path":"src/gadget.go","line":2,"body":"first"},{"path":"src/gadget.go","line":500,"body":"too far"}]`),
		"forge_submit_review failed: invalid_argument: comments[1]: src/gadget.go has 6 lines at the head of PR #1, so line 500 is past its end; nothing was submitted")
	wantPrefix(t, "approve", e.ok("forge_submit_review", `,"pull_number":1,"verdict":"approve"`), "Submitted approve review on PR #1")
	var reviews []struct {
		ID            int64
		State         string
		CommentsCount int `json:"comments_count"`
	}
	e.mustAPI(e.u.reviewer.Token, "GET", "/repos/"+e.repo+"/pulls/1/reviews", nil, &reviews)
	if len(reviews) != 1 || reviews[0].State != "APPROVED" || reviews[0].CommentsCount != 0 {
		t.Errorf("Gitea holds the reviews %+v, want one approval without comments", reviews)
	}
}

// D6: Gitea drops a milestone that is not the repository's, and for a
// credential that cannot write it drops labels, assignees and milestone.
func TestRealGiteaCreateIssueDropsNothing(t *testing.T) {
	e := start(t, asBot)
	want(t, "no such milestone", e.fails("forge_create_issue", `,"title":"x","milestone":4242`),
		"forge_create_issue failed: invalid_argument: "+e.repo+" has no milestone 4242 (Gitea's milestone number is the id in its /milestone/ID page); nothing was written")
	if n := len(e.issues()); n != 0 {
		t.Errorf("Gitea holds %d issues after a refused create", n)
	}
	var m struct{ ID int64 }
	e.mustAPI(e.u.bot.Token, "POST", "/repos/"+e.repo+"/milestones", map[string]any{"title": "v1"}, &m)
	want(t, "milestone", e.ok("forge_create_issue", fmt.Sprintf(`,"title":"In v1","milestone":%d`, m.ID)),
		"Created issue #1 in "+e.repo+": "+e.g.URL+e.repo+"/issues/1")
	var got issue
	e.get("/issues/1", &got)
	if got.Milestone == nil || got.Milestone.ID != m.ID {
		t.Errorf("Gitea holds issue #1 with milestone %+v, want %d", got.Milestone, m.ID)
	}

	o2 := withRepo(t, e, asOutsider)
	want(t, "outsider labels", o2.fails("forge_create_issue", `,"title":"From outside","labels":["bug"],"assignees":["forgetools-bot"]`),
		"forge_create_issue failed: permission_denied: this credential cannot write to "+e.repo+", and Gitea would drop or refuse the labels, assignees or milestone of its issue; nothing was written: open it without them")
	if n := len(e.issues()); n != 1 {
		t.Errorf("Gitea holds %d issues after the outsider's refused create, want 1", n)
	}
	want(t, "outsider plain", o2.ok("forge_create_issue", `,"title":"From outside"`), "Created issue #2 in "+e.repo+": "+e.g.URL+e.repo+"/issues/2")
}

// D7: with a credential that cannot label, an update changed the title
// (the PATCH) and then failed on the labels (the PUT).
func TestRealGiteaUpdateIssueAllOrNothing(t *testing.T) {
	e := start(t, asBot)
	o := withRepo(t, e, asOutsider)
	n := e.addIssue(e.u.outsider.Token, "Outsider's issue")
	want(t, "outsider relabels", o.fails("forge_update_issue", fmt.Sprintf(`,"issue_number":%d,"title":"Renamed","labels":["bug"]`, n)),
		"forge_update_issue failed: permission_denied: this credential cannot write to "+e.repo+", and Gitea would drop or refuse the labels or assignees; nothing was written: update without them")
	var got issue
	e.get(fmt.Sprintf("/issues/%d", n), &got)
	if got.Title != "Outsider's issue" || len(got.Labels) != 0 {
		t.Errorf("after a refused update Gitea holds %+v", got)
	}
	want(t, "outsider renames", o.ok("forge_update_issue", fmt.Sprintf(`,"issue_number":%d,"title":"Renamed"`, n)),
		fmt.Sprintf("Updated issue #%d in %s: %s%s/issues/%d", n, e.repo, e.g.URL, e.repo, n))
}

// Smaller: a path that climbs out, a branch name past Gitea's limit, a
// comment on the wrong kind of number, a merge refusal's reason, and
// the author of a written commit.
func TestRealGiteaSmallerItems(t *testing.T) {
	e := start(t, asBot)
	e.ok("forge_create_branch", `,"branch":"work"`)
	before := e.head("work")
	got := e.fails("forge_write_file", `,"branch":"work","path":"../escape.txt","content":"x","message":"m"`)
	if !strings.Contains(got, "invalid_argument") {
		t.Errorf("../escape.txt: %s", got)
	}
	if e.head("work") != before {
		t.Error("../escape.txt moved the branch")
	}
	long := strings.Repeat("b", 150)
	want(t, "long branch", e.fails("forge_create_branch", `,"branch":"`+long+`"`),
		"forge_create_branch failed: invalid_argument: branch name is 150 bytes; Gitea allows at most 100")

	n := e.addIssue(e.u.bot.Token, "An issue")
	want(t, "pr comment on an issue", e.fails("forge_comment_on_pull_request", fmt.Sprintf(`,"pull_number":%d,"body":"x"`, n)),
		fmt.Sprintf("forge_comment_on_pull_request failed: not_found: #%d in %s is an issue, not a pull request; nothing was posted: comment on it with forge_comment_on_issue", n, e.repo))
	pr := e.openPull("wip")
	e.mustAPI(e.u.bot.Token, "PATCH", fmt.Sprintf("/repos/%s/pulls/%d", e.repo, pr), map[string]any{"title": "WIP: not yet"}, nil)
	want(t, "issue comment on a pr", e.fails("forge_comment_on_issue", fmt.Sprintf(`,"issue_number":%d,"body":"x"`, pr)),
		fmt.Sprintf("forge_comment_on_issue failed: not_found: #%d in %s is a pull request, not an issue; nothing was posted: comment on it with forge_comment_on_pull_request", pr, e.repo))
	var comments []struct{ Body string }
	e.get(fmt.Sprintf("/issues/%d/comments", n), &comments)
	if len(comments) != 0 {
		t.Errorf("the refused comment landed: %+v", comments)
	}
	head := e.head("wip")
	got = e.fails("forge_merge_pull_request", fmt.Sprintf(`,"pull_number":%d,"expected_head_sha":"%s"`, pr, head))
	if !strings.Contains(got, "failed_precondition") || !strings.Contains(got, "Work in progress PRs cannot be merged") {
		t.Errorf("a WIP merge refusal loses Gitea's reason: %s", got)
	}

	e.ok("forge_write_file", `,"branch":"work","path":"NOTES.md","content":"notes\n","message":"Add notes"`)
	var commit struct {
		Commit struct {
			Author    struct{ Name, Email string }
			Committer struct{ Name, Email string }
		}
	}
	e.get("/git/commits/"+e.head("work"), &commit)
	if a := commit.Commit.Author; a.Name != "alice" || !strings.Contains(a.Email, "alice") {
		t.Errorf("the commit's author is %+v, want the account's owner alice", a)
	}
	if c := commit.Commit.Committer; c.Name != "release-bot" {
		t.Errorf("the commit's committer is %+v, want the agent release-bot", c)
	}
}

// The fake answered an empty list for an assignee Gitea does not know;
// Gitea answers 404, which the tool says is the user, not the repository.
func TestRealGiteaUnknownAssigneeFilter(t *testing.T) {
	e := start(t, asBot)
	e.addIssue(e.u.bot.Token, "Someone's")
	want(t, "unknown assignee", e.fails("forge_list_issues", `,"assignee":"nobody-here"`),
		"forge_list_issues failed: invalid_argument: Gitea has no user nobody-here to filter by assignee")
	if got := e.ok("forge_list_issues", `,"assignee":"`+e.u.reviewer.Name+`"`); strings.Contains(got, "# issues[") {
		t.Errorf("no issue is assigned to the reviewer, yet:\n%s", got)
	}
}

// openPull pushes branch (one changed line in src/gadget.go) and opens a
// pull request from it through Gitea's API; its number.
func (e *env) openPull(branch string) int64 {
	e.t.Helper()
	e.mustAPI(e.u.bot.Token, "POST", "/repos/"+e.repo+"/branches", map[string]any{"new_branch_name": branch, "old_ref_name": "main"}, nil)
	var f struct{ SHA string }
	e.get("/contents/src/gadget.go?ref="+branch, &f)
	e.mustAPI(e.u.bot.Token, "PUT", "/repos/"+e.repo+"/contents/src/gadget.go", map[string]any{
		"content": b64("package gadget\n\nfunc Squeak() string {\n\treturn \"squeak!\"\n}\n\n"), "branch": branch, "sha": f.SHA, "message": "louder"}, nil)
	var pr struct{ Number int64 }
	e.mustAPI(e.u.bot.Token, "POST", "/repos/"+e.repo+"/pulls", map[string]any{"head": branch, "base": "main", "title": "Louder " + branch}, &pr)
	return pr.Number
}
