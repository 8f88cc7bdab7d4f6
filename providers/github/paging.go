package github

import (
	gh "github.com/google/go-github/v84/github"

	"github.com/forgetools/forgetools/providers/kit"
)

// GitHub's lists page by number (page, per_page, a Link header naming the
// next page): a list arm reads the one page its cursor names, at per_page
// = limit, so a page costs one request, and its next_cursor is the page
// the Link header names. A cursor (kit.Cursors.Page) binds the limit with
// the other arguments: a page number means nothing at another page size.
// A page the provider filters (the issues endpoint also lists pull
// requests) may show fewer than limit items, or none, with a next_cursor
// still naming the rest.

// listPage is the page of a list the request's cursor names (the first
// when none), at the request's limit.
func listPage(cur kit.Cursors, cursor string, limit *uint32) (gh.ListOptions, error) {
	page, err := cur.Page(cursor)
	if page == 1 {
		page = 0 // GitHub's first page, sent without a page parameter
	}
	return gh.ListOptions{Page: int(page), PerPage: listLimit(limit)}, err
}

// nextCursor is the cursor of the page GitHub's Link header names after
// the one just read; "" on the last page.
func nextCursor(cur kit.Cursors, o gh.ListOptions, resp *gh.Response) string {
	if next := nextPage(resp); next > max(o.Page, 1) {
		return cur.NextKey(int64(next))
	}
	return ""
}
