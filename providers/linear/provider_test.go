package linear

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

func TestNewDefaults(t *testing.T) {
	p, err := New(Options{Options: kit.Options{Token: testKey}})
	if err != nil {
		t.Fatal(err)
	}
	if p.endpoint != DefaultAPIURL || p.timeout != DefaultTimeout || p.agent != DefaultUserAgent || p.auth != testKey {
		t.Errorf("defaults: endpoint %q timeout %s agent %q", p.endpoint, p.timeout, p.agent)
	}
	if !proto.Equal(p.Ref(), &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_LINEAR, Host: "linear.app"}) {
		t.Errorf("Ref = %v", p.Ref())
	}
	// Ref hands out a fresh message: a caller editing it changes nothing.
	p.Ref().Host = "elsewhere"
	if p.Ref().GetHost() != "linear.app" {
		t.Error("Ref shares its message")
	}
	q, err := New(Options{Options: kit.Options{Token: testKey, Host: "linear.example.com", Timeout: time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	if q.Ref().GetHost() != "linear.example.com" || q.timeout != time.Second {
		t.Errorf("Host/Timeout not applied: %v %s", q.Ref(), q.timeout)
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{}, "no token for linear.app"},
		{Options{Options: kit.Options{Token: "  "}}, "no token"},
		{Options{Options: kit.Options{Token: "lin_api_x\r\nX-Evil: 1"}}, "line break"},
		{Options{Options: kit.Options{Token: testKey, APIURL: "http://api.linear.app/graphql"}}, "plain http on a non-loopback host"},
		{Options{Options: kit.Options{Token: testKey, APIURL: "ftp://api.linear.app/graphql"}}, "scheme must be https"},
		{Options{Options: kit.Options{Token: testKey, APIURL: "/graphql"}}, "scheme://host"},
		{Options{Options: kit.Options{Token: testKey, APIURL: "https://user:pw@api.linear.app/graphql"}}, "no credentials"},
		{Options{Options: kit.Options{Token: testKey, APIURL: "https://api.linear.app/%zz"}}, "not a URL"},
		{Options{Options: kit.Options{Token: testKey, ReviewerToken: "lin_api_reviewer"}}, "no reviews"},
		{Options{Auth: "basic", Options: kit.Options{Token: testKey}}, `unknown Auth "basic"`},
		{Options{Options: kit.Options{Token: testKey, Timeout: -time.Second}}, "negative"},
	} {
		_, err := New(tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v) = %v, want an error containing %q", tc.opts, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), testKey) {
			t.Errorf("New error carries the key: %v", err)
		}
	}
	for _, ok := range []string{"http://127.0.0.1:8080/graphql", "http://localhost/graphql", "http://[::1]:9/graphql", "https://api.linear.app/graphql"} {
		if _, err := New(Options{Options: kit.Options{Token: testKey, APIURL: ok}}); err != nil {
			t.Errorf("New(APIURL %q): %v", ok, err)
		}
	}
}

