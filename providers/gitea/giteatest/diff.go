package giteatest

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// getPull is GET .../pulls/{index}: the pull request, or with the
// ".diff" suffix Gitea's pulls/{index}.{diffType} route, its diff as
// text/plain (git's format: the head from the merge base with the
// base, as Gitea diffs a pull request).
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
	return answer{Status: http.StatusOK, Raw: []byte(forgemodel.GitDiff(c.r.PullDiff(it.Pull)))}
}

// compare is GET .../compare/{base}...{head}: the commits head has that
// base has not, newest first as git log lists them, each in Gitea's
// Commit with its files.
func (s *Server) compare(c *call) answer {
	base, head, found := strings.Cut(c.Value("basehead"), "...")
	from, to := c.r.CommitAt(base), c.r.CommitAt(head)
	if !found || from == nil || to == nil {
		return s.notFound()
	}
	commits := []any{}
	for _, cm := range c.r.Ahead(from, to) {
		commits = append(commits, s.gitCommitJSON(c.r, cm, c.Query))
	}
	return ok(map[string]any{"total_commits": len(commits), "commits": commits})
}
