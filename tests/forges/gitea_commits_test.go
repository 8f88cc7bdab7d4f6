package forges_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// forge_list_commits on the Gitea fake through the gateway: a branch's
// history two a page, every commit once and in order, each page one
// request for exactly that page of the pinned head; a path's history.
func TestGiteaListCommits(t *testing.T) {
	e := start(t)
	g := e.gitea
	e.ok("forge_create_branch", `{`+onGitea+`,"branch":"hist"}`)
	want := []string{g.Head(gadgets, "hist")}
	for i := 1; i <= 3; i++ {
		e.ok("forge_write_file", fmt.Sprintf(`{%s,"branch":"hist","path":"notes/n%d.txt","content":"%d\n","message":"Note %d"}`, onGitea, i, i, i))
		want = append([]string{g.Head(gadgets, "hist")}, want...)
	}
	head := want[0]
	shaLine := regexp.MustCompile(`(?m)^sha: ([0-9a-f]{40})$`)
	cursorLine := regexp.MustCompile(`(?m)^next_cursor: (\S+)$`)
	var listed []string
	cursor := ""
	for page := 1; page <= 5; page++ {
		mark := len(g.Requests())
		out := e.ok("forge_list_commits", `{`+onGitea+`,"ref":"hist","limit":2`+cursor+`}`)
		for _, m := range shaLine.FindAllStringSubmatch(out, -1) {
			listed = append(listed, m[1])
		}
		// One request for the page, of the head pinned on the first.
		var asked []string
		for _, r := range g.Requests()[mark:] {
			if r.Path == "/repos/acme/gadgets/commits" {
				asked = append(asked, r.Query.Encode())
			}
		}
		if w := fmt.Sprintf("files=false&limit=2&page=%d&sha=%s&stat=false&verification=false", page, head); len(asked) != 1 || asked[0] != w {
			t.Errorf("page %d asked %v, want %s", page, asked, w)
		}
		m := cursorLine.FindStringSubmatch(out)
		if m == nil {
			break
		}
		cursor = `,"cursor":"` + m[1] + `"`
	}
	if strings.Join(listed, " ") != strings.Join(want, " ") {
		t.Errorf("listed %v, want %v", listed, want)
	}
	out := e.ok("forge_list_commits", `{`+onGitea+`,"ref":"hist","path":"notes/n2.txt"}`)
	if got := shaLine.FindAllStringSubmatch(out, -1); len(got) != 1 || got[0][1] != want[1] || !strings.Contains(out, "Note 2") {
		t.Errorf("path filter:\n%s", out)
	}
}
