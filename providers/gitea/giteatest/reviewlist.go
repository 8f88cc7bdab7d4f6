package giteatest

import "github.com/forgetools/forgetools/internal/forgemodel"

// listReviews is GET /repos/{owner}/{repo}/pulls/{index}/reviews as Gitea
// 1.27's ListPullReviews answers it (routers/api/v1/repo/pull_review.go):
// one page (page, limit) with X-Total-Count and no Link header, for a
// pull request only (an issue's number is 404, as none is).
func (s *Server) listReviews(c *call, it *forgemodel.Item) answer {
	a := paged(s, c, it.Pull.Reviews, func(v *forgemodel.Review) any { return s.reviewJSON(c.r, it, v) })
	a.Header.Del("Link")
	return a
}
