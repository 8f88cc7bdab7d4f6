package giteatest

import (
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// getPull is GET .../pulls/{index}: the pull request, or with the
// ".diff" suffix Gitea's pulls/{index}.{diffType} route, its diff as
// text/plain (git's format; the fake diffs the base branch's files
// against the head's).
func (s *Server) getPull(c *call) answer {
	index, isDiff := strings.CutSuffix(c.Value("index"), ".diff")
	n, err := strconv.ParseInt(index, 10, 64)
	it := c.r.Issue(n)
	if err != nil || it == nil || it.Pull == nil {
		return s.notFound()
	}
	if !isDiff {
		return ok(s.pullJSON(c.r, it))
	}
	return answer{Status: http.StatusOK, Raw: []byte(forgemodel.GitDiff(c.r.Diff(it.Pull.Base, it.Pull.Head)))}
}

// compare is GET .../compare/{base}...{head}: the commits on head's
// files that differ from base's, each with the files it last touched
// (the fake keeps the commit that last touched each file, not a history).
func (s *Server) compare(c *call) answer {
	base, head, found := strings.Cut(c.Value("basehead"), "...")
	from, to := c.r.BranchAt(base), c.r.BranchAt(head)
	if !found || from == "" || to == "" {
		return s.notFound()
	}
	touched := map[string][]any{}
	for _, d := range c.r.Diff(from, to) {
		// A write that kept no last commit for the file is the head's.
		sha := fakeOr(c.r.LastCommit[to][d.Path], c.r.Branches[to])
		if sha == c.r.LastCommit[from][d.Path] || d.Deleted && c.r.LastCommit[to][d.Path] == "" {
			continue
		}
		status := "modified"
		switch {
		case d.Added:
			status = "added"
		case d.Deleted:
			status = "removed"
		}
		touched[sha] = append(touched[sha], map[string]any{"filename": d.Path, "status": status})
	}
	commits := []any{}
	for _, sha := range slices.Sorted(maps.Keys(touched)) {
		at := stamp(s.Tick())
		commits = append(commits, map[string]any{
			"url": s.api("/repos/%s/git/commits/%s", c.r.Path, sha), "sha": sha, "created": at,
			"html_url": s.web("/%s/commit/%s", c.r.Path, sha),
			"commit": map[string]any{
				"url": s.api("/repos/%s/git/commits/%s", c.r.Path, sha), "message": "Commit " + sha[:8] + "\n",
				"author":    map[string]any{"name": "forgetools-bot", "email": "bot@example.com", "date": at},
				"committer": map[string]any{"name": "forgetools-bot", "email": "bot@example.com", "date": at},
				"tree":      map[string]any{"sha": c.r.TreeID(to, ""), "url": s.api("/repos/%s/git/trees/%s", c.r.Path, c.r.TreeID(to, ""))},
			},
			"author": s.userJSON("forgetools-bot"), "committer": s.userJSON("forgetools-bot"), "parents": []any{},
			"files": touched[sha], "stats": map[string]any{"total": 0, "additions": 0, "deletions": 0},
		})
	}
	return ok(map[string]any{"total_commits": len(commits), "commits": commits})
}
