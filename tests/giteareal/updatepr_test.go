package giteareal_test

import (
	"fmt"
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
