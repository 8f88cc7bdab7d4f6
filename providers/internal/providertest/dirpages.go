package providertest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// DirForge is what DirPages drives: a provider's ListDir, the count of
// requests its forge has received so far (nil for a forge that sends
// none), and the most a page may cost (0: one request).
type DirForge struct {
	ListDir     func(context.Context, *gatewayv1.ListDirRequest) (*forgev1.DirListing, error)
	Requests    func() int
	MaxRequests int
}

// DirPages pages, without a ref, through dir of repo, which holds n
// entries f000.txt… (more than one page), and a sibling directory other:
// every entry once in order, each page f.MaxRequests at most, the ref read
// named as wantRef (the default branch). A cursor passed with another
// path, an explicit ref, another repository's name or made up is
// invalid_argument, never a page of another listing read at its offset.
func DirPages(t *testing.T, f DirForge, repo, dir, other string, n int, wantRef string) {
	t.Helper()
	ctx := context.Background()
	var names []string
	cursor, second := "", ""
	for page := 0; ; page++ {
		if page > n/100+1 {
			t.Fatalf("more pages than %d entries make", n)
		}
		before := f.count()
		got, err := f.ListDir(ctx, &gatewayv1.ListDirRequest{Repo: repo, Path: dir, Cursor: cursor})
		if err != nil {
			t.Fatalf("page %d: %v", page, err)
		}
		if sent, most := f.count()-before, max(f.MaxRequests, 1); sent > most {
			t.Errorf("page %d: %d requests; want at most %d", page, sent, most)
		}
		if got.GetRef() != wantRef || got.GetEntriesTotal() != uint32(n) {
			t.Errorf("page %d: ref %q, total %d; want %q, %d", page, got.GetRef(), got.GetEntriesTotal(), wantRef, n)
		}
		for _, e := range got.GetEntries() {
			names = append(names, e.GetName())
		}
		if cursor = got.GetNextCursor(); cursor == "" {
			break
		}
		if page == 0 {
			second = cursor
		}
	}
	if len(names) != n || names[0] != "f000.txt" || names[n-1] != fmt.Sprintf("f%03d.txt", n-1) {
		t.Errorf("read %d entries (%v…); want %d in order", len(names), names[:min(len(names), 3)], n)
	}
	if second == "" {
		t.Fatal("the directory took one page")
	}
	query := second[:strings.Index(second, ".")+1]
	for _, req := range []*gatewayv1.ListDirRequest{
		{Repo: repo, Path: other, Cursor: second},
		{Repo: repo, Path: dir, Ref: wantRef, Cursor: second},
		{Repo: repo, Path: dir, Cursor: "entry:200"},
		{Repo: repo, Path: dir, Cursor: query + "99999"},
	} {
		_, err := f.ListDir(ctx, req)
		WantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "cursor")
	}
}

func (f DirForge) count() int {
	if f.Requests == nil {
		return 0
	}
	return f.Requests()
}
