package gitlab_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/gitlab/gitlabtest"
	"github.com/forgetools/forgetools/providers/internal/providertest"
	"github.com/forgetools/forgetools/runtime/render"
)

// forge_list_dir without a ref sends no project lookup: the tree is read
// at the default branch, which the listing calls HEAD since GitLab's
// answer does not name it. GitLab serves a tree at most 100 nodes a
// request, and a page is one such request, so every page of the
// 450-entry directory costs one and counts the directory (X-Total).
// Cursors are bound to the directory and ref.
func TestListDirPagesWithoutALookup(t *testing.T) {
	s := fake(t)
	files := map[string]string{}
	for i := range 450 {
		files[fmt.Sprintf("big/f%03d.txt", i)] = "x"
		files[fmt.Sprintf("other/f%03d.txt", i)] = "y"
	}
	s.AddProject("acme/many", "trunk", files)
	p := provider(t, s, 0)
	list := func(ctx context.Context, req *gatewayv1.ListDirRequest) (*forgev1.DirListing, error) {
		return p.ListDir(ctx, noCall, req)
	}
	providertest.DirPages(t, providertest.DirForge{ListDir: list, Requests: func() int { return len(s.Requests()) }, MaxRequests: 1},
		"acme/many", "big", "other", 450, "HEAD")
	before := len(s.Requests())
	root, err := list(context.Background(), &gatewayv1.ListDirRequest{Repo: proj})
	if err != nil || root.GetRef() != "HEAD" || len(root.GetEntries()) != 2 {
		t.Fatalf("root of %s: %v, %v", proj, root, err)
	}
	if sent := s.Requests()[before:]; len(sent) != 1 || sent[0].Query.Has("ref") {
		t.Errorf("a small listing sent %v; want one tree request without a ref", sent)
	}
}

// Past GitLab's count limit (10,000) a later tree page carries no
// X-Total: the listing then says its total is unknown rather than
// showing none or a made-up one, and still pages on by X-Next-Page, one
// request a page. The first page is counted (GitLab counts it always).
func TestListDirPastTheCountLimit(t *testing.T) {
	s := fake(t)
	files := map[string]string{}
	const n = 10_050
	for i := range n {
		files[fmt.Sprintf("huge/f%05d.txt", i)] = "x"
	}
	s.AddProject("acme/huge", "trunk", files)
	p := provider(t, s, 0)
	ctx := context.Background()
	first, err := p.ListDir(ctx, noCall, &gatewayv1.ListDirRequest{Repo: "acme/huge", Path: "huge"})
	if err != nil || first.GetEntriesTotal() != n || first.GetEntriesTotalUnknown() || first.GetNextCursor() == "" || len(first.GetEntries()) != 100 {
		t.Fatalf("first page: total %d (unknown %v), %d entries, cursor %q, %v", first.GetEntriesTotal(), first.GetEntriesTotalUnknown(), len(first.GetEntries()), first.GetNextCursor(), err)
	}
	cursor, names := first.GetNextCursor(), 100
	for page := 2; cursor != ""; page++ {
		if page > n/100+1 {
			t.Fatal("more pages than the directory makes")
		}
		before := len(s.Requests())
		got, err := p.ListDir(ctx, noCall, &gatewayv1.ListDirRequest{Repo: "acme/huge", Path: "huge", Cursor: cursor})
		if err != nil {
			t.Fatalf("page %d: %v", page, err)
		}
		if sent := len(s.Requests()) - before; sent != 1 {
			t.Errorf("page %d: %d requests; want 1", page, sent)
		}
		if got.GetEntriesTotal() != 0 || !got.GetEntriesTotalUnknown() {
			t.Fatalf("page %d: total %d, unknown %v; want an unknown total", page, got.GetEntriesTotal(), got.GetEntriesTotalUnknown())
		}
		if r := render.Read(got); !strings.Contains(r, "\nentries_total_unknown: true\n") || strings.Contains(r, "entries_total:") {
			t.Fatalf("page %d renders no unknown total:\n%s", page, r[:min(len(r), 300)])
		}
		if want := fmt.Sprintf("f%05d.txt", (page-1)*100); got.GetEntries()[0].GetName() != want {
			t.Fatalf("page %d starts at %s; want %s", page, got.GetEntries()[0].GetName(), want)
		}
		names += len(got.GetEntries())
		cursor = got.GetNextCursor()
	}
	if names != n {
		t.Errorf("read %d entries; want %d", names, n)
	}
}

// A small directory is one page, whole: GitLab's first tree page names
// page 2 regardless, but its count says nothing follows, so no cursor
// and no total are shown.
func TestListDirSmallIsWhole(t *testing.T) {
	s := fake(t)
	p := provider(t, s, 0)
	root, err := p.ListDir(context.Background(), noCall, &gatewayv1.ListDirRequest{Repo: proj})
	if err != nil || root.GetNextCursor() != "" || root.GetEntriesTotal() != 0 || root.GetEntriesTotalUnknown() {
		t.Errorf("root of %s: %v, %v", proj, root, err)
	}
}

// A hostile or drifting GitLab cannot make the listing lie past what it
// sent: a count beyond the nodes on a short page names no next page, a
// count below them never hides any, a negative or absurd one is no count
// (or is capped), and more than a page of nodes is cut to the page.
func TestListDirHostileCounts(t *testing.T) {
	node := func(i int) string {
		return fmt.Sprintf(`{"id":"%040d","name":"f%03d","type":"blob","path":"d/f%03d","mode":"100644"}`, i, i, i)
	}
	nodes := func(n int) string {
		var b strings.Builder
		b.WriteString("[")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(node(i))
		}
		return b.String() + "]"
	}
	for _, tc := range []struct {
		name, total string
		nodes       int
		wantNext    bool
		wantTotal   uint32
		unknown     bool
	}{
		{"count past a short page", "5000", 3, false, 0, false},
		{"count below the page", "2", 100, false, 0, false},
		{"negative count", "-7", 100, true, 0, true},
		{"absurd count", "99999999999", 100, true, 4294967295, false},
		{"over a page of nodes", "150", 150, true, 150, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := fake(t)
			s.Inject("GET "+escaped+"/repository/tree", gitlabtest.Response{
				Header: http.Header{"Content-Type": {"application/json"}, "X-Total": {tc.total}, "X-Next-Page": {"2"}, "X-Page": {"1"}},
				Body:   nodes(tc.nodes),
			})
			got, err := provider(t, s, 0).ListDir(context.Background(), noCall, &gatewayv1.ListDirRequest{Repo: proj, Path: "d"})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.GetEntries()) > 100 || (got.GetNextCursor() != "") != tc.wantNext || got.GetEntriesTotal() != tc.wantTotal || got.GetEntriesTotalUnknown() != tc.unknown {
				t.Errorf("%d entries, next %q, total %d (unknown %v); want next %v, total %d (unknown %v)",
					len(got.GetEntries()), got.GetNextCursor(), got.GetEntriesTotal(), got.GetEntriesTotalUnknown(), tc.wantNext, tc.wantTotal, tc.unknown)
			}
		})
	}
}
