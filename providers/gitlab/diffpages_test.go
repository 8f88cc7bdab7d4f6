package gitlab_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// Paging a 450-file merge request's diff reads, for each page, the merge
// request and only the pages of its diffs list that hold the page's
// files, starting at the one holding the file its cursor names: never
// the list from page 1 again. The files are counted by the list's
// X-Total, and every file arrives once, in order.
func TestMergeRequestDiffReadsOnlyItsDiffPages(t *testing.T) {
	s := fake(t)
	p := provider(t, s, 0)
	ctx := context.Background()
	for lo := 0; lo < 450; lo += 20 {
		req := &gatewayv1.CommitFilesRequest{Repo: proj, Branch: "feature", Message: "many"}
		for i := lo; i < min(lo+20, 450); i++ {
			var b strings.Builder
			for l := range 40 {
				fmt.Fprintf(&b, "line %d of file %d\n", l+1, i)
			}
			req.Files = append(req.Files, &gatewayv1.FileChange{Path: fmt.Sprintf("many/f%03d.txt", i), Content: b.String()})
		}
		if _, err := p.CommitFiles(ctx, noCall, req); err != nil {
			t.Fatal(err)
		}
	}
	cursor, seen, pages := "", 0, 0
	for ; ; pages++ {
		if pages > 30 {
			t.Fatal("no last page")
		}
		mark := len(s.Requests())
		got, err := p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: proj, PullNumber: 1, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		var listPages []int
		for _, r := range s.Requests()[mark:] {
			if r.Path == escaped+"/merge_requests/1/diffs" {
				page, _ := strconv.Atoi(r.Query.Get("page"))
				listPages = append(listPages, page)
			}
		}
		first := strings.TrimPrefix(got.GetFiles()[0].GetPath(), "many/f")
		if i, _ := strconv.Atoi(first[:3]); len(listPages) == 0 || listPages[0] != i/100+1 || len(listPages) > 2 {
			t.Errorf("page %d (from file %s) read diffs pages %v; want the one holding it, and the next at most", pages+1, first, listPages)
		}
		if sent := len(s.Requests()) - mark; sent > 3 {
			t.Errorf("page %d cost %d requests", pages+1, sent)
		}
		if got.GetFilesChanged() != 450 {
			t.Errorf("page %d: files_changed %d", pages+1, got.GetFilesChanged())
		}
		for _, f := range got.GetFiles() {
			if want := fmt.Sprintf("many/f%03d.txt", seen); f.GetPath() != want {
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
