package gitlabtest

import (
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// logCommit is one commit of a branch's history as the fake keeps it.
type logCommit struct {
	sha, title, message, author string
	when                        time.Time
	files                       []string
}

func logKey(p *forgemodel.Repo, branch string) string { return p.Path + "\x00" + branch }

// history is a branch's commits, oldest first; a branch no write has
// touched has one, its head when first asked.
func (s *Server) history(p *forgemodel.Repo, branch string) []*logCommit {
	k := logKey(p, branch)
	if _, found := s.log[k]; !found {
		if head, ok := p.Branches[branch]; ok {
			s.log[k] = []*logCommit{{sha: head, title: "Initial commit", message: "Initial commit", author: "root", when: s.Now()}}
		}
	}
	return s.log[k]
}

// recordCommit adds the commit a write made to its branch's history; call
// history before the write moves the head, so the seed is the old head.
func (s *Server) recordCommit(p *forgemodel.Repo, branch, sha, message, author string, files ...string) {
	title, _, _ := strings.Cut(message, "\n")
	k := logKey(p, branch)
	s.log[k] = append(s.history(p, branch), &logCommit{sha: sha, title: title, message: message, author: author, when: s.Tick(), files: files})
}

// copyHistory gives a new branch its source's history.
func (s *Server) copyHistory(p *forgemodel.Repo, to, from string) {
	s.log[logKey(p, to)] = slices.Clone(s.history(p, from))
}

// upTo is the history ending at ref: a branch's, or a branch's up to the
// commit ref names (a full id); nil when ref is neither.
func (s *Server) upTo(p *forgemodel.Repo, ref string) []*logCommit {
	if _, ok := p.Branches[ref]; ok {
		return s.history(p, ref)
	}
	for _, b := range slices.Sorted(maps.Keys(p.Branches)) {
		h := s.history(p, b)
		for i, c := range h {
			if c.sha == ref {
				return h[:i+1]
			}
		}
	}
	return nil
}

func (s *Server) commitJSON(p *forgemodel.Repo, c *logCommit) map[string]any {
	return map[string]any{
		"id": c.sha, "short_id": c.sha[:8], "title": c.title, "message": c.message,
		"author_name": c.author, "author_email": c.author + "@example.com", "authored_date": stamp(c.when),
		"committer_name": c.author, "committer_email": c.author + "@example.com", "committed_date": stamp(c.when),
		"created_at": stamp(c.when), "parent_ids": []string{}, "web_url": s.web("/%s/-/commit/%s", p.Path, c.sha),
	}
}

// listCommits is GET .../repository/commits: ref_name (a branch or a
// commit id; the default branch when left out), path (a file or a
// directory), since (ISO 8601), newest first, paged with X-Next-Page.
func (s *Server) listCommits(c *call) answer {
	q := c.Query
	h := s.upTo(c.p, fakeOr(q.Get("ref_name"), c.p.DefaultBranch))
	if h == nil {
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
	path := strings.Trim(q.Get("path"), "/")
	var out []*logCommit
	for i := len(h) - 1; i >= 0; i-- {
		cm := h[i]
		touches := path == "" || slices.ContainsFunc(cm.files, func(f string) bool { return f == path || strings.HasPrefix(f, path+"/") })
		if touches && !cm.when.Before(since) {
			out = append(out, cm)
		}
	}
	a := paged(q, out, func(cm *logCommit) any { return s.commitJSON(c.p, cm) })
	// GitLab's commit list counts nothing: no X-Total or X-Total-Pages.
	a.Header.Del("X-Total")
	a.Header.Del("X-Total-Pages")
	return a
}

// getCommit is GET .../repository/commits/:sha, sha a commit id or a
// branch name.
func (s *Server) getCommit(c *call) answer {
	h := s.upTo(c.p, c.Value("sha"))
	if len(h) == 0 {
		return s.message(http.StatusNotFound, "404 Commit Not Found")
	}
	return ok(s.commitJSON(c.p, h[len(h)-1]))
}
