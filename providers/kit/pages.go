package kit

import "github.com/forgetools/forgetools/toolserver"

// Page is one page of a list as a forge answered it: its items, and where
// the next page is (Next: the forge's page number, or its cursor; the
// zero value when this page is the last).
type Page[T any, C comparable] struct {
	Items []T
	Next  C
}

// Pages is the one loop the providers read a list with: read(zero) is the
// first page and read(n) the page a previous answer named as Next; each
// item goes to each, in order, until each answers false, a page is the
// last, or limit pages have been read (a bound on what one call costs
// against a pathological list). The first error stops it, and so does a
// forge that names as next a page it already served, which would loop.
func Pages[T any, C comparable](limit int, read func(next C) (Page[T, C], error), each func(T) bool) error {
	_, err := walk(limit, read, each)
	return err
}

// walk is Pages, and whether it stopped at limit with a next page named.
func walk[T any, C comparable](limit int, read func(next C) (Page[T, C], error), each func(T) bool) (cut bool, err error) {
	var next, last C
	seen := map[C]bool{}
	for range limit {
		if seen[next] {
			return false, toolserver.Unavailable("the forge named page %v again after serving it; stopped reading the list", next)
		}
		seen[next] = true
		pg, err := read(next)
		if err != nil {
			return false, err
		}
		for _, item := range pg.Items {
			if !each(item) {
				return false, nil
			}
		}
		if pg.Next == last {
			return false, nil
		}
		next = pg.Next
	}
	return true, nil
}

// Collect is every item of a list, at most limit pages of it.
func Collect[T any, C comparable](limit int, read func(next C) (Page[T, C], error)) ([]T, error) {
	var all []T
	if err := Pages(limit, read, func(item T) bool { all = append(all, item); return true }); err != nil {
		return nil, err
	}
	return all, nil
}

// EveryPageLimit bounds a walk by Every: at a hundred items a page, a
// million repositories, past any real credential's reach, and short of a
// hostile forge that names a next page forever.
const EveryPageLimit = 10_000

// Every is Pages over a whole list (a discovery walk over all a
// credential reaches, each page under its own timeout), for a caller whose
// each can fail: that error stops the walk and is returned. A list longer
// than EveryPageLimit pages is an error, not a silently partial walk.
func Every[T any, C comparable](read func(next C) (Page[T, C], error), each func(T) error) error {
	var failed error
	cut, err := walk(EveryPageLimit, read, func(item T) bool { failed = each(item); return failed == nil })
	switch {
	case err != nil:
		return err
	case cut:
		return toolserver.Unavailable("the forge named more than %d pages; stopped reading the list", EveryPageLimit)
	}
	return failed
}
