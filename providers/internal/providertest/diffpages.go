package providertest

import (
	"context"
	"strings"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

// DiffForge is what DiffPages drives: a provider's diff of one pull
// request at a cursor, and since a mark (a count of the requests the
// forge has received) the pages of the forge's file list read and every
// request sent.
type DiffForge struct {
	Diff      func(ctx context.Context, cursor string) (*forgev1.PullRequestDiff, error)
	Requests  func() int
	ListPages func(mark int) []int
	// PerPage is the files a page of the forge's list holds.
	PerPage int
}

// DiffPages pages by next_cursor through a pull request whose diff
// changes the files path(0)…path(n-1) in that order, more than one page
// of them: every file arrives once, in order, files_changed is n on every
// page, and each page reads only the list pages holding its files,
// starting at the one holding its first (at most two, and three requests
// with the pull request's own): never the list from its start again.
func DiffPages(t *testing.T, f DiffForge, n int, path func(i int) string) {
	t.Helper()
	ctx := context.Background()
	cursor, seen, pages := "", 0, 0
	for ; ; pages++ {
		if pages > n {
			t.Fatal("no last page")
		}
		mark := f.Requests()
		got, err := f.Diff(ctx, cursor)
		if err != nil {
			t.Fatalf("page %d: %v", pages+1, err)
		}
		first := seen
		if list := f.ListPages(mark); len(list) == 0 || list[0] != first/f.PerPage+1 || len(list) > 2 {
			t.Errorf("page %d (from file %d) read list pages %v; want the one holding it, and the next at most", pages+1, first, list)
		}
		if sent := f.Requests() - mark; sent > 3 {
			t.Errorf("page %d cost %d requests; want 3 at most", pages+1, sent)
		}
		if got.GetFilesChanged() != uint32(n) {
			t.Errorf("page %d: files_changed %d; want %d", pages+1, got.GetFilesChanged(), n)
		}
		for _, df := range got.GetFiles() {
			if df.GetPath() != path(seen) {
				t.Fatalf("page %d: %s; want %s", pages+1, df.GetPath(), path(seen))
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
	if seen != n || pages == 0 {
		t.Errorf("read %d files of %d in %d pages", seen, n, pages+1)
	}
}
