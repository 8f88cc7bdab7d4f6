package github

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/github/githubtest"
)

// Paging a 450-file pull request's diff reads, for each page, the pull
// request and only the pages of its files list that hold the page's
// files, starting at the one holding the file its cursor names: never
// the list from page 1 again. Every file arrives once, in order.
func TestGetPullRequestDiffReadsOnlyItsFilePages(t *testing.T) {
	srv, p := stateful(t)
	var files []githubtest.Change
	for i := range 450 {
		var b strings.Builder
		fmt.Fprintf(&b, "@@ -0,0 +1,40 @@")
		for l := range 40 {
			fmt.Fprintf(&b, "\n+line %d of file %d", l+1, i)
		}
		files = append(files, githubtest.Change{Path: fmt.Sprintf("f%03d.txt", i), Patch: b.String()})
	}
	n := srv.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Many", Head: "feature", Files: files})
	filesPath := fmt.Sprintf("%s/pulls/%d/files", repoPath, n)
	cursor, seen, pages := "", 0, 0
	for ; ; pages++ {
		if pages > 30 {
			t.Fatal("no last page")
		}
		mark := len(srv.Requests())
		got, err := p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: "octocat/Hello-World", PullNumber: uint64(n), Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		var listPages []int
		for _, r := range srv.Requests()[mark:] {
			if r.Path == filesPath {
				page, _ := strconv.Atoi(r.Query.Get("page"))
				listPages = append(listPages, max(page, 1))
			}
		}
		first := got.GetFiles()[0].GetPath()
		if i, _ := strconv.Atoi(first[1:4]); len(listPages) == 0 || listPages[0] != i/100+1 || len(listPages) > 2 {
			t.Errorf("page %d (from %s) read file list pages %v; want the one holding it, and the next at most", pages+1, first, listPages)
		}
		if sent := len(srv.Requests()) - mark; sent > 3 {
			t.Errorf("page %d cost %d requests", pages+1, sent)
		}
		if got.GetFilesChanged() != 450 {
			t.Errorf("page %d: files_changed %d", pages+1, got.GetFilesChanged())
		}
		for _, f := range got.GetFiles() {
			if want := fmt.Sprintf("f%03d.txt", seen); f.GetPath() != want {
				t.Fatalf("page %d: %s, want %s", pages+1, f.GetPath(), want)
			}
			seen++
		}
		if cursor = got.GetNextCursor(); cursor == "" {
			break
		}
		if strings.Split(cursor, ".")[2] != "0" {
			seen-- // the last file goes on on the next page
		}
	}
	if seen != 450 || pages < 5 {
		t.Errorf("read %d files in %d pages", seen, pages+1)
	}
}
