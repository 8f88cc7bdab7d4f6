package github

import (
	gh "github.com/google/go-github/v84/github"

	"github.com/forgetools/forgetools/internal/shown"
)

// page is the first page of an aggregate, read at the size the renderer
// shows.
type page[T any] struct {
	items    []T // at most the shown size
	received int // what the forge sent, which a forge ignoring per_page makes more
	size     int
	last     int // the Link header's last page; 0 when there is one page
	fetch    func(gh.ListOptions) ([]T, *gh.Response, error)
}

// firstPage reads page 1 of size items. A forge that ignores per_page and
// sends more has the rest dropped (and counted): nothing past what is
// shown is kept.
func firstPage[T any](size int, fetch func(gh.ListOptions) ([]T, *gh.Response, error)) (*page[T], error) {
	items, resp, err := fetch(gh.ListOptions{PerPage: size})
	if err != nil {
		return nil, err
	}
	pg := &page[T]{items: items[:min(len(items), size)], received: len(items), size: size, fetch: fetch}
	if resp != nil && resp.NextPage != 0 {
		pg.last = max(resp.LastPage, resp.NextPage)
	}
	return pg, nil
}

// countByLastPage counts the aggregate where GitHub gives no count (a pull
// request's reviews): the pages before the last are full, so reading the
// last one is enough. One request at most, however many pages there are.
func (pg *page[T]) countByLastPage() (int, error) {
	if pg.last <= 1 {
		return pg.received, nil
	}
	items, _, err := pg.fetch(gh.ListOptions{PerPage: pg.size, Page: pg.last})
	if err != nil {
		return 0, err
	}
	return (pg.last-1)*pg.size + min(len(items), pg.size), nil
}

// total is the result's count field for the aggregate (see shown.Total).
func (pg *page[T]) total(count int) uint32 { return shown.Total(len(pg.items), count, pg.received) }
