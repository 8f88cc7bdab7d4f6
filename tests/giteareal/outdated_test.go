package giteareal_test

import (
	"strings"
	"testing"
	"time"
)

// TestRealGiteaThreadsGoOutdated holds the fake's belief about Gitea's
// stale reviews to Gitea 1.27: a push that changes what a pull request
// changes, even in another file than the one commented on, makes the
// review stale, and forge_list_review_threads shows its thread outdated.
func TestRealGiteaThreadsGoOutdated(t *testing.T) {
	e := start(t, asBot)
	e.openPull("fix")
	e.ok("forge_submit_review", `,"pull_number":1,"verdict":"comment","body":"See inline.","comments":[{"path":"src/gadget.go","line":4,"body":"Why louder?"}]`)
	if list := e.ok("forge_list_review_threads", `,"pull_number":1`); !strings.Contains(list, "line: 4\n") || strings.Contains(list, "outdated: true") {
		t.Fatalf("threads before the push:\n%s", list)
	}
	e.mustAPI(e.u.bot.Token, "POST", "/repos/"+e.repo+"/contents/docs/more.md", map[string]any{"content": b64("more\n"), "branch": "fix", "message": "More"}, nil)
	// Gitea marks reviews stale in its pull request queue, after the push
	// has answered; wait for that (a bounded number of reads, no timing
	// asserted).
	var reviews []struct{ Stale bool }
	for i := 0; i < 600 && (len(reviews) != 1 || !reviews[0].Stale); i++ {
		time.Sleep(100 * time.Millisecond)
		e.get("/pulls/1/reviews", &reviews)
	}
	if len(reviews) != 1 || !reviews[0].Stale {
		t.Fatalf("Gitea's review after the push: %+v, want it stale", reviews)
	}
	if list := e.ok("forge_list_review_threads", `,"pull_number":1`); !strings.Contains(list, "outdated: true\n") {
		t.Errorf("threads after the push:\n%s", list)
	}
}
