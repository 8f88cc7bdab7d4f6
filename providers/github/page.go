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
}

// firstPage reads page 1 of size items. A forge that ignores per_page and
// sends more has the rest dropped (and counted): nothing past what is
// shown is kept.
func firstPage[T any](size int, fetch func(gh.ListOptions) ([]T, *gh.Response, error)) (*page[T], error) {
	// The count comes with the aggregate's parent (an issue's comments),
	// so the Link header is not needed.
	items, _, err := fetch(gh.ListOptions{PerPage: size})
	if err != nil {
		return nil, err
	}
	return &page[T]{items: items[:min(len(items), size)], received: len(items)}, nil
}

// total is the result's count field for the aggregate (see shown.Total).
func (pg *page[T]) total(count int) uint32 { return shown.Total(len(pg.items), count, pg.received) }
