package giteareal_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

var (
	realNextCursor = regexp.MustCompile(`(?m)^next_cursor: (\S+)$`)
	realNumber     = regexp.MustCompile(`(?m)^number: (\d+)$`)
	realBody       = regexp.MustCompile(`(?m)^(c\d+)$`)
)

// pages reads tool's pages from args (continuing the JSON object after
// the repository) until the last, returning each page's text.
func (e *env) pages(tool, args string) []string {
	e.t.Helper()
	var out []string
	cursor := ""
	for len(out) < 10 {
		page := e.ok(tool, args+cursor)
		out = append(out, page)
		m := realNextCursor.FindStringSubmatch(page)
		if m == nil {
			return out
		}
		cursor = `,"cursor":"` + m[1] + `"`
	}
	e.t.Fatalf("%s %s: more than 10 pages", tool, args)
	return nil
}

// Issue 21 (paging) on the real server: 60 issues read with limit 100 are
// two pages (Gitea serves at most 50), the next page named by Gitea's Link
// header, with no gap or repeat; an issue's and a pull request's
// conversations page oldest first; and the kind is told from the comments
// themselves (pull_request_url or issue_url), as the provider assumes.
func TestRealGiteaPaging(t *testing.T) {
	e := start(t, asBot)
	for i := range 60 {
		e.addIssue(e.u.bot.Token, fmt.Sprint("issue ", i))
	}
	pages := e.pages("forge_list_issues", `,"limit":100`)
	var got []string
	for _, p := range pages {
		for _, m := range realNumber.FindAllStringSubmatch(p, -1) {
			got = append(got, m[1])
		}
	}
	var wantNumbers []string
	for n := 60; n >= 1; n-- {
		wantNumbers = append(wantNumbers, fmt.Sprint(n))
	}
	if len(pages) != 2 || strings.Join(got, " ") != strings.Join(wantNumbers, " ") {
		t.Errorf("%d pages listing %v; want 2 pages of 60 down to 1", len(pages), got)
	}

	pull := e.openPull("paging")
	for _, n := range []int64{7, pull} {
		for i := range 7 {
			e.mustAPI(e.u.bot.Token, "POST", fmt.Sprintf("/repos/%s/issues/%d/comments", e.repo, n), map[string]any{"body": fmt.Sprint("c", i)}, nil)
		}
	}
	for kind, n := range map[string]int64{"issue": 7, "pull_request": pull} {
		var bodies []string
		for _, p := range e.pages("forge_list_comments", fmt.Sprintf(`,"kind":"%s","number":%d,"limit":3`, kind, n)) {
			for _, m := range realBody.FindAllStringSubmatch(p, -1) {
				bodies = append(bodies, m[1])
			}
		}
		if strings.Join(bodies, " ") != "c0 c1 c2 c3 c4 c5 c6" {
			t.Errorf("%s #%d comments read %v, want c0 to c6 in order", kind, n, bodies)
		}
	}
	want(t, "a pull request's comments as an issue's", e.fails("forge_list_comments", fmt.Sprintf(`,"kind":"issue","number":%d`, pull)),
		fmt.Sprintf("forge_list_comments failed: not_found: #%d in %s is a pull request, not an issue", pull, e.repo))
	want(t, "an issue's comments as a pull request's", e.fails("forge_list_comments", `,"kind":"pull_request","number":7`),
		"forge_list_comments failed: not_found: #7 in "+e.repo+" is an issue, not a pull request")
}
