package gitlabtest

import (
	"net/http"
	"path"
	"slices"
	"strings"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// Project search, as GitLab's basic search answers it (GET
// /projects/:id/search, also routed as /projects/:id/-/search): scope
// blobs, issues or merge_requests, search required, the issue and merge
// request scopes filtered by state. A blob result is a chunk of the file
// around matching lines (one line of context each side, overlapping
// chunks merged, as git grep's context does) with its first line's number; issues and merge requests come newest first in their
// usual JSON. Matching ignores case, as GitLab's does.

func (s *Server) searchRoutes() {
	s.route("GET /projects/{id}/search", s.search)
	s.route("GET /projects/{id}/-/search", s.search)
}

func (s *Server) search(c *call) answer {
	q := c.Query.Get("search")
	if q == "" {
		return answer{Status: http.StatusBadRequest, Body: map[string]any{"error": "search is missing"}}
	}
	needle := strings.ToLower(q)
	has := func(texts ...string) bool {
		return slices.ContainsFunc(texts, func(t string) bool { return strings.Contains(strings.ToLower(t), needle) })
	}
	state := c.Query.Get("state")
	var items []*forgemodel.Item
	switch scope := c.Query.Get("scope"); scope {
	case "blobs":
		return s.searchBlobs(c, needle)
	case "issues", "merge_requests":
		for _, it := range slices.Backward(c.p.Items) {
			if (it.Pull != nil) == (scope == "merge_requests") && has(it.Title, it.Body) {
				items = append(items, it)
			}
		}
		render := func(it *forgemodel.Item) map[string]any {
			if it.Pull != nil {
				return s.mrJSON(c.p, it, false)
			}
			return s.issueJSON(c.p, it)
		}
		var out []map[string]any
		for _, it := range items {
			if j := render(it); state == "" || j["state"] == state {
				out = append(out, j)
			}
		}
		return paged(c.Query, out, func(j map[string]any) any { return j })
	default:
		return answer{Status: http.StatusBadRequest, Body: map[string]any{"error": "scope does not have a valid value"}}
	}
}

// searchBlobs answers scope=blobs at ref (the default branch when none).
func (s *Server) searchBlobs(c *call, needle string) answer {
	ref := fakeOr(c.Query.Get("ref"), c.p.DefaultBranch)
	files := c.p.Files[ref]
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var out []map[string]any
	for _, p := range paths {
		lines := strings.Split(files[p], "\n")
		// Chunks as git grep's context makes them: a line each side of a
		// match, overlapping ones merged.
		from, to := -1, -1
		flush := func() {
			if from >= 0 {
				out = append(out, map[string]any{
					"basename": strings.TrimSuffix(p, path.Ext(p)), "data": strings.Join(lines[from:to], "\n") + "\n",
					"path": p, "filename": p, "id": nil, "ref": ref, "startline": from + 1, "project_id": c.p.ID,
				})
			}
			from = -1
		}
		for i, l := range lines {
			if !strings.Contains(strings.ToLower(l), needle) {
				continue
			}
			if from >= 0 && i-1 > to {
				flush()
			}
			if from < 0 {
				from = max(i-1, 0)
			}
			to = min(i+2, len(lines))
		}
		flush()
	}
	return paged(c.Query, out, func(j map[string]any) any { return j })
}
