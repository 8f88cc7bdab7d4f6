// Package memforge is a small in-memory forge for the gateway's own tests:
// a real (if simple) implementation of the provider capabilities that counts
// every call, so a test can assert that a refused call never reached it.
// End-to-end tests use providers/local instead.
package memforge

import (
	"context"
	"fmt"
	"slices"
	"sync"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/handler"
	"google.golang.org/protobuf/proto"
)

// Forge serves the issues, pull requests and reviews capabilities in
// memory, and can be watched for change notifications.
type Forge struct {
	gatewayv1handler.UnimplementedForgeHandler

	ref *forgev1.ForgeRef

	mu      sync.Mutex
	next    map[string]uint64 // per repo; issues and PRs share numbers
	issues  map[string]map[uint64]*forgev1.Issue
	prs     map[string]map[uint64]*forgev1.PullRequest
	ids     int
	calls   map[string]int
	lastCal map[string]handler.Call
	fail    error
	hold    chan struct{} // creates wait on it while non-nil
	entered chan struct{} // signalled when a create starts
}

var (
	_ gatewayv1handler.ForgeIssuesHandler       = (*Forge)(nil)
	_ gatewayv1handler.ForgePullRequestsHandler = (*Forge)(nil)
	_ gatewayv1handler.ForgeReviewsHandler      = (*Forge)(nil)
)

// New returns an empty forge serving (provider, host).
func New(provider forgev1.ForgeProvider, host string) *Forge {
	return &Forge{
		ref:     &forgev1.ForgeRef{Provider: provider, Host: host},
		next:    map[string]uint64{},
		issues:  map[string]map[uint64]*forgev1.Issue{},
		prs:     map[string]map[uint64]*forgev1.PullRequest{},
		calls:   map[string]int{},
		lastCal: map[string]handler.Call{},
		entered: make(chan struct{}, 1000),
	}
}

func (f *Forge) Ref() *forgev1.ForgeRef { return f.ref }

// Calls is how many times method ("CreateIssue") was called.
func (f *Forge) Calls(method string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[method]
}

// Total is how many calls of any kind reached the forge.
func (f *Forge) Total() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		n += c
	}
	return n
}

// LastCall is the handler.Call of the latest call to method.
func (f *Forge) LastCall(method string) handler.Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lastCal[method]
}

// FailWith makes every later call return err (nil restores success).
func (f *Forge) FailWith(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail = err
}

// Hold makes creates block until the returned release is called; Entered
// receives once per create that has started.
func (f *Forge) Hold() (release func()) {
	ch := make(chan struct{})
	f.mu.Lock()
	f.hold = ch
	f.mu.Unlock()
	var once sync.Once
	return func() { once.Do(func() { close(ch) }) }
}

// Entered receives once for every create that has reached the forge.
func (f *Forge) Entered() <-chan struct{} { return f.entered }

// Issue returns the stored issue (bodies as the gateway wrote them).
func (f *Forge) Issue(repo string, n uint64) *forgev1.Issue {
	f.mu.Lock()
	defer f.mu.Unlock()
	if i := f.issues[repo][n]; i != nil {
		return proto.Clone(i).(*forgev1.Issue)
	}
	return nil
}

// PullRequest returns the stored pull request.
func (f *Forge) PullRequest(repo string, n uint64) *forgev1.PullRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	if pr := f.prs[repo][n]; pr != nil {
		return proto.Clone(pr).(*forgev1.PullRequest)
	}
	return nil
}

// begin counts a call and returns the injected failure, if any. It must be
// called with f.mu held.
func (f *Forge) begin(method string, c handler.Call) error {
	f.calls[method]++
	f.lastCal[method] = c
	return f.fail
}

// beginCreate counts a create, then blocks it while the forge is held. It
// must be called without f.mu, which a held create must not keep.
func (f *Forge) beginCreate(ctx context.Context, method string, c handler.Call) error {
	f.mu.Lock()
	err := f.begin(method, c)
	f.mu.Unlock()
	if err != nil {
		return err
	}
	return f.waitHold(ctx)
}

