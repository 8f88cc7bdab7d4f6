package testforge

import (
	"context"
	"slices"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/toolserver"
)

func (f *Forge) GetIssue(_ context.Context, c toolserver.Call, req *gatewayv1.GetIssueRequest) (*forgev1.Issue, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin("GetIssue", c); err != nil {
		return nil, err
	}
	it := f.issue(req.Repo, req.IssueNumber)
	if it == nil {
		return nil, notFound("issue", req.Repo, req.IssueNumber)
	}
	return f.issueMsg(req.Repo, it), nil
}

func (f *Forge) ListIssues(_ context.Context, c toolserver.Call, req *gatewayv1.ListIssuesRequest) (*forgev1.IssueList, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin("ListIssues", c); err != nil {
		return nil, err
	}
	want := "open"
	switch req.State {
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_CLOSED:
		want = "closed"
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL:
		want = ""
	}
	limit := int(req.GetLimit())
	if limit == 0 {
		limit = 30
	}
	out := &forgev1.IssueList{}
	issues := f.repo(req.Repo).Kind(false)
	slices.Reverse(issues) // newest first
	for _, it := range issues {
		if (want != "" && it.State != want) || !hasAll(it.Labels, req.Labels) {
			continue
		}
		if len(out.Issues) == limit {
			break
		}
		out.Issues = append(out.Issues, f.issueMsg(req.Repo, it))
	}
	return out, nil
}

func hasAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

func (f *Forge) CreateIssue(ctx context.Context, c toolserver.Call, req *gatewayv1.CreateIssueRequest) (*forgev1.Issue, error) {
	if err := f.beginCreate(ctx, "CreateIssue", c); err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	it := f.st.AddItem(f.repo(req.Repo), req.Title, req.Body, c.Account, "open", nil)
	it.Labels = slices.Clone(req.Labels)
	return f.issueMsg(req.Repo, it), nil
}

// UpdateIssue changes what the request gives; the rest stays.
func (f *Forge) UpdateIssue(_ context.Context, c toolserver.Call, req *gatewayv1.UpdateIssueRequest) (*forgev1.Issue, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin("UpdateIssue", c); err != nil {
		return nil, err
	}
	it := f.issue(req.Repo, req.IssueNumber)
	if it == nil {
		return nil, notFound("issue", req.Repo, req.IssueNumber)
	}
	switch req.State {
	case gatewayv1.IssueState_ISSUE_STATE_OPEN:
		it.State = "open"
	case gatewayv1.IssueState_ISSUE_STATE_CLOSED:
		it.State = "closed"
	}
	if req.Title != nil {
		it.Title = req.GetTitle()
	}
	if req.Body != nil {
		it.Body = req.GetBody()
	}
	if len(req.Labels) > 0 {
		it.Labels = slices.Clone(req.Labels)
	}
	if len(req.Assignees) > 0 {
		it.Assignees = slices.Clone(req.Assignees)
	}
	return f.issueMsg(req.Repo, it), nil
}

func (f *Forge) CommentOnIssue(_ context.Context, c toolserver.Call, req *gatewayv1.CommentOnIssueRequest) (*forgev1.CommentRef, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin("CommentOnIssue", c); err != nil {
		return nil, err
	}
	it := f.issue(req.Repo, req.IssueNumber)
	if it == nil {
		return nil, notFound("issue", req.Repo, req.IssueNumber)
	}
	return f.comment(c, req.Repo, it, f.url(req.Repo, "issues", it.Number), req.Body), nil
}

// comment appends a comment by c.Account to an issue or pull request at
// itemURL, and returns its reference. f.mu is held.
func (f *Forge) comment(c toolserver.Call, repo string, it *forgemodel.Item, itemURL, body string) *forgev1.CommentRef {
	cm := f.st.AddComment(&it.Comments, c.Account, body, nil)
	return &forgev1.CommentRef{
		Forge: f.ref, Repo: repo, Number: uint64(it.Number), CommentId: itoa(cm.ID), Url: commentURL(itemURL, cm),
	}
}

