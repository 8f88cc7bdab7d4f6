package gitea

import (
	"context"
	"fmt"
	"regexp"

	sdk "code.gitea.io/sdk/gitea"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// wipPrefix is the title prefix Gitea (and Forgejo) read as work in
// progress by default: "WIP:" or "[WIP]".
var wipPrefix = regexp.MustCompile(`(?i)^\s*(?:wip:|\[wip\])\s*`)

// UpdatePullRequest edits a pull request (PATCH pulls/{index}: title,
// body, base, state) and asks for reviews (POST
// pulls/{index}/requested_reviewers, which adds to those asked). A draft
// is a "WIP:" title, so the pull request is read first: ready drops the
// prefix, a new title for a draft keeps it. Reviewers are asked before
// the edit, so a login that is no user refuses the call with nothing
// changed.
func (p *Provider) UpdatePullRequest(ctx context.Context, _ toolserver.Call, req *gatewayv1.UpdatePullRequestRequest) (*forgev1.PullRequest, error) {
	repo, err := p.parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	n := int64(req.GetPullNumber())
	return call(ctx, p, fmt.Sprintf("update pull request %s#%d", repo, n), func(c *sdk.Client) (*forgev1.PullRequest, error) {
		pr, resp, err := c.GetPullRequest(repo.owner, repo.name, n)
		if err != nil {
			return nil, fail(resp, err)
		}
		if pr.HasMerged {
			return nil, toolserver.FailedPrecondition("pull request #%d in %s is merged: it can no longer be changed", n, repo)
		}
		if len(req.GetReviewers()) > 0 {
			if resp, err := c.CreateReviewRequests(repo.owner, repo.name, n, sdk.PullReviewRequestOptions{Reviewers: req.GetReviewers()}); err != nil {
				return nil, fail(resp, err)
			}
		}
		edit := sdk.EditPullRequestOption{Body: req.Body, Base: req.GetBaseRef()}
		draft := wipPrefix.MatchString(pr.Title)
		switch {
		case req.GetReady() && draft:
			edit.Title = wipPrefix.ReplaceAllString(cmpOr(req.Title, pr.Title), "")
		case req.Title != nil && draft:
			edit.Title = "WIP: " + wipPrefix.ReplaceAllString(req.GetTitle(), "")
		default:
			edit.Title = req.GetTitle()
		}
		switch req.GetState() {
		case gatewayv1.PullRequestState_PULL_REQUEST_STATE_CLOSED:
			edit.State = ptr(sdk.StateClosed)
		case gatewayv1.PullRequestState_PULL_REQUEST_STATE_OPEN:
			edit.State = ptr(sdk.StateOpen)
		}
		if edit.Title == "" && edit.Body == nil && edit.Base == "" && edit.State == nil {
			if pr, resp, err = c.GetPullRequest(repo.owner, repo.name, n); err != nil {
				return nil, fail(resp, err)
			}
			return p.pullRequest(repo, pr), nil
		}
		if pr, resp, err = c.EditPullRequest(repo.owner, repo.name, n, edit); err != nil {
			return nil, fail(resp, err)
		}
		return p.pullRequest(repo, pr), nil
	})
}

// cmpOr is *s, or def when s is nil.
func cmpOr(s *string, def string) string {
	if s != nil {
		return *s
	}
	return def
}
