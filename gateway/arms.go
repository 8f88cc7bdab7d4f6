package gateway

import (
	"context"
	"fmt"
	"strings"

	"github.com/forgetools/forgetools/gateway/attribution"
	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers"
	"google.golang.org/protobuf/proto"
)

// Capability nouns for unimplemented messages.
const (
	nounIssues        = providers.CapIssues
	nounPullRequests  = providers.CapPullRequests
	nounReviews       = providers.CapReviews
	nounNotifications = providers.CapNotifications
)

// run performs the arm on provider p (everything has been checked).
func (c *ForgeCaller) run(ctx context.Context, x *call, p providers.Provider) (*gatewayv1.ForgeCallResult, error) {
	ref := refOf(p)
	pc := providers.Call{Account: x.acct.Name, Session: x.id.Session}
	switch a := x.req.GetCall().(type) {
	case *gatewayv1.ForgeCallRequest_GetIssue:
		iss, err := need[providers.Issues](p, x, nounIssues)
		if err != nil {
			return nil, err
		}
		out, err := iss.GetIssue(ctx, pc, a.GetIssue)
		return wrap(out, err, func(i *forgev1.Issue) *gatewayv1.ForgeCallResult { return issueResult(readIssue(i, ref)) })

	case *gatewayv1.ForgeCallRequest_ListIssues:
		iss, err := need[providers.Issues](p, x, nounIssues)
		if err != nil {
			return nil, err
		}
		out, err := iss.ListIssues(ctx, pc, a.ListIssues)
		return wrap(out, err, func(l *forgev1.IssueList) *gatewayv1.ForgeCallResult {
			for _, i := range l.GetIssues() {
				readIssue(i, ref)
			}
			return &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_Issues{Issues: l}}
		})

	case *gatewayv1.ForgeCallRequest_GetPullRequest:
		prs, err := need[providers.PullRequests](p, x, nounPullRequests)
		if err != nil {
			return nil, err
		}
		out, err := prs.GetPullRequest(ctx, pc, a.GetPullRequest)
		return wrap(out, err, func(pr *forgev1.PullRequest) *gatewayv1.ForgeCallResult { return prResult(readPR(pr, ref)) })

	case *gatewayv1.ForgeCallRequest_CommentOnIssue:
		iss, err := need[providers.Issues](p, x, nounIssues)
		if err != nil {
			return nil, err
		}
		req := proto.Clone(a.CommentOnIssue).(*gatewayv1.CommentOnIssueRequest)
		if req.Body, err = c.stampRequired(x, "comment_on_issue.body", req.Body); err != nil {
			return nil, err
		}
		out, err := iss.CommentOnIssue(ctx, pc, req)
		return wrap(out, err, func(r *forgev1.CommentRef) *gatewayv1.ForgeCallResult {
			r.Forge = ref
			c.own(ctx, x, store.Artifact{Forge: store.ForgeOf(ref), Repo: x.repo, Kind: store.KindIssueComment, Number: req.IssueNumber, ID: r.CommentId}, r.Url)
			return &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_IssueComment{IssueComment: r}}
		})

	case *gatewayv1.ForgeCallRequest_CommentOnPullRequest:
		prs, err := need[providers.PullRequests](p, x, nounPullRequests)
		if err != nil {
			return nil, err
		}
		req := proto.Clone(a.CommentOnPullRequest).(*gatewayv1.CommentOnPullRequestRequest)
		if req.Body, err = c.stampRequired(x, "comment_on_pull_request.body", req.Body); err != nil {
			return nil, err
		}
		out, err := prs.CommentOnPullRequest(ctx, pc, req)
		return wrap(out, err, func(r *forgev1.CommentRef) *gatewayv1.ForgeCallResult {
			r.Forge = ref
			c.own(ctx, x, store.Artifact{Forge: store.ForgeOf(ref), Repo: x.repo, Kind: store.KindPRComment, Number: req.PullNumber, ID: r.CommentId}, r.Url)
			return &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_PrComment{PrComment: r}}
		})

	case *gatewayv1.ForgeCallRequest_SubmitReview:
		rv, err := need[providers.Reviews](p, x, nounReviews)
		if err != nil {
			return nil, err
		}
		req, err := c.stampReview(x, a.SubmitReview)
		if err != nil {
			return nil, err
		}
		out, err := rv.SubmitReview(ctx, pc, req)
		return wrap(out, err, func(r *forgev1.ReviewRef) *gatewayv1.ForgeCallResult {
			r.Forge = ref
			c.own(ctx, x, store.Artifact{Forge: store.ForgeOf(ref), Repo: x.repo, Kind: store.KindReview, Number: req.PullNumber, ID: r.ReviewId}, r.Url)
			return &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_Review{Review: r}}
		})

	case *gatewayv1.ForgeCallRequest_CreateIssue:
		return c.createIssue(ctx, x, p, ref, a.CreateIssue)
	case *gatewayv1.ForgeCallRequest_CreatePullRequest:
		return c.createPullRequest(ctx, x, p, ref, a.CreatePullRequest)
	case *gatewayv1.ForgeCallRequest_Subscribe:
		return c.subscribe(ctx, x, p, ref, a.Subscribe)
	}
	return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED, "the gateway does not implement %s", x.arm)
}

