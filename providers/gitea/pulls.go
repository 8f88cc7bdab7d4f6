package gitea

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	sdk "code.gitea.io/sdk/gitea"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/handler"
	"github.com/forgetools/forgetools/internal/shown"
)

// GetPullRequest reads a pull request with its reviews (each with its
// inline comments), its conversation comments and its head commit's
// combined status.
func (p *Provider) GetPullRequest(ctx context.Context, _ handler.Call, req *gatewayv1.GetPullRequestRequest) (*forgev1.PullRequest, error) {
	repo, n, err := p.target(req.GetRepo(), req.GetPullNumber(), "pull request")
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("get pull request %s#%d", repo, n), func(c *sdk.Client) (*forgev1.PullRequest, error) {
		pr, resp, err := c.GetPullRequest(repo.owner, repo.name, n)
		if err != nil {
			return nil, fail(resp, err)
		}
		rs, err := firstPage(shown.PullReviews, func(o sdk.ListOptions) ([]*sdk.PullReview, *sdk.Response, error) {
			return c.ListPullReviews(repo.owner, repo.name, n, sdk.ListPullReviewsOptions{ListOptions: o})
		})
		if err != nil {
			return nil, err
		}
		out := p.pullRequest(repo, pr)
		out.ReviewsTotal = rs.total(0)
		for _, r := range rs.items {
			if r.State == sdk.ReviewStatePending || r.State == sdk.ReviewStateRequestReview {
				// A pending review is a draft only its author sees; a
				// review request is not a review.
				continue
			}
			var inline []*sdk.PullReviewComment
			if r.CodeCommentsCount > 0 {
				inline, resp, err = c.ListPullReviewComments(repo.owner, repo.name, n, r.ID)
				if err != nil {
					return nil, fail(resp, err)
				}
			}
			out.Reviews = append(out.Reviews, review(r, inline))
		}
		conversation, err := firstPage(shown.PullComments, func(o sdk.ListOptions) ([]*sdk.Comment, *sdk.Response, error) {
			return c.ListIssueComments(repo.owner, repo.name, n, sdk.ListIssueCommentOptions{ListOptions: o})
		})
		if err != nil {
			return nil, err
		}
		out.Comments = issueComments(conversation.items)
		out.CommentsTotal = conversation.total(0)
		out.ChecksState = p.checks(ctx, c, repo, out.GetHeadSha())
		return out, nil
	})
}

// checks is the head commit's roll-up, or "" when it cannot be had: a
// pull request is still worth reading without it.
func (p *Provider) checks(ctx context.Context, c *sdk.Client, repo repoName, sha string) string {
	if sha == "" {
		return ""
	}
	st, resp, err := c.GetCombinedStatus(repo.owner, repo.name, sha)
	if err != nil {
		p.log.DebugContext(ctx, "gitea: no commit status for pull request head", "host", p.host, "repo", repo.String(),
			"code", p.mapError("status", fail(resp, err)).Code.String())
		return ""
	}
	return checksState(st)
}

// ListPullRequests lists pull requests, newest first. Gitea's list has no
// head or base filter: pages are read and filtered until `limit` match or
// the listing (or the page limit) ends.
func (p *Provider) ListPullRequests(ctx context.Context, _ handler.Call, req *gatewayv1.ListPullRequestsRequest) (*forgev1.PullRequestList, error) {
	repo, err := p.parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	limit := int(req.GetLimit())
	if limit == 0 {
		limit = defaultListLimit
	}
	state := sdk.StateOpen
	switch req.GetState() {
	case gatewayv1.PullRequestStateFilter_PULL_REQUEST_STATE_FILTER_CLOSED:
		state = sdk.StateClosed
	case gatewayv1.PullRequestStateFilter_PULL_REQUEST_STATE_FILTER_ALL:
		state = sdk.StateAll
	}
	filtered := req.GetBase() != "" || req.GetHead() != ""
	opt := sdk.ListPullRequestsOptions{ListOptions: sdk.ListOptions{Page: 1, PageSize: pageSize}, State: state}
	if !filtered {
		opt.PageSize = min(limit, pageSize)
	}
	return call(ctx, p, "list pull requests in "+repo.String(), func(c *sdk.Client) (*forgev1.PullRequestList, error) {
		list := &forgev1.PullRequestList{}
		for range pageLimit {
			page, resp, err := c.ListRepoPullRequests(repo.owner, repo.name, opt)
			if err != nil {
				return nil, fail(resp, err)
			}
			for _, pr := range page {
				if (req.GetBase() != "" && (pr.Base == nil || pr.Base.Ref != req.GetBase())) ||
					(req.GetHead() != "" && (pr.Head == nil || pr.Head.Ref != req.GetHead())) {
					continue
				}
				list.PullRequests = append(list.PullRequests, p.pullRequest(repo, pr))
				if len(list.PullRequests) == limit {
					return list, nil
				}
			}
			if len(page) < opt.PageSize {
				break
			}
			opt.Page++
		}
		return list, nil
	})
}

