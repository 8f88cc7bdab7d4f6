package githubtest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

// Editing a pull request: PATCH /repos/{o}/{r}/pulls/{n} (title, body,
// state, base; draft is not REST's to change, as on GitHub) and
// POST .../pulls/{n}/requested_reviewers, which adds to those asked and
// refuses the pull request's author and a login with no role on the
// repository (422, with no body as GitHub's description documents it).
// Both answer the pull request.

const (
	docEditPull  = "https://docs.github.com/rest/pulls/pulls#update-a-pull-request"
	docReviewers = "https://docs.github.com/rest/pulls/review-requests#request-reviewers-for-a-pull-request"
)

func (s *Server) pullEditRoutes(rt *forgefake.Router) {
	onItem(rt, "PATCH /pulls/{n}", true, func(c *call, it *item) answer { return s.editPull(c.rp, it, c.login, c.Body) })
	onItem(rt, "POST /pulls/{n}/requested_reviewers", true, func(c *call, it *item) answer {
		return s.requestReviewers(c.rp, it, c.login, c.Body)
	})
}

func (s *Server) editPull(r *repo, it *item, login string, body []byte) answer {
	var in struct {
		Title *string `json:"title"`
		Body  *string `json:"body"`
		State *string `json:"state"`
		Base  *string `json:"base"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return errorAnswer(http.StatusBadRequest, "Problems parsing JSON", docEditPull, nil)
	}
	invalid := func(field string) answer {
		return errorAnswer(http.StatusUnprocessableEntity, "Validation Failed", docEditPull, []fieldError{{Resource: "PullRequest", Field: field, Code: "invalid"}})
	}
	switch {
	case in.State != nil && *in.State != "open" && *in.State != "closed":
		return invalid("state")
	case in.Title != nil && strings.TrimSpace(*in.Title) == "":
		return invalid("title")
	case in.Base != nil && !hasBranch(r, *in.Base):
		return invalid("base")
	case it.Pull.Merged && in.State != nil:
		return errorAnswer(http.StatusUnprocessableEntity, "Validation Failed", docEditPull, []fieldError{{Resource: "PullRequest", Code: "custom", Message: "Cannot change the state of a merged pull request."}})
	}
	if in.Title != nil {
		it.Title = *in.Title
	}
	if in.Body != nil {
		it.Body = *in.Body
	}
	if in.Base != nil {
		it.Pull.Base = *in.Base
	}
	now := s.Tick()
	action := "edited"
	if in.State != nil && *in.State != it.State {
		it.State, action = *in.State, "reopened"
		if it.State == "closed" {
			it.Closed, action = &now, "closed"
		} else {
			it.Closed = nil
		}
	}
	it.Updated = now
	s.itemEvent(r, it, action, login)
	return jsonAnswer(http.StatusOK, s.pullJSON(r, it))
}

func (s *Server) requestReviewers(r *repo, it *item, login string, body []byte) answer {
	var in struct {
		Reviewers []string `json:"reviewers"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return errorAnswer(http.StatusBadRequest, "Problems parsing JSON", docReviewers, nil)
	}
	for _, who := range in.Reviewers {
		if strings.EqualFold(who, it.Author) || role(r, who) == "none" || role(r, who) == "" {
			// GitHub's description documents this 422 with no body.
			return answer{Status: http.StatusUnprocessableEntity}
		}
	}
	for _, who := range in.Reviewers {
		if !slices.ContainsFunc(it.Pull.Requested, func(x string) bool { return strings.EqualFold(x, who) }) {
			it.Pull.Requested = append(it.Pull.Requested, who)
			s.User(who)
			s.itemEvent(r, it, "review_requested", login, "requested_reviewer", s.userJSON(who))
		}
	}
	it.Updated = s.Tick()
	return jsonAnswer(http.StatusCreated, s.pullListJSON(r, it))
}

// Requested is who pull request number of fullName asks for review.
func (s *Server) Requested(fullName string, number int) []string {
	s.Lock()
	defer s.Unlock()
	return slices.Clone(s.mustItem(fullName, number).Pull.Requested)
}
