package gitlabtest

import (
	"net/http"
	"strings"
	"time"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// The commit list and a commit, in GitLab's commit entity, over the
// model's history (forgemodel's history.go).

func (s *Server) commitJSON(p *forgemodel.Repo, c *forgemodel.Commit) map[string]any {
	title, _, _ := strings.Cut(c.Message, "\n")
	return map[string]any{
		"id": c.SHA, "short_id": c.SHA[:8], "title": title, "message": c.Message,
		"author_name": c.Author, "author_email": c.Author + "@example.com", "authored_date": stamp(c.When),
		"committer_name": c.Author, "committer_email": c.Author + "@example.com", "committed_date": stamp(c.When),
		"created_at": stamp(c.When), "parent_ids": append([]string{}, c.Parents...), "web_url": s.web("/%s/-/commit/%s", p.Path, c.SHA),
	}
}

// listCommits is GET .../repository/commits: ref_name (a branch or a
// commit id; the default branch when left out), path (a file or a
// directory), since (ISO 8601), newest first, paged with X-Next-Page.
func (s *Server) listCommits(c *call) answer {
	q := c.Query
	head := c.p.CommitAt(fakeOr(q.Get("ref_name"), c.p.DefaultBranch))
	if head == nil {
		return s.message(http.StatusNotFound, "404 Reference Not Found")
	}
	var since time.Time
	if v := q.Get("since"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return answer{Status: http.StatusBadRequest, Body: map[string]any{"error": "since is invalid"}}
		}
		since = t
	}
	out := c.p.Since(c.p.Log(head), since, strings.Trim(q.Get("path"), "/"))
	a := paged(q, out, func(cm *forgemodel.Commit) any { return s.commitJSON(c.p, cm) })
	// GitLab's commit list counts nothing: no X-Total or X-Total-Pages.
	a.Header.Del("X-Total")
	a.Header.Del("X-Total-Pages")
	return a
}

// getCommit is GET .../repository/commits/:sha, sha a commit id or a
// branch name.
func (s *Server) getCommit(c *call) answer {
	cm := c.p.CommitAt(c.Value("sha"))
	if cm == nil {
		return s.message(http.StatusNotFound, "404 Commit Not Found")
	}
	return ok(s.commitJSON(c.p, cm))
}
