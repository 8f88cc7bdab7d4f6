package github

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	gh "github.com/google/go-github/v84/github"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// UpdatePullRequest edits a pull request the way GitHub splits it:
// reviewers through POST .../pulls/{n}/requested_reviewers (which adds
// to those asked), draft to ready through GraphQL's
// markPullRequestReadyForReview (REST cannot change draft), and title,
// body, state and base through one PATCH .../pulls/{n}. The pull request
// is read first (a merged one is refused, and the mutation needs its node
// id); reviewers go first, so a login GitHub refuses leaves the pull
// request as it was.
func (p *Provider) UpdatePullRequest(ctx context.Context, _ toolserver.Call, req *gatewayv1.UpdatePullRequestRequest) (*forgev1.PullRequest, error) {
	repo, n, err := parseNumbered(req.GetRepo(), req.GetPullNumber(), "pull request")
	if err != nil {
		return nil, err
	}
	closing := req.GetState() == gatewayv1.PullRequestState_PULL_REQUEST_STATE_CLOSED
	if closing && req.BaseRef != nil {
		// GitHub refuses to change the base of a pull request being closed.
		return nil, toolserver.InvalidArgument("GitHub cannot change the base of a pull request it closes: change base_ref first, then close it")
	}
	what := fmt.Sprintf("update pull request %s#%d", repo, n)
	return call(ctx, p, what, func(ctx context.Context) (*forgev1.PullRequest, error) {
		pr, _, err := p.author.PullRequests.Get(ctx, repo.owner, repo.name, n)
		if err != nil {
			return nil, err
		}
		if pr.GetMerged() {
			return nil, toolserver.FailedPrecondition("pull request #%d in %s is merged: it can no longer be changed", n, repo)
		}
		if len(req.GetReviewers()) > 0 {
			var resp *gh.Response
			if pr, resp, err = p.author.PullRequests.RequestReviewers(ctx, repo.owner, repo.name, n, gh.ReviewersRequest{Reviewers: req.GetReviewers()}); err != nil {
				if resp != nil && resp.StatusCode == http.StatusUnprocessableEntity {
					return nil, toolserver.InvalidArgument("%s: GitHub refused to ask %s for review (422): each must be a collaborator on %s and not the pull request's author; nothing was changed",
						what, strings.Join(req.GetReviewers(), ", "), repo)
				}
				return nil, err
			}
		}
		if req.GetReady() && pr.GetDraft() {
			if err := p.markReady(ctx, what, pr.GetNodeID()); err != nil {
				return nil, err
			}
			pr.Draft = gh.Ptr(false)
		}
		edit := &gh.PullRequest{Title: req.Title, Body: req.Body}
		switch req.GetState() {
		case gatewayv1.PullRequestState_PULL_REQUEST_STATE_CLOSED:
			edit.State = gh.Ptr("closed")
		case gatewayv1.PullRequestState_PULL_REQUEST_STATE_OPEN:
			edit.State = gh.Ptr("open")
		}
		if req.BaseRef != nil {
			edit.Base = &gh.PullRequestBranch{Ref: req.BaseRef}
		}
		if edit.Title != nil || edit.Body != nil || edit.State != nil || edit.Base != nil {
			if pr, _, err = p.author.PullRequests.Edit(ctx, repo.owner, repo.name, n, edit); err != nil {
				return nil, err
			}
		}
		return p.pullRequest(repo, pr), nil
	})
}

const readyMutation = `mutation MarkPullRequestReady($pull: ID!) {
  markPullRequestReadyForReview(input: {pullRequestId: $pull}) { pullRequest { isDraft } }
}`

// markReady takes a draft pull request, by node id, out of draft.
func (p *Provider) markReady(ctx context.Context, what, node string) error {
	if node == "" {
		return toolserver.Unavailable("%s: GitHub's pull request has no node_id to mark it ready by", what)
	}
	var data struct {
		MarkPullRequestReadyForReview *struct {
			PullRequest *struct{ IsDraft bool }
		}
	}
	if err := p.mutate(ctx, what, readyMutation, map[string]any{"pull": node}, &data); err != nil {
		return err
	}
	if m := data.MarkPullRequestReadyForReview; m == nil || m.PullRequest == nil || m.PullRequest.IsDraft {
		return toolserver.Unavailable("%s: GitHub did not say the pull request is out of draft", what)
	}
	return nil
}
