package gitlab

import (
	"context"
	"fmt"
	"regexp"

	gl "gitlab.com/gitlab-org/api/client-go"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// draftPrefix is a title prefix GitLab reads as "this is a draft": Draft:,
// [Draft], (Draft), "Draft - " and the older WIP forms.
var draftPrefix = regexp.MustCompile(`(?i)^\s*(?:\[draft\]|\(draft\)|draft\s*-\s|draft:|\[wip\]|wip:)\s*`)

// UpdatePullRequest edits a merge request with one PUT: title and
// description, state_event close or reopen, target_branch, and the
// reviewers asked for added to those it has (reviewer_ids replaces the
// list). GitLab keeps a draft as a title prefix, so the merge request is
// read first: marking it ready drops the prefix, and a new title for a
// draft keeps it.
func (p *Provider) UpdatePullRequest(ctx context.Context, _ toolserver.Call, req *gatewayv1.UpdatePullRequestRequest) (*forgev1.PullRequest, error) {
	repo, n, err := target(req.GetRepo(), req.GetPullNumber(), "merge request")
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("update merge request %s!%d", repo, n), func(ro gl.RequestOptionFunc) (*forgev1.PullRequest, error) {
		mr, resp, err := p.author.MergeRequests.GetMergeRequest(repo.String(), n, nil, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		if mr.State == "merged" {
			return nil, toolserver.FailedPrecondition("merge request !%d in %s is merged: it can no longer be changed", n, repo)
		}
		in := &gl.UpdateMergeRequestOptions{}
		draft := mr.Draft || draftPrefix.MatchString(mr.Title)
		switch {
		case req.GetReady() && draft:
			in.Title = ptr(draftPrefix.ReplaceAllString(cmpOr(req.Title, mr.Title), ""))
		case req.Title != nil && draft:
			in.Title = ptr("Draft: " + draftPrefix.ReplaceAllString(req.GetTitle(), ""))
		case req.Title != nil:
			in.Title = req.Title
		}
		in.Description = req.Body
		in.TargetBranch = req.BaseRef
		switch req.GetState() {
		case gatewayv1.PullRequestState_PULL_REQUEST_STATE_CLOSED:
			in.StateEvent = ptr("close")
		case gatewayv1.PullRequestState_PULL_REQUEST_STATE_OPEN:
			in.StateEvent = ptr("reopen")
		}
		if len(req.GetReviewers()) > 0 {
			ids, err := p.userIDs(req.GetReviewers(), ro)
			if err != nil {
				return nil, err
			}
			all := make([]int64, 0, len(mr.Reviewers)+len(ids))
			seen := map[int64]bool{}
			for _, u := range mr.Reviewers {
				all, seen[u.ID] = append(all, u.ID), true
			}
			for _, id := range ids {
				if !seen[id] {
					all, seen[id] = append(all, id), true
				}
			}
			in.ReviewerIDs = &all
		}
		out, resp, err := p.author.MergeRequests.UpdateMergeRequest(repo.String(), n, in, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		return p.basicMR(repo, &out.BasicMergeRequest), nil
	})
}

// cmpOr is *s, or def when s is nil.
func cmpOr(s *string, def string) string {
	if s != nil {
		return *s
	}
	return def
}
