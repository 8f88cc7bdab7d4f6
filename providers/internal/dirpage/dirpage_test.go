package dirpage

import (
	"fmt"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
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
		if err := Cut(page, cursor); err != nil {
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
	if err := Cut(small, ""); err != nil || small.NextCursor != "" || len(small.Entries) != 3 {
		t.Errorf("a small directory: %v, %d entries, cursor %q", err, len(small.Entries), small.NextCursor)
	}
	empty := listing(0)
	if err := Cut(empty, ""); err != nil {
		t.Errorf("an empty directory: %v", err)
	}
}

// A cursor the agent made up, of another list, negative or past the end
// is invalid_argument, never a panic or an empty page passed off as the
// end.
func TestHostileCursors(t *testing.T) {
	for _, c := range []string{"200", "entry:-1", "entry:x", "entry:451", "entry:450", "entry:99999999999999999999", "after:3"} {
		err := Cut(listing(450), c)
		e, ok := toolserver.AsError(err)
		if !ok || e.Code != optionsv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT {
			t.Errorf("cursor %q: %v; want invalid_argument", c, err)
		}
	}
}
