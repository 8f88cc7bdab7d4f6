package forges_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/providers/github/githubtest"
)

// TestReadFileLinesOnGitHub (issue 21, line ranges): over the gateway's
// session socket, lines 4,000 to 4,100 of a 5,000-line file of 2 MB on
// the GitHub fake: past the contents API's 1 MB JSON limit, so the file
// is read from its blob, and past the 100 KiB GitHub once stopped at, so
// the file's line count is known and the window is the lines asked for.
func TestReadFileLinesOnGitHub(t *testing.T) {
	e := start(t)
	var b strings.Builder
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(&b, "line %04d %s\n", i, strings.Repeat("x", 389))
	}
	content := b.String()
	e.github.Commit(helloRepo, "main", "Add a big file", githubtest.File{Path: "data/big.txt", Content: content})
	before := len(e.github.Requests())
	got := e.ok("forge_read_file", `{`+hello+`,"path":"data/big.txt","ref":"main","start_line":4000,"end_line":4100}`)
	for _, attr := range []string{fmt.Sprintf("\nsize: %d\n", len(content)), "\nstart_line: 4000\n", "\nend_line: 4100\n", "\ntotal_lines: 5000\n", "\nnext_start_line: 4101\n"} {
		if !strings.Contains(got+"\n", attr) {
			t.Errorf("the window lacks %q:\n%s", strings.TrimSpace(attr), got[len(got)-300:])
		}
	}
	lines := strings.SplitAfter(content, "\n")
	if want := strings.Join(lines[3999:4100], ""); !strings.Contains(got, "\n"+want+">>>") || strings.Contains(got, lines[3998]) || strings.Contains(got, lines[4100]) {
		t.Errorf("the window is not lines 4000-4100:\n%.400s", got)
	}
	wantSent(t, "read", sent(t, e.github, before),
		"GET /repos/octocat/Hello-World/contents/data/big.txt?ref=main author",
		"GET /repos/octocat/Hello-World/git/blobs/SHA author")
}
