package giteatest

import (
	"net/http"
	"slices"
	"strings"

	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

// editPull is PATCH .../pulls/N (EditPullRequestOption): title when not
// empty, body, base (which must exist, 404 NewBaseBranchNotExist as Gitea
// answers), state open or closed (412 on a merged one; 409 reopening
// beside another open pull request of the same branches).
func (s *Server) editPull(c *call, it *forgemodel.Item) answer {
	var in struct {
		Title string  `json:"title"`
		Body  *string `json:"body"`
		Base  string  `json:"base"`
		State *string `json:"state"`
	}
	if !forgefake.Decode(c.Body, &in) {
		return s.apiError(http.StatusUnprocessableEntity, "invalid JSON")
	}
	p, rp := it.Pull, c.r
	if in.State != nil && *in.State != it.State && p.Merged {
		return s.apiError(http.StatusPreconditionFailed, "cannot change state of this pull request, it was already merged")
	}
	base := p.Base
	if in.Base != "" && in.Base != p.Base {
		if _, found := rp.Branches[in.Base]; !found {
			return s.apiError(http.StatusNotFound, "NewBaseBranchNotExist")
		}
		base = in.Base
	}
	state := it.State
	if in.State != nil {
		state = *in.State
	}
	if state == "open" && (it.State != "open" || base != p.Base) {
		for _, o := range rp.Items {
			if o != it && o.Pull != nil && o.State == "open" && o.Pull.Head == p.Head && o.Pull.Base == base {
				return s.apiError(http.StatusConflict, "pull request already exists for these targets")
			}
		}
	}
	if in.Title != "" {
		it.Title = in.Title
	}
	if in.Body != nil {
		it.Body = *in.Body
	}
	p.Base = base
	it.Updated = s.Tick()
	if state != it.State {
		it.State = state
		if state == "closed" {
			it.Closed = &it.Updated
		} else {
			it.Closed = nil
		}
	}
	return created(s.pullJSON(rp, it))
}

// requestReviewers is POST .../pulls/N/requested_reviewers
// (PullReviewRequestOptions): 422 for a login that is no user, else 201
// with a REQUEST_REVIEW review per reviewer.
func (s *Server) requestReviewers(c *call, it *forgemodel.Item) answer {
	var in struct {
		Reviewers []string `json:"reviewers"`
	}
	if !forgefake.Decode(c.Body, &in) {
		return s.apiError(http.StatusUnprocessableEntity, "invalid JSON")
	}
	for _, r := range in.Reviewers {
		if !s.KnownUser(r) {
			return s.apiError(http.StatusUnprocessableEntity, "user does not exist [uid: 0, name: "+r+"]")
		}
	}
	out := []any{}
	for _, r := range in.Reviewers {
		if !slices.Contains(it.Pull.Requested, r) {
			it.Pull.Requested = append(it.Pull.Requested, r)
		}
		out = append(out, s.reviewJSON(c.r, it, &forgemodel.Review{ID: s.ID(), Author: r, State: "REQUEST_REVIEW", Created: s.Now()}))
	}
	return created(out)
}

// workInProgress is Gitea's reading of a title under its default
// WORK_IN_PROGRESS_PREFIXES: the pull request is a draft ("draft": true)
// and cannot be merged.
func workInProgress(title string) bool {
	t := strings.ToUpper(title)
	return strings.HasPrefix(t, "WIP:") || strings.HasPrefix(t, "[WIP]")
}
