package dirpage

import (
	"fmt"
	"strings"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/toolserver"
)

func listing(n int) *forgev1.DirListing {
	out := &forgev1.DirListing{}
	for i := range n {
		out.Entries = append(out.Entries, &forgev1.DirEntry{Name: fmt.Sprintf("f%03d", i)})
	}
	return out
}

// Following next_cursor reads every entry once, in order, a page at a
// time, and every page counts the whole directory.
func TestPagesCoverTheDirectory(t *testing.T) {
	if Size != 200 {
		t.Fatalf("Size = %d, want the renderer's 200", Size)
	}
	var seen []string
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 3 {
			t.Fatal("more pages than 450 entries make")
		}
		page := listing(450)
		if err := Cut(page, at(cursor)); err != nil {
			t.Fatal(err)
		}
		if page.EntriesTotal != 450 || len(page.Entries) > Size {
			t.Fatalf("page %d: %d entries, total %d", pages, len(page.Entries), page.EntriesTotal)
		}
		for _, e := range page.Entries {
			seen = append(seen, e.Name)
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	if len(seen) != 450 || seen[0] != "f000" || seen[449] != "f449" || seen[200] != "f200" {
		t.Errorf("read %d entries, first %s, 201st %s", len(seen), seen[0], seen[200])
	}
	small := listing(3)
	if err := Cut(small, at("")); err != nil || small.NextCursor != "" || len(small.Entries) != 3 {
		t.Errorf("a small directory: %v, %d entries, cursor %q", err, len(small.Entries), small.NextCursor)
	}
	empty := listing(0)
	if err := Cut(empty, at("")); err != nil {
		t.Errorf("an empty directory: %v", err)
	}
}

// at is a request for the directory "big" of acme/app at main, with cursor.
func at(cursor string) *gatewayv1.ListDirRequest {
	return &gatewayv1.ListDirRequest{Repo: "acme/app", Path: "big", Ref: "main", Cursor: cursor}
}

// A cursor the agent made up, of another list, negative, past the end,
// or issued for another directory, ref or repository is invalid_argument,
// never a panic, an empty page passed off as the end, or a page of
// another listing read at this one's offset.
func TestHostileCursors(t *testing.T) {
	first := listing(450)
	if err := Cut(first, at("")); err != nil || first.NextCursor == "" {
		t.Fatalf("first page: %v, cursor %q", err, first.NextCursor)
	}
	next := first.NextCursor
	query := next[:strings.Index(next, ".")+1]
	cases := []*gatewayv1.ListDirRequest{
		at("200"), at("entry:200"), at(query + "-1"), at(query + "x"), at(query + "451"), at(query + "450"),
		at(query + "99999999999999999999"), at("after:3"), at(query + "0"),
		{Repo: "acme/app", Path: "other", Ref: "main", Cursor: next},
		{Repo: "acme/app", Path: "big", Ref: "dev", Cursor: next},
		{Repo: "acme/app", Path: "big", Cursor: next},
		{Repo: "acme/lib", Path: "big", Ref: "main", Cursor: next},
	}
	for _, req := range cases {
		err := Cut(listing(450), req)
		e, ok := toolserver.AsError(err)
		if !ok || e.Code != optionsv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT {
			t.Errorf("cursor %q on %s %q at %q: %v; want invalid_argument", req.Cursor, req.Repo, req.Path, req.Ref, err)
		}
	}
	if err := Cut(listing(450), at(next)); err != nil {
		t.Errorf("its own cursor refused: %v", err)
	}
}
