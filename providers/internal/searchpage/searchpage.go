// Package searchpage is the paging and repository list every forge's
// forge_search_code and forge_search_issues share. A search that names no
// repository covers the repositories the gateway lists in
// toolserver.Call.Repos, one at a time on forges that search one
// repository per request; a cursor then says which repository the next
// page is in and where in it (an offset or the forge's page number, as the
// provider that issued it reads it). A cursor is agent input: Parse takes
// only the shape Format writes, with a repository index inside the list.
package searchpage

import (
	"strconv"
	"strings"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/toolserver"
)

// Sizes are a page's items: what the renderer shows of each result.
var (
	CodeSize = shown.Of(&forgev1.CodeMatchList{}, "matches")
	HitSize  = shown.Of(&forgev1.SearchHitList{}, "hits")
)

// prefix marks a search cursor, so another list's cursor is refused.
const prefix = "search:"

// Cursor is a position in a search: the index of the repository in the
// search's list, and the provider's position inside it.
type Cursor struct {
	Repo int
	At   int
}

// Format writes c as a next_cursor.
func (c Cursor) Format() string {
	return prefix + strconv.Itoa(c.Repo) + "." + strconv.Itoa(c.At)
}

// Parse reads a cursor for a search over repos repositories; "" is the
// start, at first (the provider's first position: 0 for an offset, 1 for
// a page number).
func Parse(tool, cursor string, repos, first int) (Cursor, error) {
	if cursor == "" {
		return Cursor{At: first}, nil
	}
	bad := toolserver.InvalidArgument("cursor %q is not a next_cursor %s gave for this search; omit it for the first page", cursor, tool)
	rest, ok := strings.CutPrefix(cursor, prefix)
	repo, at, ok2 := strings.Cut(rest, ".")
	if !ok || !ok2 {
		return Cursor{}, bad
	}
	r, err1 := number(repo)
	a, err2 := number(at)
	if err1 != nil || err2 != nil || r >= repos || a < first {
		return Cursor{}, bad
	}
	return Cursor{Repo: r, At: a}, nil
}

// number reads a decimal without sign or leading zeros, below a million
// pages (a bound no real search reaches, so an offset cannot overflow).
func number(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || s != strconv.Itoa(n) || n < 0 || n > 1_000_000 {
		return 0, strconv.ErrSyntax
	}
	return n, nil
}

// Repos is what a search covers: the repository it names, else the
// gateway's list for the account's scope. A provider called with neither
// (not through the gateway) is refused rather than left to search the
// whole forge.
func Repos(tool, named string, c toolserver.Call) ([]string, error) {
	if named != "" {
		return []string{named}, nil
	}
	if len(c.Repos) == 0 {
		return nil, toolserver.InvalidArgument("%s needs a repo (or, through the gateway, a scope that lists repositories)", tool)
	}
	return c.Repos, nil
}

// Fan pages a search that the forge answers one repository (and kind) at
// a time: phases positions, each read page by page from first. From cur
// it fetches one page; a page with nothing on it (a repository with no
// match) moves on to the next phase in the same call, so a next_cursor
// never leads to an empty page while later phases still have items. fetch
// returns a page's items and the forge's next page number in that phase,
// 0 when it has no more.
func Fan[T any](cur Cursor, phases, first int, fetch func(phase, page int) ([]T, int, error)) ([]T, string, error) {
	phase, page := cur.Repo, cur.At
	for phase < phases {
		items, next, err := fetch(phase, page)
		if err != nil {
			return nil, "", err
		}
		after := ""
		switch {
		case next > page:
			after = Cursor{Repo: phase, At: next}.Format()
		case phase+1 < phases:
			after = Cursor{Repo: phase + 1, At: first}.Format()
		}
		if len(items) > 0 || after == "" {
			return items, after, nil
		}
		phase, page = phase+1, first
	}
	return nil, "", nil
}

// Parsed is Repos with each name read by the forge's parse (which checks
// it), in order.
func Parsed[T any](tool, named string, c toolserver.Call, parse func(string) (T, error)) ([]T, error) {
	names, err := Repos(tool, named, c)
	if err != nil {
		return nil, err
	}
	out := make([]T, 0, len(names))
	for _, n := range names {
		r, err := parse(n)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}
