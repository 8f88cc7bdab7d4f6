package giteatest

import (
	"encoding/json"
	"testing"
)

// The reviews list pages as Gitea 1.27's does: page and limit, the count
// in X-Total-Count, no Link header; an issue's number is 404.
func TestReviewListPagesWithoutLink(t *testing.T) {
	s := seeded(t)
	for range 3 {
		if status, _, b := get(t, s, "POST", "/repos/acme/gadgets/pulls/2/reviews", `{"event":"COMMENT","body":"b"}`, "reviewer-token-0000000000000"); status != 200 {
			t.Fatalf("review: %d %s", status, b)
		}
	}
	status, h, b := get(t, s, "GET", "/repos/acme/gadgets/pulls/2/reviews?page=1&limit=2", "", token)
	var page []map[string]any
	if err := json.Unmarshal(b, &page); status != 200 || err != nil || len(page) != 2 {
		t.Fatalf("first page: %d, %d reviews, %v", status, len(page), err)
	}
	if h.Get("X-Total-Count") != "3" || h.Get("Link") != "" {
		t.Errorf("headers X-Total-Count %q, Link %q; want 3 and none", h.Get("X-Total-Count"), h.Get("Link"))
	}
	if status, _, _ := get(t, s, "GET", "/repos/acme/gadgets/pulls/1/reviews", "", token); status != 404 {
		t.Errorf("an issue's reviews: %d, want 404", status)
	}
}