func (f *Forge) GetPullRequest(_ context.Context, c toolserver.Call, req *gatewayv1.GetPullRequestRequest) (*forgev1.PullRequest, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin("GetPullRequest", c); err != nil {
		return nil, err
	}
	it := f.pull(req.Repo, req.PullNumber)
	if it == nil {
		return nil, notFound("pull request", req.Repo, req.PullNumber)
	}
	return f.pullMsg(req.Repo, it), nil
}

func (f *Forge) CreatePullRequest(ctx context.Context, c toolserver.Call, req *gatewayv1.CreatePullRequestRequest) (*forgev1.PullRequest, error) {
	if err := f.beginCreate(ctx, "CreatePullRequest", c); err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	base := req.BaseRef
	if base == "" {
		base = "main"
	}
	p := &forgemodel.Pull{Head: req.HeadRef, Base: base, Draft: req.Draft}
	it := f.st.AddItem(f.repo(req.Repo), req.Title, req.Body, c.Account, "open", p)
	return f.pullMsg(req.Repo, it), nil
}

func (f *Forge) CommentOnPullRequest(_ context.Context, c toolserver.Call, req *gatewayv1.CommentOnPullRequestRequest) (*forgev1.CommentRef, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin("CommentOnPullRequest", c); err != nil {
		return nil, err
	}
	it := f.pull(req.Repo, req.PullNumber)
	if it == nil {
		return nil, notFound("pull request", req.Repo, req.PullNumber)
	}
	return f.comment(c, req.Repo, it, f.url(req.Repo, "pull", it.Number), req.Body), nil
}

// verdicts are spelled as GitHub reports them.
var verdicts = map[gatewayv1.Verdict]string{
	gatewayv1.Verdict_VERDICT_APPROVE:         "approved",
	gatewayv1.Verdict_VERDICT_REQUEST_CHANGES: "changes_requested",
	gatewayv1.Verdict_VERDICT_COMMENT:         "commented",
}

func (f *Forge) SubmitReview(_ context.Context, c toolserver.Call, req *gatewayv1.SubmitReviewRequest) (*forgev1.ReviewRef, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin("SubmitReview", c); err != nil {
		return nil, err
	}
	it := f.pull(req.Repo, req.PullNumber)
	if it == nil {
		return nil, notFound("pull request", req.Repo, req.PullNumber)
	}
	v := &forgemodel.Review{ID: f.st.ID(), Author: c.Account, State: verdicts[req.Verdict], Body: req.Body, Created: f.st.Tick()}
	for _, cm := range req.Comments {
		rc := &forgemodel.ReviewComment{ID: f.st.ID(), Path: cm.Path, NewLine: int64(cm.Line), Body: cm.Body}
		if cm.Side == gatewayv1.Side_SIDE_LEFT {
			rc.NewLine, rc.OldLine = 0, int64(cm.Line)
		}
		v.Comments = append(v.Comments, rc)
	}
	it.Pull.Reviews = append(it.Pull.Reviews, v)
	url := reviewURL(f.url(req.Repo, "pull", it.Number), v)
	return &forgev1.ReviewRef{Forge: f.ref, Repo: req.Repo, Number: req.PullNumber, ReviewId: itoa(v.ID), Verdict: v.State, Url: url}, nil
}

// Watch accepts subscriptions to artifacts that exist.
func (f *Forge) Watch(_ context.Context, c toolserver.Call, req *gatewayv1.SubscribeRequest) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin("Watch", c); err != nil {
		return err
	}
	if req.Kind == gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_PULL_REQUEST {
		if f.pull(req.Repo, req.Number) == nil {
			return notFound("pull request", req.Repo, req.Number)
		}
		return nil
	}
	if f.issue(req.Repo, req.Number) == nil {
		return notFound("issue", req.Repo, req.Number)
	}
	return nil
}
