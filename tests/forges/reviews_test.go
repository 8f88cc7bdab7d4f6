package forges_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/providers/gitea/giteatest"
)

var pagingReview = regexp.MustCompile(`(?m)^(r\d+)$`)

// reviewBodies is every review body (r0, r1, ...) the pages show, in order.
func reviewBodies(pages []string) []string {
	var out []string
	for _, p := range pages {
		for _, m := range pagingReview.FindAllStringSubmatch(p, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// Issue 21 (reviews by page) through the gateway: a pull request's 25
// reviews read ten a page with forge_list_comments kind reviews on GitHub's
// (checked) fake, Gitea's and Forgejo's, oldest first with no gap or
// repeat, one forge request a page; an issue's number is not found;
// GitLab and Linear say why they cannot. The real Gitea's are in
// tests/giteareal (TestRealGiteaReviewPages).
func TestReviewsByPage(t *testing.T) {
	e := start(t)
	for _, f := range []*giteatest.Server{e.gitea, e.forgejo} {
		f.AddPull(gadgets, giteatest.Pull{Title: "Reviewed", Head: "feature"})
	}
	var bodies []string
	for i := range 25 {
		bodies = append(bodies, fmt.Sprint("r", i))
	}
	for _, f := range []struct {
		name, at string
		n        int
		review   func(i int)
		sent     func() int
	}{
		{"github", `"repo":"octocat/Hello-World"`, 2,
			func(i int) { e.github.Review("octocat/Hello-World", 2, "someone", "COMMENTED", fmt.Sprint("r", i)) },
			func() int { return len(e.github.Requests()) }},
		{"gitea", onGitea, 2,
			func(i int) {
				e.ok("forge_submit_review", fmt.Sprintf(`{%s,"pull_number":2,"verdict":"comment","body":"r%d"}`, onGitea, i))
			},
			func() int { return len(e.gitea.Requests()) }},
		{"forgejo", onForgejo, 2,
			func(i int) {
				e.ok("forge_submit_review", fmt.Sprintf(`{%s,"pull_number":2,"verdict":"comment","body":"r%d"}`, onForgejo, i))
			},
			func() int { return len(e.forgejo.Requests()) }},
	} {
		for i := range 25 {
			f.review(i)
		}
		before := f.sent()
		pages := e.pages("forge_list_comments", fmt.Sprintf(`%s,"kind":"reviews","number":%d,"limit":10`, f.at, f.n))
		if got := reviewBodies(pages); len(pages) != 3 || strings.Join(got, " ") != strings.Join(bodies, " ") {
			t.Errorf("%s: %d pages reading %v, want 3 of r0 to r24 in order\n%s", f.name, len(pages), got, pages[0])
		}
		if sent := f.sent() - before; sent != len(pages) {
			t.Errorf("%s: %d pages cost %d forge requests, want one each", f.name, len(pages), sent)
		}
		if !strings.Contains(pages[0], "\nverdict: comment\n") {
			t.Errorf("%s: no verdict shown:\n%s", f.name, pages[0])
		}
	}
	// A review shows its author, verdict, url and body, not its inline
	// comments (forge_list_review_threads pages those).
	page := e.ok("forge_list_comments", `{"repo":"octocat/Hello-World","kind":"reviews","number":2,"limit":1}`)
	if !strings.Contains(page, "reviews: 1\n# reviews[0]\nauthor: someone\nverdict: comment\nurl: https://github.com/octocat/Hello-World/pull/2#pullrequestreview-") {
		t.Errorf("a page of one review:\n%s", page)
	}
	want1 := "forge_list_comments failed: not_found: #1 in octocat/Hello-World is an issue, not a pull request"
	if got := e.fails("forge_list_comments", `{"repo":"octocat/Hello-World","kind":"reviews","number":1}`); got != want1 {
		t.Errorf("github, an issue's reviews:\n got %s\nwant %s", got, want1)
	}
	want(t, "gitea, an issue's reviews", e.fails("forge_list_comments", `{`+onGitea+`,"kind":"reviews","number":1}`),
		"forge_list_comments failed: not_found: pull request #1 not found in acme/gadgets (no such number, or #1 is an issue)")
	want(t, "gitlab", e.fails("forge_list_comments", `{`+onGitLab+`,"kind":"reviews","number":1}`),
		"forge_list_comments failed: unimplemented: GitLab keeps no reviews to page: forge_get_pull_request shows a merge request's approvals whole, and its diff notes page as threads with forge_list_review_threads")
	want(t, "linear", e.fails("forge_list_comments", `{"repo":"ENG","forge_provider":"linear","kind":"reviews","number":1}`),
		"forge_list_comments failed: unimplemented: Linear has no pull requests or reviews: only the issue tools work on a Linear forge, so list_comments cannot run on forge linear/linear.app")
}