// waitHold blocks a create while the forge is held (f.mu not held).
func (f *Forge) waitHold(ctx context.Context) error {
	f.mu.Lock()
	hold := f.hold
	f.mu.Unlock()
	select {
	case f.entered <- struct{}{}:
	default: // nobody is watching this many creates
	}
	if hold == nil {
		return nil
	}
	select {
	case <-hold:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (f *Forge) url(repo, kind string, n uint64) string {
	return fmt.Sprintf("https://%s/%s/%s/%d", f.ref.GetHost(), repo, kind, n)
}

// number is the next number in repo, where issues and pull requests share
// one sequence. It must be called with f.mu held.
func (f *Forge) number(repo string) uint64 {
	f.next[repo]++
	return f.next[repo]
}

// put stores item as repo's number n in items.
func put[T any](items map[string]map[uint64]T, repo string, n uint64, item T) {
	if items[repo] == nil {
		items[repo] = map[uint64]T{}
	}
	items[repo][n] = item
}

// comment appends a comment by c.Account to the comments of the issue or
// pull request (repo, number) at itemURL, and returns its reference. It
// must be called with f.mu held.
func (f *Forge) comment(c handler.Call, repo string, number uint64, itemURL string, comments *[]*forgev1.Comment, body string) *forgev1.CommentRef {
	f.ids++
	id := fmt.Sprint(f.ids)
	url := itemURL + "#issuecomment-" + id
	*comments = append(*comments, &forgev1.Comment{Author: c.Account, Url: url, Body: body})
	return &forgev1.CommentRef{Forge: f.ref, Repo: repo, Number: number, CommentId: id, Url: url}
}

func notFound(what, repo string, n uint64) error {
	return handler.NotFound("%s #%d not found in %s", what, n, repo)
}

func (f *Forge) GetIssue(_ context.Context, c handler.Call, req *gatewayv1.GetIssueRequest) (*forgev1.Issue, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin("GetIssue", c); err != nil {
		return nil, err
	}
	i := f.issues[req.Repo][req.IssueNumber]
	if i == nil {
		return nil, notFound("issue", req.Repo, req.IssueNumber)
	}
	return proto.Clone(i).(*forgev1.Issue), nil
}

func (f *Forge) ListIssues(_ context.Context, c handler.Call, req *gatewayv1.ListIssuesRequest) (*forgev1.IssueList, error) {
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
	var nums []uint64
	for n := range f.issues[req.Repo] {
		nums = append(nums, n)
	}
	slices.Sort(nums)
	slices.Reverse(nums) // newest first
	out := &forgev1.IssueList{}
	for _, n := range nums {
		i := f.issues[req.Repo][n]
		if (want != "" && i.State != want) || !hasAll(i.Labels, req.Labels) {
			continue
		}
		if len(out.Issues) == limit {
			break
		}
		out.Issues = append(out.Issues, proto.Clone(i).(*forgev1.Issue))
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

func (f *Forge) CreateIssue(ctx context.Context, c handler.Call, req *gatewayv1.CreateIssueRequest) (*forgev1.Issue, error) {
	if err := f.beginCreate(ctx, "CreateIssue", c); err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.number(req.Repo)
	i := &forgev1.Issue{
		Forge: f.ref, Repo: req.Repo, Number: n, State: "open", Url: f.url(req.Repo, "issues", n),
		Labels: req.Labels, Author: c.Account, Title: req.Title, Body: req.Body,
	}
	put(f.issues, req.Repo, n, i)
	return proto.Clone(i).(*forgev1.Issue), nil
}

// UpdateIssue changes what the request gives; the rest stays.
func (f *Forge) UpdateIssue(_ context.Context, c handler.Call, req *gatewayv1.UpdateIssueRequest) (*forgev1.Issue, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin("UpdateIssue", c); err != nil {
		return nil, err
	}
	i := f.issues[req.Repo][req.IssueNumber]
	if i == nil {
		return nil, notFound("issue", req.Repo, req.IssueNumber)
	}
	switch req.State {
	case gatewayv1.IssueState_ISSUE_STATE_OPEN:
		i.State = "open"
	case gatewayv1.IssueState_ISSUE_STATE_CLOSED:
		i.State = "closed"
	}
	if req.Title != nil {
		i.Title = req.GetTitle()
	}
	if req.Body != nil {
		i.Body = req.GetBody()
	}
	if len(req.Labels) > 0 {
		i.Labels = slices.Clone(req.Labels)
	}
	if len(req.Assignees) > 0 {
		i.Assignees = slices.Clone(req.Assignees)
	}
	return proto.Clone(i).(*forgev1.Issue), nil
}

func (f *Forge) CommentOnIssue(_ context.Context, c handler.Call, req *gatewayv1.CommentOnIssueRequest) (*forgev1.CommentRef, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin("CommentOnIssue", c); err != nil {
		return nil, err
	}
	i := f.issues[req.Repo][req.IssueNumber]
	if i == nil {
		return nil, notFound("issue", req.Repo, req.IssueNumber)
	}
	return f.comment(c, req.Repo, req.IssueNumber, i.Url, &i.Comments, req.Body), nil
}

func (f *Forge) GetPullRequest(_ context.Context, c handler.Call, req *gatewayv1.GetPullRequestRequest) (*forgev1.PullRequest, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin("GetPullRequest", c); err != nil {
		return nil, err
	}
	pr := f.prs[req.Repo][req.PullNumber]
	if pr == nil {
		return nil, notFound("pull request", req.Repo, req.PullNumber)
	}
	return proto.Clone(pr).(*forgev1.PullRequest), nil
}

func (f *Forge) CreatePullRequest(ctx context.Context, c handler.Call, req *gatewayv1.CreatePullRequestRequest) (*forgev1.PullRequest, error) {
	if err := f.beginCreate(ctx, "CreatePullRequest", c); err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.number(req.Repo)
	base := req.BaseRef
	if base == "" {
		base = "main"
	}
	pr := &forgev1.PullRequest{
		Forge: f.ref, Repo: req.Repo, Number: n, State: "open", Url: f.url(req.Repo, "pull", n),
		HeadRef: req.HeadRef, BaseRef: base, Draft: req.Draft, Author: c.Account, Title: req.Title, Body: req.Body,
	}
	put(f.prs, req.Repo, n, pr)
	return proto.Clone(pr).(*forgev1.PullRequest), nil
}

func (f *Forge) CommentOnPullRequest(_ context.Context, c handler.Call, req *gatewayv1.CommentOnPullRequestRequest) (*forgev1.CommentRef, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin("CommentOnPullRequest", c); err != nil {
		return nil, err
	}
	pr := f.prs[req.Repo][req.PullNumber]
	if pr == nil {
		return nil, notFound("pull request", req.Repo, req.PullNumber)
	}
	return f.comment(c, req.Repo, req.PullNumber, pr.Url, &pr.Comments, req.Body), nil
}

// verdicts are spelled as GitHub reports them.
var verdicts = map[gatewayv1.Verdict]string{
	gatewayv1.Verdict_VERDICT_APPROVE:         "approved",
	gatewayv1.Verdict_VERDICT_REQUEST_CHANGES: "changes_requested",
	gatewayv1.Verdict_VERDICT_COMMENT:         "commented",
}

func (f *Forge) SubmitReview(_ context.Context, c handler.Call, req *gatewayv1.SubmitReviewRequest) (*forgev1.ReviewRef, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin("SubmitReview", c); err != nil {
		return nil, err
	}
	pr := f.prs[req.Repo][req.PullNumber]
	if pr == nil {
		return nil, notFound("pull request", req.Repo, req.PullNumber)
	}
	f.ids++
	id := fmt.Sprint(f.ids)
	url := pr.Url + "#pullrequestreview-" + id
	r := &forgev1.Review{Author: c.Account, Verdict: verdicts[req.Verdict], Url: url, Body: req.Body}
	for _, cm := range req.Comments {
		side := "RIGHT"
		if cm.Side == gatewayv1.Side_SIDE_LEFT {
			side = "LEFT"
		}
		r.Comments = append(r.Comments, &forgev1.ReviewComment{Path: cm.Path, Line: cm.Line, Side: side, Author: c.Account, Body: cm.Body})
	}
	pr.Reviews = append(pr.Reviews, r)
	return &forgev1.ReviewRef{Forge: f.ref, Repo: req.Repo, Number: req.PullNumber, ReviewId: id, Verdict: r.Verdict, Url: url}, nil
}

// Watch accepts subscriptions to artifacts that exist.
func (f *Forge) Watch(_ context.Context, c handler.Call, req *gatewayv1.SubscribeRequest) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin("Watch", c); err != nil {
		return err
	}
	if req.Kind == gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_PULL_REQUEST {
		if f.prs[req.Repo][req.Number] == nil {
			return notFound("pull request", req.Repo, req.Number)
		}
		return nil
	}
	if f.issues[req.Repo][req.Number] == nil {
		return notFound("issue", req.Repo, req.Number)
	}
	return nil
}

// IssuesOnly is f seen as a forge with issues and nothing else (Linear's
// shape): no pull requests, reviews or notifications.
func (f *Forge) IssuesOnly() Provider { return issuesOnly{f} }

// Provider is a forge the gateway routes calls to (gateway.Provider, which
// this package cannot name: the gateway's tests use it).
type Provider interface {
	Ref() *forgev1.ForgeRef
}

type issuesOnly struct{ f *Forge }

func (i issuesOnly) Ref() *forgev1.ForgeRef { return i.f.Ref() }
func (i issuesOnly) GetIssue(ctx context.Context, c handler.Call, r *gatewayv1.GetIssueRequest) (*forgev1.Issue, error) {
	return i.f.GetIssue(ctx, c, r)
}
func (i issuesOnly) ListIssues(ctx context.Context, c handler.Call, r *gatewayv1.ListIssuesRequest) (*forgev1.IssueList, error) {
	return i.f.ListIssues(ctx, c, r)
}
func (i issuesOnly) CreateIssue(ctx context.Context, c handler.Call, r *gatewayv1.CreateIssueRequest) (*forgev1.Issue, error) {
	return i.f.CreateIssue(ctx, c, r)
}
func (i issuesOnly) UpdateIssue(ctx context.Context, c handler.Call, r *gatewayv1.UpdateIssueRequest) (*forgev1.Issue, error) {
	return i.f.UpdateIssue(ctx, c, r)
}
func (i issuesOnly) CommentOnIssue(ctx context.Context, c handler.Call, r *gatewayv1.CommentOnIssueRequest) (*forgev1.CommentRef, error) {
	return i.f.CommentOnIssue(ctx, c, r)
}
