package giteatest

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// commitsRangeSize is Gitea's [git] COMMITS_RANGE_SIZE: the most commits
// one page of the list holds, and the page size of a path's history
// whatever limit says.
const commitsRangeSize = 50

// listCommits is GET .../commits as Gitea 1.27's GetAllCommits serves it:
// sha (a branch, tag or commit; the default branch when left out), path
// (a file or directory), not (a ref whose history is left out), since
// and until (RFC 3339, 422 otherwise; since is then ignored, as on
// Gitea), page and limit (default 30, at
// most 50); stat, verification and files each on unless "false". Newest
// first, with X-Total-Count, Link (next, last, first, prev), and the
// older X-Page, X-PerPage, X-Total, X-PageCount and X-HasMore.
//
// With a path, Gitea pages at COMMITS_RANGE_SIZE and ignores limit, yet
// still counts pages (X-PageCount, X-HasMore, Link) by limit; and it
// answers 404 when no commit touched the path (unless a date filter is
// what left none). Both are modelled as it does them.
func (s *Server) listCommits(c *call) answer {
	q := c.Query
	var ignored, until time.Time
	for _, f := range []struct {
		name string
		at   *time.Time
	}{{"since", &ignored}, {"until", &until}} {
		if v := q.Get(f.name); v != "" {
			t, err := time.Parse(time.RFC3339, v)
			if err != nil {
				return s.apiError(http.StatusUnprocessableEntity, "invalid '"+f.name+"' format, expected ISO 8601 (RFC3339)")
			}
			*f.at = t
		}
	}
	limit, _ := strconv.Atoi(q.Get("limit"))
	if limit <= 0 {
		limit = 30
	}
	limit = min(limit, 50, commitsRangeSize)
	page, _ := strconv.Atoi(q.Get("page"))
	page = max(page, 1)
	rp, sha, path := c.r, q.Get("sha"), q.Get("path")
	head := rp.CommitAt(fakeOr(sha, rp.DefaultBranch))
	if head == nil {
		if path != "" {
			// git rev-list on a revision that names nothing fails.
			return s.apiError(http.StatusInternalServerError, "")
		}
		return s.apiError(http.StatusNotFound, "object does not exist [id: "+sha+", rel_path: ]")
	}
	left := map[string]bool{}
	if not := q.Get("not"); not != "" {
		if from := rp.CommitAt(not); from != nil {
			for _, cm := range rp.Log(from) {
				left[cm.SHA] = true
			}
		}
	}
	// Gitea 1.27.3 checks since's format but lists as if it were not
	// given (a since in the year 2999 still lists everything, measured
	// on the real server); until it applies.
	dated := func(cm *forgemodel.Commit) bool { return until.IsZero() || !cm.When.After(until) }
	var all []*forgemodel.Commit
	touched := false
	for _, cm := range rp.Log(head) {
		if left[cm.SHA] || (path != "" && !rp.Touches(cm, path)) {
			continue
		}
		touched = true
		if dated(cm) {
			all = append(all, cm)
		}
	}
	if path != "" && !touched {
		return answer{Status: http.StatusNotFound, Body: map[string]any{"message": "not found", "url": "https://" + s.host + "/api/swagger"}}
	}
	size := limit
	if path != "" {
		size = commitsRangeSize
	}
	out := []any{}
	for i := (page - 1) * size; i < min(page*size, len(all)); i++ {
		out = append(out, s.gitCommitJSON(rp, all[i], q))
	}
	total := len(all)
	pages := (total + limit - 1) / limit
	a := ok(out)
	a.Header = http.Header{
		"X-Total-Count": {strconv.Itoa(total)}, "X-Total": {strconv.Itoa(total)},
		"X-Page": {strconv.Itoa(page)}, "X-PerPage": {strconv.Itoa(limit)}, "X-PageCount": {strconv.Itoa(pages)},
		"X-HasMore": {strconv.FormatBool(page < pages)},
	}
	if links := s.pageLinks(c, total, limit); len(links) > 0 {
		a.Header.Set("Link", strings.Join(links, ","))
	}
	return a
}

// pageLinks is Gitea's Link header (genAPILinks): next, last, first and
// prev as they apply, the current page clamped to the last.
func (s *Server) pageLinks(c *call, total, size int) []string {
	pages := (total + size - 1) / size
	cur, _ := strconv.Atoi(c.Query.Get("page"))
	cur = max(min(cur, pages), 1)
	link := func(page int, rel string) string {
		v := url.Values{}
		for k, vs := range c.Query {
			v[k] = vs
		}
		v.Set("page", strconv.Itoa(page))
		return fmt.Sprintf(`<%s%s/api/v1%s?%s>; rel="%s"`, s.URL, s.prefix, c.Path, v.Encode(), rel)
	}
	var out []string
	if cur*size < total {
		out = append(out, link(cur+1, "next"), link(pages, "last"))
	}
	if cur > 1 {
		out = append(out, link(1, "first"), link(cur-1, "prev"))
	}
	return out
}

// gitCommitJSON is Gitea's Commit (convert.ToCommit): stats, the
// commit's verification and files unless the query turns them off with
// "false".
func (s *Server) gitCommitJSON(r *forgemodel.Repo, cm *forgemodel.Commit, q url.Values) map[string]any {
	on := func(flag string) bool {
		v := q.Get(flag)
		b, err := strconv.ParseBool(v)
		return v == "" || (err == nil && b)
	}
	person := map[string]any{"name": cm.Author, "email": cm.Author + "@noreply." + s.host, "date": stamp(cm.When)}
	parents := []any{}
	for _, p := range cm.Parents {
		parents = append(parents, map[string]any{"url": s.api("/repos/%s/git/commits/%s", r.Path, p), "sha": p})
	}
	commit := map[string]any{
		"url": s.api("/repos/%s/git/commits/%s", r.Path, cm.SHA), "author": person, "committer": person, "message": cm.Message,
		"tree": map[string]any{"url": s.api("/repos/%s/git/trees/%s", r.Path, cm.SHA), "sha": cm.SHA, "created": stamp(cm.When)},
	}
	if on("verification") {
		commit["verification"] = map[string]any{"verified": false, "reason": "gpg.error.not_signed_commit", "signature": "", "signer": nil, "payload": ""}
	}
	changed := r.Changed(cm)
	out := map[string]any{
		"url": s.api("/repos/%s/git/commits/%s", r.Path, cm.SHA), "sha": cm.SHA, "created": stamp(cm.When),
		"html_url": s.web("/%s/commit/%s", r.Path, cm.SHA), "commit": commit,
		"author": s.userJSON(cm.Author), "committer": s.userJSON(cm.Author), "parents": parents,
		"files": nil, "stats": nil,
	}
	if on("files") {
		files := []any{}
		for _, f := range changed {
			files = append(files, map[string]any{"filename": f.Path, "status": f.Status})
		}
		out["files"] = files
	}
	if on("stat") {
		add, del := 0, 0
		for _, f := range changed {
			add, del = add+f.Additions, del+f.Deletions
		}
		out["stats"] = map[string]any{"total": add + del, "additions": add, "deletions": del}
	}
	return out
}
