package gitea

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	sdk "code.gitea.io/sdk/gitea"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// GetPullRequest reads a pull request with its reviews (each with its
// inline comments), its conversation comments and its head commit's
// combined status.
func (p *Provider) GetPullRequest(ctx context.Context, _ toolserver.Call, req *gatewayv1.GetPullRequestRequest) (*forgev1.PullRequest, error) {
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

// ListPullRequests lists pull requests, newest first, the page the cursor
// names. Gitea's list has no head or base filter: the page is filtered
// here, and may show fewer than it read.
func (p *Provider) ListPullRequests(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListPullRequestsRequest) (*forgev1.PullRequestList, error) {
	repo, err := p.parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	cur := kit.CursorsFor("forge_list_pull_requests", req)
	page, err := listPage(cur, req.GetCursor(), req.GetLimit())
	if err != nil {
		return nil, err
	}
	state := sdk.StateOpen
	switch req.GetState() {
	case gatewayv1.PullRequestStateFilter_PULL_REQUEST_STATE_FILTER_CLOSED:
		state = sdk.StateClosed
	case gatewayv1.PullRequestStateFilter_PULL_REQUEST_STATE_FILTER_ALL:
		state = sdk.StateAll
	}
	opt := sdk.ListPullRequestsOptions{ListOptions: page, State: state}
	return call(ctx, p, "list pull requests in "+repo.String(), func(c *sdk.Client) (*forgev1.PullRequestList, error) {
		prs, resp, err := c.ListRepoPullRequests(repo.owner, repo.name, opt)
		if err != nil {
			return nil, fail(resp, err)
		}
		list := &forgev1.PullRequestList{NextCursor: nextCursor(cur, opt.ListOptions, len(prs), resp)}
		for _, pr := range prs[:min(len(prs), opt.PageSize)] {
			if (req.GetBase() == "" || pr.Base != nil && pr.Base.Ref == req.GetBase()) &&
				(req.GetHead() == "" || pr.Head != nil && pr.Head.Ref == req.GetHead()) {
				list.PullRequests = append(list.PullRequests, p.pullRequest(repo, pr))
			}
		}
		return list, nil
	})
}

// CreatePullRequest opens a pull request from an already pushed head. An
// omitted base is the repository's default branch, looked up first. Gitea
// has no draft flag: a draft is a title starting "WIP:", which is how
// Gitea (and Forgejo) mark one.
func (p *Provider) CreatePullRequest(ctx context.Context, _ toolserver.Call, req *gatewayv1.CreatePullRequestRequest) (*forgev1.PullRequest, error) {
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
				return nil, toolserver.FailedPrecondition("%s has no default branch (is it empty?); give base_ref", repo)
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
func (p *Provider) CommentOnPullRequest(ctx context.Context, _ toolserver.Call, req *gatewayv1.CommentOnPullRequestRequest) (*forgev1.CommentRef, error) {
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
func (p *Provider) MergePullRequest(ctx context.Context, _ toolserver.Call, req *gatewayv1.MergePullRequestRequest) (*forgev1.MergeResult, error) {
	repo, n, err := p.target(req.GetRepo(), req.GetPullNumber(), "pull request")
	if err != nil {
		return nil, err
	}
	style, ok := mergeStyles[req.GetMethod()]
	if !ok {
		return nil, toolserver.InvalidArgument("merge method %s is not merge, squash or rebase", req.GetMethod())
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
		// Sent as Gitea documents it, not through the SDK, which keeps
		// only the status of a refusal and so loses Gitea's reason ("Work
		// in progress PRs cannot be merged").
		mresp, err := p.send(ctx, p.token, http.MethodPost, repoPath(repo, "pulls", n, "merge"),
			sdk.MergePullRequestOption{Style: style, HeadCommitId: pr.Head.Sha}, nil)
		if err != nil {
			if mresp != nil && (mresp.StatusCode == http.StatusMethodNotAllowed || mresp.StatusCode == http.StatusConflict) {
				return nil, p.mergeRefused(mresp.StatusCode, detail(err), repo, n)
			}
			return nil, err
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
		return toolserver.FailedPrecondition("pull request %s#%d is already merged", repo, n)
	case pr.State != sdk.StateOpen:
		return toolserver.FailedPrecondition("pull request %s#%d is closed", repo, n)
	case head == "" || !strings.HasPrefix(strings.ToLower(head), strings.ToLower(expected)):
		return toolserver.FailedPrecondition("the head of %s#%d is %s, not %s: it moved since you read it; nothing was merged, read it again and decide", repo, n, head, expected)
	}
	return nil
}

// mergeRefused words a merge Gitea refused with status and its reason.
func (p *Provider) mergeRefused(status int, reason string, repo repoName, n int64) error {
	name := p.flavor.Name()
	if status == http.StatusConflict {
		return toolserver.FailedPrecondition("%s answered 409 (%s): the head of %s#%d moved since you read it, or it conflicts; nothing was merged, read it again and decide", name, reason, repo, n)
	}
	return toolserver.FailedPrecondition("%s refused to merge %s#%d: %s; nothing was merged", name, repo, n, reason)
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
func (p *Provider) SubmitReview(ctx context.Context, _ toolserver.Call, req *gatewayv1.SubmitReviewRequest) (*forgev1.ReviewRef, error) {
	repo, n, err := p.target(req.GetRepo(), req.GetPullNumber(), "pull request")
	if err != nil {
		return nil, err
	}
	event, ok := reviewEvents[req.GetVerdict()]
	if !ok {
		return nil, toolserver.InvalidArgument("verdict %s is not approve, request_changes or comment", req.GetVerdict())
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
		if err := p.commentLinesExist(c, repo, n, req.GetComments()); err != nil {
			return nil, err
		}
		pending, err := p.pendingReviews(c, repo, n)
		if err != nil {
			return nil, err
		}
		r, resp, err := c.CreatePullReview(repo.owner, repo.name, n, in)
		if err != nil {
			// A review that fails part way (Gitea answers 500 for a
			// comment it cannot place) leaves a PENDING review holding
			// the comments that landed, which the reviewer's next verdict
			// would submit: remove what this call left.
			p.dropNewPending(ctx, c, repo, n, pending)
			return nil, fail(resp, err)
		}
		if r.State == sdk.ReviewStatePending {
			return nil, toolserver.Internal("%s left review %d pending instead of submitting it", p.flavor.Name(), r.ID)
		}
		return &forgev1.ReviewRef{
			Forge: p.Ref(), Repo: repo.String(), Number: uint64(n),
			ReviewId: strconv.FormatInt(r.ID, 10), Verdict: verdict(r.State), Url: r.HTMLURL,
		}, nil
	})
}

// commentLinesExist refuses an inline comment on a line its file does not
// have (at the head for the right side, at the merge base for the left),
// which Gitea answers 500 part way through a review.
func (p *Provider) commentLinesExist(c *sdk.Client, repo repoName, n int64, comments []*gatewayv1.ReviewCommentInput) error {
	if len(comments) == 0 {
		return nil
	}
	pr, resp, err := c.GetPullRequest(repo.owner, repo.name, n)
	if err != nil {
		return fail(resp, err)
	}
	lines := map[[2]string]int{}
	for i, cm := range comments {
		ref, at := "", "the head"
		if pr.Head != nil {
			ref = pr.Head.Sha
		}
		if cm.GetSide() == gatewayv1.Side_SIDE_LEFT {
			ref, at = pr.MergeBase, "the base"
		}
		if ref == "" {
			continue // nothing to count against; Gitea decides
		}
		key := [2]string{ref, cm.GetPath()}
		count, ok := lines[key]
		if !ok {
			raw, resp, err := c.GetFile(repo.owner, repo.name, ref, cm.GetPath())
			if err != nil {
				if resp != nil && resp.StatusCode == http.StatusNotFound {
					return toolserver.InvalidArgument("comments[%d]: %s does not exist at %s of PR #%d; nothing was submitted", i, cm.GetPath(), at, n)
				}
				return fail(resp, err)
			}
			count = lineCount(raw)
			lines[key] = count
		}
		if int(cm.GetLine()) > count {
			return toolserver.InvalidArgument("comments[%d]: %s has %d lines at %s of PR #%d, so line %d is past its end; nothing was submitted",
				i, cm.GetPath(), count, at, n, cm.GetLine())
		}
	}
	return nil
}

// lineCount is how many lines a file has, a last line without a newline
// included.
func lineCount(raw []byte) int {
	n := bytes.Count(raw, []byte("\n"))
	if len(raw) > 0 && raw[len(raw)-1] != '\n' {
		n++
	}
	return n
}

// pendingReviews are the ids of the reviewer's PENDING reviews on the
// pull request (only their author sees them).
func (p *Provider) pendingReviews(c *sdk.Client, repo repoName, n int64) (map[int64]bool, error) {
	rs, err := collect(func(o sdk.ListOptions) ([]*sdk.PullReview, *sdk.Response, error) {
		return c.ListPullReviews(repo.owner, repo.name, n, sdk.ListPullReviewsOptions{ListOptions: o})
	})
	if err != nil {
		return nil, err
	}
	ids := map[int64]bool{}
	for _, r := range rs {
		if r.State == sdk.ReviewStatePending {
			ids[r.ID] = true
		}
	}
	return ids, nil
}

// dropNewPending deletes the PENDING reviews that were not there before
// (before): what a failed review left. Best effort: the call has failed
// already, and says so.
func (p *Provider) dropNewPending(ctx context.Context, c *sdk.Client, repo repoName, n int64, before map[int64]bool) {
	now, err := p.pendingReviews(c, repo, n)
	if err != nil {
		p.log.DebugContext(ctx, "gitea: cannot list reviews after a failed review", "host", p.host, "repo", repo.String())
		return
	}
	for id := range now {
		if before[id] {
			continue
		}
		if resp, err := c.DeletePullReview(repo.owner, repo.name, n, id); err != nil {
			p.log.DebugContext(ctx, "gitea: cannot delete the pending review a failed review left", "host", p.host, "repo", repo.String(),
				"review", id, "code", p.mapError("delete review", fail(resp, err)).Code.String())
		}
	}
}
