package giteareal_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// Issue 21 on the real server: the agent retitles its draft pull request
// (the WIP prefix stays), marks it ready, asks the reviewer for a review,
// retargets it and closes it; a login that is no user changes nothing;
// and a file is read by line range.
func TestRealGiteaUpdatePullRequest(t *testing.T) {
	e := start(t, asBot)
	n := e.openPull("fix")
	e.mustAPI(e.u.bot.Token, "PATCH", fmt.Sprintf("/repos/%s/pulls/%d", e.repo, n), map[string]any{"title": "WIP: louder"}, nil)
	ack := fmt.Sprintf("Updated PR #%d in %s: %s%s/pulls/%d", n, e.repo, e.g.URL, e.repo, n)
	type pull struct {
		Title, Body, State string
		Draft              bool
		Base               struct{ Ref string }
		Requested          []struct{ Login string } `json:"requested_reviewers"`
	}
	read := func() pull {
		t.Helper()
		var p pull
		e.get(fmt.Sprintf("/pulls/%d", n), &p)
		return p
	}

	want(t, "retitle", e.ok("forge_update_pull_request", fmt.Sprintf(`,"pull_number":%d,"title":"Louder gadget"`, n)), ack)
	if p := read(); p.Title != "WIP: Louder gadget" || !p.Draft {
		t.Errorf("after the retitle Gitea holds %+v", p)
	}
	e.mustAPI(e.u.bot.Token, "POST", "/repos/"+e.repo+"/branches", map[string]any{"new_branch_name": "stable", "old_ref_name": "main"}, nil)
	want(t, "ready", e.ok("forge_update_pull_request", fmt.Sprintf(`,"pull_number":%d,"ready":true,"body":"Ready.","base_ref":"stable","reviewers":["%s"]`, n, e.u.reviewer.Name)), ack)
	p := read()
	if p.Title != "Louder gadget" || p.Draft || p.Body != stamped+"Ready." || p.Base.Ref != "stable" || len(p.Requested) != 1 || p.Requested[0].Login != e.u.reviewer.Name {
		t.Errorf("after ready Gitea holds %+v", p)
	}
	got := e.fails("forge_update_pull_request", fmt.Sprintf(`,"pull_number":%d,"title":"Renamed","reviewers":["no-such-user"]`, n))
	if !strings.HasPrefix(got, "forge_update_pull_request failed: ") {
		t.Errorf("an unknown reviewer: %s", got)
	}
	if p := read(); p.Title != "Louder gadget" {
		t.Errorf("a refused update renamed the pull request: %+v", p)
	}
	want(t, "close", e.ok("forge_update_pull_request", fmt.Sprintf(`,"pull_number":%d,"state":"closed"`, n)), ack)
	if p := read(); p.State != "closed" {
		t.Errorf("after close Gitea holds %+v", p)
	}

	lines := e.ok("forge_read_file", `,"path":"src/gadget.go","start_line":3,"end_line":3`)
	for _, part := range []string{"func Squeak() string {\n", "start_line: 3\n", "end_line: 3\n", "total_lines: 5\n", "next_start_line: 4"} {
		if !strings.Contains(lines, part) {
			t.Errorf("line 3 lacks %q:\n%s", part, lines)
		}
	}
}

// forge_list_commits on the real server: a branch's history two commits
// a page is exactly Gitea's own log of it, with no gap or repeat; path
// narrows it on Gitea's side; since, which Gitea lacks, is refused.
func TestRealGiteaListCommits(t *testing.T) {
	e := start(t, asBot)
	e.ok("forge_create_branch", `,"branch":"hist"`)
	for i := 1; i <= 3; i++ {
		e.ok("forge_write_file", fmt.Sprintf(`,"branch":"hist","path":"notes/n%d.txt","content":"%d\n","message":"Note %d"`, i, i, i))
	}
	var log []struct{ SHA string }
	e.get("/commits?sha=hist&limit=50&stat=false&verification=false&files=false", &log)
	shaLine := regexp.MustCompile(`(?m)^sha: ([0-9a-f]{40})$`)
	cursorLine := regexp.MustCompile(`(?m)^next_cursor: (\S+)$`)
	var listed []string
	cursor := ""
	for pages := 0; pages < 20; pages++ {
		out := e.ok("forge_list_commits", `,"ref":"hist","limit":2`+cursor)
		for _, m := range shaLine.FindAllStringSubmatch(out, -1) {
			listed = append(listed, m[1])
		}
		m := cursorLine.FindStringSubmatch(out)
		if m == nil {
			break
		}
		cursor = `,"cursor":"` + m[1] + `"`
	}
	if len(listed) != len(log) || len(log) < 4 {
		t.Fatalf("listed %d commits, Gitea's log has %d", len(listed), len(log))
	}
	for i := range log {
		if listed[i] != log[i].SHA {
			t.Errorf("commit %d listed as %s, Gitea has %s", i, listed[i], log[i].SHA)
		}
	}
	if !strings.Contains(e.ok("forge_list_commits", `,"ref":"hist","limit":1`), "Note 3\n") {
		t.Error("the newest commit's title is not Note 3")
	}
	one := shaLine.FindAllStringSubmatch(e.ok("forge_list_commits", `,"ref":"hist","path":"notes/n2.txt"`), -1)
	if len(one) != 1 || one[0][1] != log[1].SHA {
		t.Errorf("path filter listed %v, want Note 2 (%s)", one, log[1].SHA)
	}
	// Gitea's list has no since (it would list everything): refused.
	want(t, "since", e.fails("forge_list_commits", `,"ref":"hist","since":"2999-01-01T00:00:00Z"`),
		"forge_list_commits failed: unimplemented: Gitea's commit list has no since filter: leave since out (nothing was read)")
	if got := e.ok("forge_list_commits", `,"ref":"hist","path":"nowhere.txt"`); shaLine.MatchString(got) {
		t.Errorf("a path no commit touched lists commits:\n%s", got)
	}
}