// CreatePullRequest opens a pull request from an already pushed head. An
// omitted base is the repository's default branch, looked up first. Gitea
// has no draft flag: a draft is a title starting "WIP:", which is how
// Gitea (and Forgejo) mark one.
func (p *Provider) CreatePullRequest(ctx context.Context, _ handler.Call, req *gatewayv1.CreatePullRequestRequest) (*forgev1.PullRequest, error) {
	repo, err := p.parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	title := req.GetTitle()
	if req.GetDraft() && !hasDraftPrefix(title) {
		title = "WIP: " + title
	}
	return call(ctx, p, "create pull request in "+repo.String(), func(c *sdk.Client) (*forgev1.PullRequest, error) {
		base := req.GetBaseRef()
		if base == "" {
			r, resp, err := c.GetRepo(repo.owner, repo.name)
			if err != nil {
				return nil, fail(resp, err)
			}
			if base = r.DefaultBranch; base == "" || r.Empty {
				return nil, handler.Errorf(codePrecondition, "%s has no default branch (is it empty?); give base_ref", repo)
			}
		}
		pr, resp, err := c.CreatePullRequest(repo.owner, repo.name, sdk.CreatePullRequestOption{
			Head: req.GetHeadRef(), Base: base, Title: title, Body: req.GetBody(),
		})
		if err != nil {
			return nil, fail(resp, err)
		}
		return p.pullRequest(repo, pr), nil
	})
}

func hasDraftPrefix(title string) bool {
	t := strings.ToUpper(strings.TrimSpace(title))
	return strings.HasPrefix(t, "WIP:") || strings.HasPrefix(t, "[WIP]")
}

// CommentOnPullRequest posts a conversation comment (Gitea stores those as
// issue comments), not a review.
func (p *Provider) CommentOnPullRequest(ctx context.Context, _ handler.Call, req *gatewayv1.CommentOnPullRequestRequest) (*forgev1.CommentRef, error) {
	return p.comment(ctx, "pull request", req.GetRepo(), req.GetPullNumber(), req.GetBody())
}

var mergeStyles = map[gatewayv1.MergeMethod]sdk.MergeStyle{
	gatewayv1.MergeMethod_MERGE_METHOD_UNSPECIFIED: sdk.MergeStyleMerge,
	gatewayv1.MergeMethod_MERGE_METHOD_MERGE:       sdk.MergeStyleMerge,
	gatewayv1.MergeMethod_MERGE_METHOD_SQUASH:      sdk.MergeStyleSquash,
	gatewayv1.MergeMethod_MERGE_METHOD_REBASE:      sdk.MergeStyleRebase,
}

// MergePullRequest merges with head_commit_id set to the head the agent
// reviewed: Gitea refuses (409) when the head has moved since, so a push
// after the review is never merged unread. The merge commit is read back
// from the merged pull request.
func (p *Provider) MergePullRequest(ctx context.Context, _ handler.Call, req *gatewayv1.MergePullRequestRequest) (*forgev1.MergeResult, error) {
	repo, n, err := p.target(req.GetRepo(), req.GetPullNumber(), "pull request")
	if err != nil {
		return nil, err
	}
	style, ok := mergeStyles[req.GetMethod()]
	if !ok {
		return nil, handler.Errorf(codeInvalid, "merge method %s is not merge, squash or rebase", req.GetMethod())
	}
	return call(ctx, p, fmt.Sprintf("merge pull request %s#%d", repo, n), func(c *sdk.Client) (*forgev1.MergeResult, error) {
		// Gitea answers a stale head_commit_id 409 on the merge itself,
		// but an older instance ignores the field: compare first too.
		pr, resp, err := c.GetPullRequest(repo.owner, repo.name, n)
		if err != nil {
			return nil, fail(resp, err)
		}
		if err := headMatches(pr, req.GetExpectedHeadSha(), repo, n); err != nil {
			return nil, err
		}
		merged, resp, err := c.MergePullRequest(repo.owner, repo.name, n, sdk.MergePullRequestOption{
			Style: style, HeadCommitId: pr.Head.Sha,
		})
		if err != nil {
			return nil, fail(resp, err)
		}
		if !merged {
			return nil, p.mergeRefused(resp, repo, n)
		}
		pr, resp, err = c.GetPullRequest(repo.owner, repo.name, n)
		if err != nil {
			return nil, fail(resp, err)
		}
		out := &forgev1.MergeResult{
			Forge: p.Ref(), Repo: repo.String(), Number: uint64(n), Method: string(style), Url: pr.HTMLURL,
		}
		if pr.MergedCommitID != nil {
			out.Sha = *pr.MergedCommitID
		}
		return out, nil
	})
}

