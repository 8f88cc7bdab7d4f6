package gitea

import (
	"strconv"

	sdk "code.gitea.io/sdk/gitea"

	"github.com/forgetools/forgetools/internal/shown"
)

// page is the first page of an aggregate at the size the renderer shows,
// and what the forge says of the rest.
type page[T any] struct {
	items    []T
	received int // what the forge sent, more when it ignores limit
	count    int // X-Total-Count, Gitea's count of the whole list; 0 if absent
}

// firstPage reads page 1 of size items, never further pages; a forge
// sending more has the rest dropped (and counted).
func firstPage[T any](size int, fetch func(sdk.ListOptions) ([]T, *sdk.Response, error)) (*page[T], error) {
	items, resp, err := fetch(sdk.ListOptions{Page: 1, PageSize: size})
	if err != nil {
		return nil, fail(resp, err)
	}
	pg := &page[T]{items: items[:min(len(items), size)], received: len(items)}
	if resp != nil && resp.Response != nil {
		pg.count, _ = strconv.Atoi(resp.Header.Get("X-Total-Count"))
	}
	return pg, nil
}

// total is the result's count field for the aggregate; forge is a count
// the artifact itself carries (an issue's comments), 0 when none.
func (pg *page[T]) total(forge int) uint32 {
	return shown.Total(len(pg.items), pg.received, pg.count, forge)
}
