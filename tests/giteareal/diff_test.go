package giteareal_test

import (
	"strconv"
	"strings"
	"testing"
)

// Issue 21's diff on a real Gitea: the render of pulls/{index}.diff shows
// the removed line on the LEFT and the added and context lines on the
// RIGHT at their numbers, and review comments anchored by those numbers
// land on those lines in Gitea's own record. forge_compare reads the
// branches' commits and the files they touch.
func TestRealGiteaDiffAnchorsReview(t *testing.T) {
	e := start(t, asBot)
	e.openPull("fix")
	got := e.ok("forge_get_pull_request_diff", `,"pull_number":1`)
	for _, l := range []string{"L4 -\treturn \"squeak\"\n", "R4 +\treturn \"squeak!\"\n", "R5  }\n", "R6 +\n"} {
		if !strings.Contains(got, l) {
			t.Errorf("the diff shows no line %q:\n%s", l, got)
		}
	}
	// The comparison of the branches: one commit ahead, none behind, the
	// file it touched listed without hunks (Gitea's API diffs no two refs).
	cmp := e.ok("forge_compare", `,"base":"main","head":"fix"`)
	for _, l := range []string{"\nahead_by: 1\n", "\ncommits: 1\n", "<<<title-", "\nlouder\n", "\nstatus: modified\ntoo_large: true\n", "\nsrc/gadget.go\n"} {
		if !strings.Contains(cmp, l) {
			t.Errorf("the comparison shows no %q:\n%s", l, cmp)
		}
	}
	if strings.Contains(cmp, "behind_by") {
		t.Errorf("fix is behind main:\n%s", cmp)
	}
	wantPrefix(t, "review", e.ok("forge_submit_review", `,"pull_number":1,"verdict":"comment","body":"Notes.","comments":[`+
		`{"path":"src/gadget.go","line":4,"side":"LEFT","body":"removed"},`+
		`{"path":"src/gadget.go","line":4,"side":"RIGHT","body":"added"},`+
		`{"path":"src/gadget.go","line":5,"side":"RIGHT","body":"context"}]`), "Submitted comment review on PR #1")
	var reviews []struct{ ID int64 }
	e.get("/pulls/1/reviews", &reviews)
	if len(reviews) != 1 {
		t.Fatalf("reviews %+v", reviews)
	}
	var comments []struct {
		Body             string
		Position         int
		OriginalPosition int `json:"original_position"`
	}
	e.get("/pulls/1/reviews/"+strconv.FormatInt(reviews[0].ID, 10)+"/comments", &comments)
	at := map[string][2]int{}
	for _, c := range comments {
		body := c.Body[strings.LastIndex(c.Body, "\n")+1:]
		at[body] = [2]int{c.Position, c.OriginalPosition}
	}
	// Gitea records a new-side comment's line as position and an
	// old-side one's as original_position.
	for body, want := range map[string][2]int{"removed": {0, 4}, "added": {4, 0}, "context": {5, 0}} {
		if at[body] != want {
			t.Errorf("the %s comment is at position/original_position %v, want %v (all: %+v)", body, at[body], want, comments)
		}
	}
}
