package forges_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/providers/github/githubtest"
)

var (
	pagingCursor = regexp.MustCompile(`(?m)^next_cursor: (\S+)$`)
	pagingNumber = regexp.MustCompile(`(?m)^number: (\d+)$`)
	pagingBody   = regexp.MustCompile(`(?m)^(c\d+)$`)
)

// pages reads tool's pages from args (a JSON object's members) until the
// last, returning each page's text.
func (e *env) pages(tool, args string) []string {
	e.t.Helper()
	var out []string
	cursor := ""
	for len(out) < 20 {
		page := e.ok(tool, "{"+args+cursor+"}")
		out = append(out, page)
		m := pagingCursor.FindStringSubmatch(page)
		if m == nil {
			return out
		}
		cursor = `,"cursor":"` + m[1] + `"`
	}
	e.t.Fatalf("%s %s: more than 20 pages", tool, args)
	return nil
}

// Issue 21 (paging) on GitHub's fake through the gateway: 250 issues
// (among pull requests, which the issues endpoint also lists) read at
// limit 100 with no gap or repeat, one request a page; an issue's and a
// pull request's conversations of 45 comments page oldest first; a
// cursor passed with other arguments is refused.
func TestGitHubPaging(t *testing.T) {
	e := start(t)
	const repo = "octocat/Hello-World"
	for i := range 250 {
		e.github.AddIssue(repo, githubtest.Issue{Title: fmt.Sprint("issue ", i)})
	}
	before := len(e.github.Requests())
	pages := e.pages("forge_list_issues", `"repo":"`+repo+`","state":"all","limit":100`)
	seen := map[string]bool{}
	for _, p := range pages {
		for _, m := range pagingNumber.FindAllStringSubmatch(p, -1) {
			if seen[m[1]] {
				t.Errorf("issue #%s listed twice", m[1])
			}
			seen[m[1]] = true
		}
	}
	// The harness seeds one issue and one pull request; the pull request
	// is not listed.
	if len(seen) != 251 || seen["2"] {
		t.Errorf("%d issues listed (pull request #2 among them: %v), want 251 issues", len(seen), seen["2"])
	}
	if sent := len(e.github.Requests()) - before; sent != len(pages) {
		t.Errorf("%d pages cost %d GitHub requests, want one each", len(pages), sent)
	}

	for _, n := range []int{1, 2} {
		for i := range 45 {
			e.github.Comment(repo, n, "someone", fmt.Sprint("c", i))
		}
	}
	var want []string
	for i := range 45 {
		want = append(want, fmt.Sprint("c", i))
	}
	for kind, n := range map[string]int{"issue": 1, "pull_request": 2} {
		var bodies []string
		for _, p := range e.pages("forge_list_comments", fmt.Sprintf(`"repo":"%s","kind":"%s","number":%d,"limit":20`, repo, kind, n)) {
			for _, m := range pagingBody.FindAllStringSubmatch(p, -1) {
				bodies = append(bodies, m[1])
			}
		}
		if strings.Join(bodies, " ") != strings.Join(want, " ") {
			t.Errorf("%s #%d comments read %v, want c0 to c44 in order", kind, n, bodies)
		}
	}
	if got := e.fails("forge_list_comments", `{"repo":"`+repo+`","kind":"issue","number":2}`); !strings.Contains(got, "not_found: #2 in octocat/Hello-World is a pull request, not an issue") {
		t.Errorf("a pull request's comments as an issue's: %s", got)
	}
	first := e.ok("forge_list_issues", `{"repo":"`+repo+`","limit":10}`)
	m := pagingCursor.FindStringSubmatch(first)
	if m == nil {
		t.Fatalf("no next_cursor:\n%s", first)
	}
	if got := e.fails("forge_list_issues", `{"repo":"`+repo+`","limit":20,"cursor":"`+m[1]+`"}`); !strings.Contains(got, "invalid_argument") || !strings.Contains(got, "same arguments") {
		t.Errorf("a cursor with another limit: %s", got)
	}
}
