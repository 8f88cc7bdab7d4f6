package unidiff_test

import (
	"strings"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/providers/internal/unidiff"
)

// forgeList serves files as a forge lists them, per to a page, counting
// the pages read.
type forgeList struct {
	files []unidiff.File
	per   int
	reads []int
}

func (l *forgeList) pages() unidiff.Pages {
	return unidiff.Pages{PerPage: l.per, MaxPages: 30, Read: func(page int) ([]unidiff.File, bool, int, error) {
		l.reads = append(l.reads, page)
		lo, hi := min((page-1)*l.per, len(l.files)), min(page*l.per, len(l.files))
		return l.files[lo:hi], hi < len(l.files), len(l.files), nil
	}}
}

var pr = unidiff.PullRequest{Repo: "acme/app", Number: 7, Base: "b", Head: "h"}

// A diff read a forge page at a time pages exactly as the whole diff
// does (the same files, hunks and cursors), while each page reads only
// the forge pages its files are on, from the one its cursor names: one
// or two, never the list from the start.
func TestPagesReadOnlyWhatThePageShows(t *testing.T) {
	files, err := unidiff.Parse(bigDiff(350, 30))
	if err != nil {
		t.Fatal(err)
	}
	list := &forgeList{files: files, per: 100}
	cursor, pages, seen, crossed := "", 0, 0, 0
	for ; ; pages++ {
		if pages > 40 {
			t.Fatal("no last page")
		}
		want, err := unidiff.PullRequestDiff(pr, unidiff.Whole(files), "", cursor)
		if err != nil {
			t.Fatal(err)
		}
		list.reads = nil
		got, err := unidiff.PullRequestDiff(pr, list.pages(), "", cursor)
		if err != nil {
			t.Fatalf("page %d: %v", pages, err)
		}
		if !same(got, want) {
			t.Fatalf("page %d differs from the whole diff's: %d files, next %q; want %d, %q", pages, len(got.Files), got.NextCursor, len(want.Files), want.NextCursor)
		}
		first := seen/list.per + 1
		last := (seen+len(got.Files)-1)/list.per + 1
		if len(list.reads) == 0 || list.reads[0] != first || list.reads[len(list.reads)-1] > last || len(list.reads) > 2 {
			t.Errorf("page %d (files %d…%d) read forge pages %v; want %d to %d", pages, seen, seen+len(got.Files)-1, list.reads, first, last)
		}
		if len(list.reads) == 2 {
			crossed++
		}
		if got.FilesChanged != 350 {
			t.Errorf("page %d: files_changed %d", pages, got.FilesChanged)
		}
		seen += len(got.Files)
		if cursor = got.NextCursor; cursor == "" {
			break
		}
		// A file cut across pages is shown again from where it stopped.
		if line := strings.Split(cursor, ".")[2]; line != "0" {
			seen--
		}
	}
	if seen != 350 || pages < 6 || crossed == 0 {
		t.Errorf("read %d files in %d pages; want 350 in pages that cross the forge's (%d did)", seen, pages+1, crossed)
	}
}

func same(a, b *forgev1.PullRequestDiff) bool {
	if a.NextCursor != b.NextCursor || a.FilesChanged != b.FilesChanged || len(a.Files) != len(b.Files) {
		return false
	}
	for i := range a.Files {
		if a.Files[i].Path != b.Files[i].Path || a.Files[i].Hunks != b.Files[i].Hunks {
			return false
		}
	}
	return true
}

// A cursor of another pull request, from before a push, or made up is
// refused before any forge page is read; one naming a file past the end
// is refused after reading the one page it names.
func TestPagesRefuseCursorsCheaply(t *testing.T) {
	files, _ := unidiff.Parse(bigDiff(250, 12))
	list := &forgeList{files: files, per: 100}
	first, err := unidiff.PullRequestDiff(pr, list.pages(), "", "")
	if err != nil || first.NextCursor == "" {
		t.Fatalf("first page: %v, %q", err, first.GetNextCursor())
	}
	p := strings.Split(first.NextCursor, ".")
	moved := pr
	moved.Head = "h2"
	other := pr
	other.Number = 8
	for _, c := range []struct {
		pr    unidiff.PullRequest
		cur   string
		code  optionsv1.ErrorCode
		reads int
	}{
		{other, first.NextCursor, optionsv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, 0},
		{moved, first.NextCursor, optionsv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, 0},
		{pr, "diff.+5.0." + p[3] + "." + p[4], optionsv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, 0},
		{pr, "diff.99999.0." + p[3] + "." + p[4], optionsv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, 0},
		{pr, "diff.260.0." + p[3] + "." + p[4], optionsv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, 1},
		{pr, "diff.10.9999." + p[3] + "." + p[4], optionsv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, 1},
	} {
		list.reads = nil
		_, err := unidiff.PullRequestDiff(c.pr, list.pages(), "", c.cur)
		if code(err) != c.code || len(list.reads) != c.reads {
			t.Errorf("cursor %q: %v after reading pages %v; want %v after %d", c.cur, err, list.reads, c.code, c.reads)
		}
	}
}
