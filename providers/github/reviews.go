package github

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	gh "github.com/google/go-github/v84/github"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// SubmitReview posts a review in one request, with its verdict as the event
// so it is submitted at once (a review without an event would be left
// pending, visible to nobody). It uses the reviewer credential when one is
// configured: GitHub refuses approve and request_changes from a pull
// request's author, and the author credential opens the agents' PRs.
func (p *Provider) SubmitReview(ctx context.Context, _ toolserver.Call, req *gatewayv1.SubmitReviewRequest) (*forgev1.ReviewRef, error) {
	repo, n, err := parseNumbered(req.GetRepo(), req.GetPullNumber(), "pull request")
	if err != nil {
		return nil, err
	}
	in, err := reviewRequest(req)
	if err != nil {
		return nil, err
	}
	what := fmt.Sprintf("review pull request %s#%d", repo, n)
	return call(ctx, p, what, func(ctx context.Context) (*forgev1.ReviewRef, error) {
		r, _, err := p.reviewer.PullRequests.CreateReview(ctx, repo.owner, repo.name, n, in)
		if err != nil {
			if e := p.outsideDiff(ctx, p.reviewer, repo, n, what, req.GetComments(), err); e != nil {
				return nil, e
			}
			return nil, err
		}
		if strings.EqualFold(r.GetState(), "PENDING") {
			return nil, toolserver.Internal("GitHub left review %d pending instead of submitting it", r.GetID())
		}
		return &forgev1.ReviewRef{
			Forge:    p.Ref(),
			Repo:     repo.String(),
			Number:   uint64(n),
			ReviewId: strconv.FormatInt(r.GetID(), 10),
			Verdict:  verdict(r.GetState()),
			Url:      r.GetHTMLURL(),
		}, nil
	})
}

var events = map[gatewayv1.Verdict]string{
	gatewayv1.Verdict_VERDICT_APPROVE:         "APPROVE",
	gatewayv1.Verdict_VERDICT_REQUEST_CHANGES: "REQUEST_CHANGES",
	gatewayv1.Verdict_VERDICT_COMMENT:         "COMMENT",
}

// reviewRequest is the create-review body: event, optional body, and inline
// comments anchored by line and side (GitHub's line-based form; a diff
// position is never sent).
func reviewRequest(req *gatewayv1.SubmitReviewRequest) (*gh.PullRequestReviewRequest, error) {
	event, ok := events[req.GetVerdict()]
	if !ok {
		return nil, toolserver.InvalidArgument("verdict %s is not approve, request_changes or comment", req.GetVerdict())
	}
	in := &gh.PullRequestReviewRequest{Event: gh.Ptr(event)}
	if req.GetBody() != "" {
		in.Body = gh.Ptr(req.GetBody())
	}
	for i, c := range req.GetComments() {
		line, err := number(c.GetLine(), fmt.Sprintf("comments[%d]: line", i))
		if err != nil {
			return nil, err
		}
		side := "RIGHT"
		if c.GetSide() == gatewayv1.Side_SIDE_LEFT {
			side = "LEFT"
		}
		in.Comments = append(in.Comments, &gh.DraftReviewComment{
			Path: gh.Ptr(c.GetPath()),
			Body: gh.Ptr(c.GetBody()),
			Line: gh.Ptr(line),
			Side: gh.Ptr(side),
		})
	}
	return in, nil
}
