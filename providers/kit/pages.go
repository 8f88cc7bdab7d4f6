package kit

import "math"

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
// against a pathological list). The first error stops it.
func Pages[T any, C comparable](limit int, read func(next C) (Page[T, C], error), each func(T) bool) error {
	var next, last C
	for range limit {
		pg, err := read(next)
		if err != nil {
			return err
		}
		for _, item := range pg.Items {
			if !each(item) {
				return nil
			}
		}
		if pg.Next == last {
			return nil
		}
		next = pg.Next
	}
	return nil
}

// Collect is every item of a list, at most limit pages of it.
func Collect[T any, C comparable](limit int, read func(next C) (Page[T, C], error)) ([]T, error) {
	var all []T
	if err := Pages(limit, read, func(item T) bool { all = append(all, item); return true }); err != nil {
		return nil, err
	}
	return all, nil
}

// Every is Pages over a whole list, however many pages (a discovery walk
// over all a credential reaches, each page under its own timeout), for a
// caller whose each can fail: that error stops the walk and is returned.
func Every[T any, C comparable](read func(next C) (Page[T, C], error), each func(T) error) error {
	var failed error
	if err := Pages(math.MaxInt, read, func(item T) bool { failed = each(item); return failed == nil }); err != nil {
		return err
	}
	return failed
}
