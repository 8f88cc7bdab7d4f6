package gitlabtest

import (
	"net/url"
	"strconv"
)

// countLimit is Kaminari's MAX_COUNT_LIMIT: an offset-paged list this
// long or longer is sent without X-Total and X-Total-Pages.
const countLimit = 10_000

// treePaged serves a page of a repository tree with the headers GitLab
// sends for it (lib/gitlab/pagination/gitaly_keyset_pager.rb): the first
// page is read from Gitaly and always says X-Next-Page 2, with the tree's
// full count (X-Total) and X-Total-Pages as total/per_page+1, however
// large the tree; a later page is the whole tree paged as an array
// (offset_pagination.rb), which names a next page only when there is one
// and drops the counts when the tree holds countLimit entries or more.
func treePaged(q url.Values, nodes []map[string]any) answer {
	a := paged(q, nodes, func(n map[string]any) any { return n })
	page, _ := strconv.Atoi(q.Get("page"))
	per, _ := strconv.Atoi(a.Header.Get("X-Per-Page"))
	switch {
	case page <= 1:
		a.Header.Set("X-Next-Page", "2")
		a.Header.Set("X-Total-Pages", strconv.Itoa(len(nodes)/per+1))
	case len(nodes) >= countLimit:
		a.Header.Del("X-Total")
		a.Header.Del("X-Total-Pages")
	}
	return a
}