// headMatches compares the pull request's head with the sha the agent
// reviewed (a prefix of at least 7 hex digits, any case).
func headMatches(pr *sdk.PullRequest, expected string, repo repoName, n int64) error {
	head := ""
	if pr.Head != nil {
		head = pr.Head.Sha
	}
	switch {
	case pr.HasMerged:
		return handler.Errorf(codePrecondition, "pull request %s#%d is already merged", repo, n)
	case pr.State != sdk.StateOpen:
		return handler.Errorf(codePrecondition, "pull request %s#%d is closed", repo, n)
	case head == "" || !strings.HasPrefix(strings.ToLower(head), strings.ToLower(expected)):
		return handler.Errorf(codePrecondition,
			"the head of %s#%d is %s, not %s: it moved since you read it; nothing was merged, read it again and decide", repo, n, head, expected)
	}
	return nil
}

// mergeRefused words a merge Gitea refused. The SDK reads only the
// status of a merge answer, so the reason is the status's documented
// meaning.
func (p *Provider) mergeRefused(resp *sdk.Response, repo repoName, n int64) error {
	status := 0
	if resp != nil {
		status = resp.StatusCode
	}
	name := p.flavor.Name()
	switch status {
	case http.StatusMethodNotAllowed:
		return handler.Errorf(codePrecondition,
			"%s answered 405: %s#%d cannot be merged now (conflicts, failing required checks, missing approvals, or a merge style the repository does not allow); nothing was merged", name, repo, n)
	case http.StatusConflict:
		return handler.Errorf(codePrecondition,
			"%s answered 409: the head of %s#%d moved since you read it; nothing was merged, read it again and decide", name, repo, n)
	}
	return p.mapError("merge", fail(resp, errors.New(http.StatusText(status))))
}

var reviewEvents = map[gatewayv1.Verdict]sdk.ReviewStateType{
	gatewayv1.Verdict_VERDICT_APPROVE:         sdk.ReviewStateApproved,
	gatewayv1.Verdict_VERDICT_REQUEST_CHANGES: sdk.ReviewStateRequestChanges,
	gatewayv1.Verdict_VERDICT_COMMENT:         sdk.ReviewStateComment,
}

// SubmitReview posts a review in one request with its verdict as the event
// (Gitea's vocabulary: APPROVED, REQUEST_CHANGES, COMMENT), so it is
// submitted at once, never left pending. It uses the reviewer credential
// when one is configured: Gitea refuses a verdict on your own pull request.
func (p *Provider) SubmitReview(ctx context.Context, _ handler.Call, req *gatewayv1.SubmitReviewRequest) (*forgev1.ReviewRef, error) {
	repo, n, err := p.target(req.GetRepo(), req.GetPullNumber(), "pull request")
	if err != nil {
		return nil, err
	}
	event, ok := reviewEvents[req.GetVerdict()]
	if !ok {
		return nil, handler.Errorf(codeInvalid, "verdict %s is not approve, request_changes or comment", req.GetVerdict())
	}
	in := sdk.CreatePullReviewOptions{State: event, Body: req.GetBody()}
	for i, c := range req.GetComments() {
		line, err := number(c.GetLine(), fmt.Sprintf("comments[%d]: line", i))
		if err != nil {
			return nil, err
		}
		rc := sdk.CreatePullReviewComment{Path: c.GetPath(), Body: c.GetBody(), NewLineNum: line}
		if c.GetSide() == gatewayv1.Side_SIDE_LEFT {
			rc.NewLineNum, rc.OldLineNum = 0, line
		}
		in.Comments = append(in.Comments, rc)
	}
	return callAs(ctx, p, p.reviewer, fmt.Sprintf("review pull request %s#%d", repo, n), func(c *sdk.Client) (*forgev1.ReviewRef, error) {
		r, resp, err := c.CreatePullReview(repo.owner, repo.name, n, in)
		if err != nil {
			return nil, fail(resp, err)
		}
		if r.State == sdk.ReviewStatePending {
			return nil, handler.Errorf(codeInternal, "%s left review %d pending instead of submitting it", p.flavor.Name(), r.ID)
		}
		return &forgev1.ReviewRef{
			Forge: p.Ref(), Repo: repo.String(), Number: uint64(n),
			ReviewId: strconv.FormatInt(r.ID, 10), Verdict: verdict(r.State), Url: r.HTMLURL,
		}, nil
	})
}
