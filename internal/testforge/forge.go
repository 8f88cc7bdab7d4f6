// Package testforge is the gateway's test forge: the issues, pull requests
// and reviews capabilities served in the gateway's own types over the
// in-memory forge model the fake forge APIs share (internal/forgemodel),
// counting every call so a test can assert that a refused call never
// reached it, and able to fail or hold calls on demand. End-to-end tests
// use providers/local instead.
package testforge

import (
	"context"
	"fmt"
	"sync"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/toolserver"
)

// Forge serves the issues, pull requests and reviews capabilities in
// memory, and can be watched for change notifications.
type Forge struct {
	gatewayv1handler.UnimplementedForgeHandler

	ref *forgev1.ForgeRef

	mu      sync.Mutex
	st      forgemodel.State // a repository appears on first use
	calls   map[string]int
	lastCal map[string]toolserver.Call
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
		st:      forgemodel.NewState(),
		calls:   map[string]int{},
		lastCal: map[string]toolserver.Call{},
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

// LastCall is the toolserver.Call of the latest call to method.
func (f *Forge) LastCall(method string) toolserver.Call {
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
	if it := f.issue(repo, n); it != nil {
		return f.issueMsg(repo, it)
	}
	return nil
}

// PullRequest returns the stored pull request.
func (f *Forge) PullRequest(repo string, n uint64) *forgev1.PullRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	if it := f.pull(repo, n); it != nil {
		return f.pullMsg(repo, it)
	}
	return nil
}

// begin counts a call and returns the injected failure, if any. It must be
// called with f.mu held.
func (f *Forge) begin(method string, c toolserver.Call) error {
	f.calls[method]++
	f.lastCal[method] = c
	return f.fail
}

// beginCreate counts a create, then blocks it while the forge is held. It
// must be called without f.mu, which a held create must not keep.
func (f *Forge) beginCreate(ctx context.Context, method string, c toolserver.Call) error {
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

// repo is the repository named name, made on first use; its issues and
// pull requests share one number sequence, as on GitHub.
func (f *Forge) repo(name string) *forgemodel.Repo {
	r := f.st.Repo(name)
	if r == nil {
		r = f.st.AddRepo(name, "main", nil)
		r.SharedNumbers = true
	}
	return r
}

// issue is repo's issue n (never a pull request); nil when there is none.
func (f *Forge) issue(repo string, n uint64) *forgemodel.Item {
	if r := f.st.Repo(repo); r != nil {
		if it := r.Issue(int64(n)); it != nil && it.Pull == nil {
			return it
		}
	}
	return nil
}

// pull is repo's pull request n; nil when there is none.
func (f *Forge) pull(repo string, n uint64) *forgemodel.Item {
	if r := f.st.Repo(repo); r != nil {
		return r.Pull(int64(n))
	}
	return nil
}

func notFound(what, repo string, n uint64) error {
	return toolserver.NotFound("%s #%d not found in %s", what, n, repo)
}

func itoa(n int64) string { return fmt.Sprint(n) }

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
func (i issuesOnly) GetIssue(ctx context.Context, c toolserver.Call, r *gatewayv1.GetIssueRequest) (*forgev1.Issue, error) {
	return i.f.GetIssue(ctx, c, r)
}
func (i issuesOnly) ListIssues(ctx context.Context, c toolserver.Call, r *gatewayv1.ListIssuesRequest) (*forgev1.IssueList, error) {
	return i.f.ListIssues(ctx, c, r)
}
func (i issuesOnly) CreateIssue(ctx context.Context, c toolserver.Call, r *gatewayv1.CreateIssueRequest) (*forgev1.Issue, error) {
	return i.f.CreateIssue(ctx, c, r)
}
func (i issuesOnly) UpdateIssue(ctx context.Context, c toolserver.Call, r *gatewayv1.UpdateIssueRequest) (*forgev1.Issue, error) {
	return i.f.UpdateIssue(ctx, c, r)
}
func (i issuesOnly) CommentOnIssue(ctx context.Context, c toolserver.Call, r *gatewayv1.CommentOnIssueRequest) (*forgev1.CommentRef, error) {
	return i.f.CommentOnIssue(ctx, c, r)
}
func (i issuesOnly) ListComments(ctx context.Context, c toolserver.Call, r *gatewayv1.ListCommentsRequest) (*forgev1.CommentList, error) {
	return i.f.ListComments(ctx, c, r)
}
