package giteareal_test

import (
	"strings"
	"testing"
)

// TestRealGiteaDiffFromTheMergeBase holds the fakes' belief about a pull
// request's diff to Gitea 1.27: after the base branch moves on with an
// unrelated change, the diff is still from the merge base (the change is
// not in it, reversed or at all), and the pull request's merge_base is
// that fork point, not the base's head.
func TestRealGiteaDiffFromTheMergeBase(t *testing.T) {
	e := start(t, asBot)
	e.openPull("fix")
	var main struct{ Commit struct{ ID string } }
	e.get("/branches/main", &main)
	fork := main.Commit.ID
	e.mustAPI(e.u.bot.Token, "POST", "/repos/"+e.repo+"/contents/docs/base-only.md", map[string]any{"content": b64("base\n"), "branch": "main", "message": "Base moves"}, nil)
	e.get("/branches/main", &main)
	if main.Commit.ID == fork || fork == "" {
		t.Fatalf("main did not move: %q", fork)
	}
	got := e.ok("forge_get_pull_request_diff", `,"pull_number":1`)
	if strings.Contains(got, "base-only.md") || !strings.Contains(got, "R4 +\treturn \"squeak!\"\n") || !strings.Contains(got, "base_sha: "+fork) {
		t.Errorf("the diff after main moved on (fork point %s):\n%s", fork, got)
	}
	var pr struct {
		MergeBase string `json:"merge_base"`
	}
	e.get("/pulls/1", &pr)
	want(t, "merge_base", pr.MergeBase, fork)
}
