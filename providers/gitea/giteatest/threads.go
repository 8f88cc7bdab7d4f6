package giteatest

import (
	"net/http"
	"strings"

	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

// Gitea 1.27's review-conversation endpoints (its swagger:
// repoCreatePullReviewCommentReply, repoResolvePullReviewComment,
// repoUnresolvePullReviewComment). A reply joins the review of the
// comment it answers, at the same line, as Gitea's code comments do; a
// resolve is addressed by the comment id alone, within the repository.
// Forgejo serves neither.

// reviewComment finds comment id among pull request it's reviews.
func reviewComment(it *forgemodel.Item, id int64) (*forgemodel.Review, *forgemodel.ReviewComment) {
	for _, v := range it.Pull.Reviews {
		for _, rc := range v.Comments {
			if rc.ID == id {
				return v, rc
			}
		}
	}
	return nil, nil
}

// replyToReviewComment is POST .../pulls/{index}/comments/{id}/replies:
// 404 for a comment not on this pull request, 422 for a blank body.
func (s *Server) replyToReviewComment(c *call, it *forgemodel.Item) answer {
	v, rc := reviewComment(it, c.Int("id"))
	if rc == nil || s.forgejo {
		return s.notFound()
	}
	var in struct {
		Body string `json:"body"`
	}
	if !forgefake.Decode(c.Body, &in) || strings.TrimSpace(in.Body) == "" {
		return s.apiError(http.StatusUnprocessableEntity, "[Body]: Required")
	}
	reply := &forgemodel.ReviewComment{ID: s.ID(), Path: rc.Path, NewLine: rc.NewLine, OldLine: rc.OldLine, Body: in.Body, Author: c.login}
	v.Comments = append(v.Comments, reply)
	s.User(c.login)
	return created(s.reviewCommentJSON(c.r, it, v, reply))
}

// resolveReviewComment is POST .../pulls/comments/{id}/resolve (or
// unresolve): 404 for a comment of no pull request of this repository,
// 204 otherwise.
func (s *Server) resolveReviewComment(c *call, resolved bool) answer {
	if s.forgejo {
		return s.notFound()
	}
	for _, it := range c.r.Items {
		if it.Pull == nil {
			continue
		}
		if _, rc := reviewComment(it, c.Int("id")); rc != nil {
			rc.Resolver = ""
			if resolved {
				rc.Resolver = c.login
			}
			return answer{Status: http.StatusNoContent}
		}
	}
	return s.notFound()
}