// wrap turns a provider's answer into a result; a nil answer without an
// error is the provider's bug, reported as internal.
func wrap[T proto.Message](out T, err error, result func(T) *gatewayv1.ForgeCallResult) (*gatewayv1.ForgeCallResult, error) {
	if err != nil {
		return nil, err
	}
	if !out.ProtoReflect().IsValid() {
		return nil, errNoResult
	}
	return result(out), nil
}

func issueResult(i *forgev1.Issue) *gatewayv1.ForgeCallResult {
	return &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_Issue{Issue: i}}
}

func prResult(pr *forgev1.PullRequest) *gatewayv1.ForgeCallResult {
	return &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_PullRequest{PullRequest: pr}}
}

// stampRequired stamps a body the agent must write (a comment). A body
// that was nothing but a header of its own is refused, rather than posted
// as a bare header.
func (c *ForgeCaller) stampRequired(x *call, field, body string) (string, error) {
	if strings.TrimSpace(attribution.Strip(body)) == "" {
		return "", refuse(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
			"%s is only an attribution header: write the text itself, the gateway adds the header", field)
	}
	return c.stamp(x, body)
}

// stampReview stamps the review body (even an approval's empty one, so the
// review carries its attribution) and removes agent-written headers from
// the inline comments, which are not stamped: they show under the review,
// and the wire has no attribution field for them.
func (c *ForgeCaller) stampReview(x *call, in *gatewayv1.SubmitReviewRequest) (*gatewayv1.SubmitReviewRequest, error) {
	req := proto.Clone(in).(*gatewayv1.SubmitReviewRequest)
	if req.Verdict != gatewayv1.Verdict_VERDICT_APPROVE && strings.TrimSpace(attribution.Strip(req.Body)) == "" {
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
			"submit_review.body is only an attribution header: write the review itself, the gateway adds the header")
	}
	var err error
	if req.Body, err = c.stamp(x, req.Body); err != nil {
		return nil, err
	}
	for i, cm := range req.Comments {
		cm.Body = attribution.Strip(cm.Body)
		if strings.TrimSpace(cm.Body) == "" {
			return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
				"submit_review.comments[%d].body is only an attribution header", i)
		}
	}
	return req, nil
}

// own records an artifact the call created. The artifact exists whatever
// happens here, so a failure is logged, not returned: failing the call
// would invite a retry that posts it twice.
func (c *ForgeCaller) own(ctx context.Context, x *call, a store.Artifact, url string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeGrace)
	defer cancel()
	err := c.store.RecordOwnership(ctx, ownership(x, a, url))
	if err != nil {
		c.log.ErrorContext(ctx, "ownership not recorded", "account", x.acct.Name, "tool", toolName(x.req),
			"repo", a.Repo, "number", a.Number, "cause", c.redact(fmt.Sprint(err)))
	}
}
