package giteareal_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

var realReview = regexp.MustCompile(`(?m)^(r\d+)$`)

// Issue 21 (reviews by page) on the real server: a pull request's 12
// reviews read five a page through forge_list_comments kind reviews,
// oldest first with no gap or repeat, the reviewer's pending draft left
// out, and every review's thread reachable through
// forge_list_review_threads; Gitea's reviews endpoint sends X-Total-Count
// and no Link header, as the provider and the fake assume; an issue's
// number is not found.
func TestRealGiteaReviewPages(t *testing.T) {
	e := start(t, asBot)
	pull := e.openPull("reviewed")
	path := fmt.Sprintf("/repos/%s/pulls/%d/reviews", e.repo, pull)
	for i := range 12 {
		e.mustAPI(e.u.reviewer.Token, "POST", path, map[string]any{"event": "COMMENT", "body": fmt.Sprint("r", i),
			"comments": []map[string]any{{"path": "src/gadget.go", "body": fmt.Sprint("t", i), "new_position": 4}}}, nil)
	}
	e.mustAPI(e.u.reviewer.Token, "POST", path, map[string]any{"event": "PENDING", "body": "draft"}, nil)

	req, err := http.NewRequest("GET", e.g.URL+"api/v1"+path+"?page=1&limit=5", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "token "+e.u.bot.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("X-Total-Count") == "" || resp.Header.Get("Link") != "" {
		t.Errorf("Gitea's reviews page: %d, X-Total-Count %q, Link %q; the provider reads the count, not Link",
			resp.StatusCode, resp.Header.Get("X-Total-Count"), resp.Header.Get("Link"))
	}

	pages := e.pages("forge_list_comments", fmt.Sprintf(`,"kind":"reviews","number":%d,"limit":5`, pull))
	var bodies []string
	for _, p := range pages {
		for _, m := range realReview.FindAllStringSubmatch(p, -1) {
			bodies = append(bodies, m[1])
		}
		if strings.Contains(p, "draft") {
			t.Errorf("another user's pending review shown:\n%s", p)
		}
	}
	var wantBodies []string
	for i := range 12 {
		wantBodies = append(wantBodies, fmt.Sprint("r", i))
	}
	if len(pages) != 3 || strings.Join(bodies, " ") != strings.Join(wantBodies, " ") {
		t.Errorf("%d pages reading %v; want 3 pages of r0 to r11 in order\n%s", len(pages), bodies, strings.Join(pages, "\n---\n"))
	}
	// Each review opened a thread; forge_list_review_threads reads ten
	// reviews a page and, with no Link header, learns from the count that
	// two more follow (it used to stop at the first ten).
	var threads []string
	for _, p := range e.pages("forge_list_review_threads", fmt.Sprintf(`,"pull_number":%d`, pull)) {
		threads = append(threads, regexp.MustCompile(`(?m)^(t\d+)$`).FindAllString(p, -1)...)
	}
	if strings.Join(threads, " ") != "t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11" {
		t.Errorf("threads read %v, want t0 to t11 in order", threads)
	}
	issue := e.addIssue(e.u.bot.Token, "not a pull request")
	want(t, "reviews of an issue", e.fails("forge_list_comments", fmt.Sprintf(`,"kind":"reviews","number":%d`, issue)),
		fmt.Sprintf("forge_list_comments failed: not_found: pull request #%d not found in %s (no such number, or #%d is an issue)", issue, e.repo, issue))
}
