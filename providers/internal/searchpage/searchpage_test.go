package searchpage

import (
	"slices"
	"testing"

	"github.com/forgetools/forgetools/toolserver"
)

// Parse takes back only what Format wrote, inside the search's list.
func TestParse(t *testing.T) {
	for _, c := range []Cursor{{0, 1}, {3, 7}, {19, 1_000_000}} {
		got, err := Parse("t", c.Format(), 20, 1)
		if err != nil || got != c {
			t.Errorf("Parse(%q) = %v, %v; want %v", c.Format(), got, err, c)
		}
	}
	if got, err := Parse("t", "", 3, 1); err != nil || got != (Cursor{At: 1}) {
		t.Errorf("the first page: %v, %v", got, err)
	}
	for _, bad := range []string{"search:3.1", "search:0.0", "search:-1.1", "search:01.1", "search:0.+1", "search:0", "search:0.1.2",
		"search:0.1000001", "entry:5", "linear:abc", " search:0.1", "search:0.1 "} {
		if _, err := Parse("forge_x", bad, 3, 1); err == nil {
			t.Errorf("Parse(%q) accepted a cursor it did not write", bad)
		} else if pe, ok := toolserver.AsError(err); !ok || pe.Code.String() != "ERROR_CODE_INVALID_ARGUMENT" {
			t.Errorf("Parse(%q): %v, want invalid_argument", bad, err)
		}
	}
}

// Fan skips phases with nothing on them within one call, and its cursor
// never points at a page past the last.
func TestFan(t *testing.T) {
	// Phase 0 has one page, phase 1 none, phase 2 two pages, phase 3 none.
	pages := map[[2]int][]string{{0, 1}: {"a"}, {2, 1}: {"b"}, {2, 2}: {"c"}}
	next := map[[2]int]int{{2, 1}: 2}
	fetch := func(phase, page int) ([]string, int, error) {
		return pages[[2]int{phase, page}], next[[2]int{phase, page}], nil
	}
	var got, cursors []string
	cur := Cursor{At: 1}
	for range 10 {
		items, after, err := Fan(cur, 4, 1, fetch)
		if err != nil {
			t.Fatal(err)
		}
		got, cursors = append(got, items...), append(cursors, after)
		if after == "" {
			break
		}
		if cur, err = Parse("t", after, 4, 1); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("items %v, want a b c", got)
	}
	if want := []string{"search:1.1", "search:2.2", "search:3.1", ""}; !slices.Equal(cursors, want) {
		t.Errorf("cursors %q, want %q", cursors, want)
	}
}

// Parsed reads the named repository, else the gateway's list, each by
// the forge's parse, and refuses the whole search for one it refuses.
func TestParsed(t *testing.T) {
	upper := func(s string) (string, error) {
		if s == "bad" {
			return "", toolserver.InvalidArgument("bad repo")
		}
		return s + "!", nil
	}
	if got, err := Parsed("t", "", toolserver.Call{Repos: []string{"a/b", "c/d"}}, upper); err != nil || !slices.Equal(got, []string{"a/b!", "c/d!"}) {
		t.Errorf("the list: %v, %v", got, err)
	}
	if got, err := Parsed("t", "x/y", toolserver.Call{Repos: []string{"a/b"}}, upper); err != nil || !slices.Equal(got, []string{"x/y!"}) {
		t.Errorf("the named repo: %v, %v", got, err)
	}
	if _, err := Parsed("t", "", toolserver.Call{Repos: []string{"a/b", "bad"}}, upper); err == nil {
		t.Error("a list with a repository parse refuses was accepted")
	}
	if _, err := Parsed("t", "", toolserver.Call{}, upper); err == nil {
		t.Error("no repo and no list was accepted")
	}
}