// Linear serves issues only: the other arms come back unimplemented (from
// the embedded unimplemented handler, without a request to Linear), and the
// provider explains each missing capability in its own words.
func TestIssuesOnly(t *testing.T) {
	f := newFake(t)
	p := f.provider(t)
	ctx := context.Background()
	for capability, err := range map[string]error{
		"pull_requests": second(p.GetPullRequest(ctx, toolserver.Call{}, &gatewayv1.GetPullRequestRequest{Repo: "ENG", PullNumber: 1})),
		"reviews": second(p.SubmitReview(ctx, toolserver.Call{}, &gatewayv1.SubmitReviewRequest{
			Repo: "ENG", PullNumber: 1, Verdict: gatewayv1.Verdict_VERDICT_APPROVE})),
		"change_notifications": second(p.Subscribe(ctx, toolserver.Call{}, &gatewayv1.SubscribeRequest{Repo: "ENG", Number: 1})),
	} {
		var u *toolserver.UnimplementedError
		if !errors.As(err, &u) || u.Capability != capability {
			t.Errorf("%s: err = %v, want unimplemented", capability, err)
		}
	}
	var ex toolserver.Explainer = p
	for _, c := range []string{"pull_requests", "reviews"} {
		if got := ex.Unsupported(c); !strings.Contains(got, "Linear has no pull requests") {
			t.Errorf("Unsupported(%q) = %q", c, got)
		}
	}
	if got := ex.Unsupported("change_notifications"); got != NoSubscriptions {
		t.Errorf("Unsupported(change_notifications) = %q", got)
	}
	for capability, want := range map[string]string{
		"repository": NoRepository, "push": NoRepository, "ci": NoCI,
		// The issues capability is served but for updates, the one arm
		// this provider leaves unimplemented.
		"issues": NoIssueUpdates,
		"":       "",
	} {
		if got := ex.Unsupported(capability); got != want {
			t.Errorf("Unsupported(%q) = %q, want %q", capability, got, want)
		}
	}
	for arm, err := range map[string]error{
		"get_repo":           second(p.GetRepo(ctx, toolserver.Call{}, &gatewayv1.GetRepoRequest{Repo: "ENG"})),
		"read_file":          second(p.ReadFile(ctx, toolserver.Call{}, &gatewayv1.ReadFileRequest{Repo: "ENG", Path: "a"})),
		"create_branch":      second(p.CreateBranch(ctx, toolserver.Call{}, &gatewayv1.CreateBranchRequest{Repo: "ENG", Branch: "b"})),
		"write_file":         second(p.WriteFile(ctx, toolserver.Call{}, &gatewayv1.WriteFileRequest{Repo: "ENG"})),
		"merge_pull_request": second(p.MergePullRequest(ctx, toolserver.Call{}, &gatewayv1.MergePullRequestRequest{Repo: "ENG"})),
		"trigger_ci":         second(p.TriggerCi(ctx, toolserver.Call{}, &gatewayv1.TriggerCIRequest{Repo: "ENG"})),
		"update_issue":       second(p.UpdateIssue(ctx, toolserver.Call{}, &gatewayv1.UpdateIssueRequest{Repo: "ENG"})),
	} {
		var u *toolserver.UnimplementedError
		if !errors.As(err, &u) || u.Arm != arm || ex.Unsupported(u.Capability) == "" {
			t.Errorf("%s: err = %v, want unimplemented with Linear's own explanation", arm, err)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// OAuth tokens go out as a Bearer credential; the fake checks the header.
func TestOAuthTokenIsSentAsBearer(t *testing.T) {
	f := newFake(t, exchange{request: "issue_eng_123", response: "issue_eng_123.json"})
	f.auth = "Bearer " + testKey
	p := f.provider(t, func(o *Options) { o.Auth = AuthOAuth })
	if _, err := p.GetIssue(t.Context(), builder, &gatewayv1.GetIssueRequest{Repo: "ENG", IssueNumber: 123}); err != nil {
		t.Fatal(err)
	}
}

type countingTransport struct{ calls atomic.Int32 }

func (c *countingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	c.calls.Add(1)
	return nil, http.ErrHandlerTimeout
}

// Egress is pinned to the API URL's origin, whatever the request says.
func TestEgressIsPinnedToTheAPIHost(t *testing.T) {
	base := &countingTransport{}
	p, err := New(Options{Options: kit.Options{Token: testKey, APIURL: "https://api.linear.app/graphql", Transport: base}})
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"https://evil.example/graphql", "https://api.linear.app.evil.example/graphql", "https://api.linear.app:8443/graphql", "http://api.linear.app/graphql"} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, target, nil)
		resp, err := p.client.Do(req)
		if resp != nil {
			resp.Body.Close()
		}
		if err == nil || !strings.Contains(err.Error(), "refused") {
			t.Errorf("request to %s: err = %v, want refused", target, err)
		}
	}
	if n := base.calls.Load(); n != 0 {
		t.Errorf("%d requests left the pinned host", n)
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, "https://API.linear.app/graphql", nil)
	if _, err := p.client.Do(req); err == nil || base.calls.Load() != 1 {
		t.Errorf("request to the API host did not reach the transport (err %v)", err)
	}
}
