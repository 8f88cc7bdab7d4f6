// Package github is the GitHub provider: github.com and GitHub Enterprise
// Server hosts, through go-github.
//
// One Provider serves one host. Its HTTP client only ever talks to that
// host's API (see rest.PinnedClient), every operation runs under a
// timeout, and GitHub's failures become *toolserver.Error values with the
// gateway's codes (see errors.go). Bodies are sent and returned verbatim:
// the gateway stamps attribution before a write and parses it after a
// read.
package github

import (
	"context"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	gh "github.com/google/go-github/v84/github"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/internal/redact"
	"github.com/forgetools/forgetools/providers/internal/rest"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

const (
	// DefaultHost is the forge host when Options.Host is empty.
	DefaultHost = "github.com"
	// DefaultTimeout bounds each provider operation when Options.Timeout is zero.
	DefaultTimeout = kit.DefaultTimeout
	// DefaultUserAgent is sent when Options.UserAgent is empty.
	DefaultUserAgent = kit.DefaultUserAgent
)

// Options configures a Provider. Host is "github.com" (the default) or a
// GitHub Enterprise Server host, whose API is https://HOST/api/v3/; a
// GHE.com host (NAME.ghe.com) uses https://api.NAME.ghe.com/. Now is the
// clock GitHub's named reset times are read against.
type Options struct {
	kit.Options
}

// Provider is one configured GitHub host.
type Provider struct {
	gatewayv1handler.UnimplementedForgeHandler

	host     string
	author   *gh.Client
	reviewer *gh.Client
	// logs downloads Actions job logs from where GitHub redirects to; it
	// sends no credential, and goes only where logsAllow says (see
	// logs.go), which a refusal names as logsPinned.
	logs       *http.Client
	logsAllow  func(*url.URL) bool
	logsPinned string
	userAgent  string
	timeout    time.Duration
	redactor   *redact.Redactor // both credentials
	log        *slog.Logger
	// now is the clock rate-limit waits are computed against.
	now func() time.Time
}

var (
	_ gatewayv1handler.ForgeIssuesHandler       = (*Provider)(nil)
	_ gatewayv1handler.ForgePullRequestsHandler = (*Provider)(nil)
	_ gatewayv1handler.ForgeReviewsHandler      = (*Provider)(nil)
	_ gatewayv1handler.ForgeRepositoryHandler   = (*Provider)(nil)
	_ gatewayv1handler.ForgePushHandler         = (*Provider)(nil)
	_ gatewayv1handler.ForgeCiHandler           = (*Provider)(nil)
)

// New returns a Provider for o.Host, or an error naming the bad option.
func New(o Options) (*Provider, error) {
	c, err := o.Open(kit.Forge{DefaultHost: DefaultHost, APIURL: apiURL})
	if err != nil {
		return nil, err
	}
	p := &Provider{host: c.Host, timeout: c.Timeout, log: c.Log, now: c.Now, redactor: c.Redactor, userAgent: c.UserAgent}
	now := func() time.Time { return p.now() } // tests replace p.now after New
	p.author = newClient(c, c.Token, now)
	p.logsPinned, p.logsAllow = rest.Origin(c.Base)+" and GitHub's log download hosts", logHosts(c.Base)
	p.logs = rest.PinnedClientFor(p.logsPinned, p.logsAllow, c.Transport)
	p.reviewer = p.author
	if c.ReviewerToken != "" {
		p.reviewer = newClient(c, c.ReviewerToken, now)
	}
	return p, nil
}

// apiURL is the REST API root for host.
func apiURL(host string) string {
	switch {
	case host == DefaultHost:
		return "https://api.github.com/"
	case strings.HasSuffix(host, ".ghe.com"):
		return "https://api." + host + "/"
	default:
		return "https://" + host + "/api/v3/"
	}
}

// newClient is a go-github client pinned to base, authenticating with token.
// go-github's token layer wraps the pinned transport, so the Authorization
// header is set on a request only on its way into the pin: one bound for
// another host is refused there, with nothing sent. Each credential has its
// own rate gate (ratelimit.go), as GitHub keeps a quota per credential,
// inside the pin: a refused request never reaches the gate.
// go-github's own rate memory is off.
func newClient(conn *kit.Conn, token string, now func() time.Time) *gh.Client {
	gate := &rateGate{next: conn.Transport, now: now}
	base := conn.Base
	c := gh.NewClient(conn.Client(gate)).WithAuthToken(token)
	c.DisableRateLimitCheck = true
	c.BaseURL = base
	// Uploads are never used; pinning them to the API root keeps every URL
	// the client can build on the one host.
	c.UploadURL = base
	c.UserAgent = conn.UserAgent
	// Endpoints that answer with a redirect to a download (job logs) go
	// through go-github's usual request path, so their failures and rate
	// limits are GitHub error answers like any other.
	c.RateLimitRedirectionalEndpoints = true
	return c
}

// Ref is the coordinate this provider serves.
func (p *Provider) Ref() *forgev1.ForgeRef {
	return &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, Host: p.host}
}

// call runs op under the provider's timeout and maps its failure.
func call[T any](ctx context.Context, p *Provider, what string, op func(context.Context) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	v, err := op(ctx)
	if err != nil {
		var zero T
		e := p.mapError(what, err)
		p.log.DebugContext(ctx, "github call failed", "host", p.host, "op", what, "code", e.Code.String())
		return zero, e
	}
	return v, nil
}

// repoName is an "owner/name" split and checked. Both parts go into URL
// paths, so anything that could change the path (a slash, "..", "?", "%")
// is refused rather than escaped.
type repoName struct{ owner, name string }

var repoPart = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,100}$`)

func parseRepo(repo string) (repoName, error) {
	owner, name, ok := strings.Cut(repo, "/")
	if !ok || !validRepoPart(owner) || !validRepoPart(name) {
		return repoName{}, toolserver.InvalidArgument("repo %q is not a GitHub repository: want owner/name (letters, digits, '-', '_', '.')", repo)
	}
	return repoName{owner, name}, nil
}

func validRepoPart(s string) bool {
	return repoPart.MatchString(s) && strings.Trim(s, ".") != ""
}

func (r repoName) String() string { return r.owner + "/" + r.name }

// number converts a validated wire number to go-github's int, refusing what
// GitHub could never have issued.
func number(n uint64, kind string) (int, error) {
	if n == 0 || n > math.MaxInt32 {
		return 0, toolserver.InvalidArgument("%s number %d is out of range", kind, n)
	}
	return int(n), nil
}

// parseNumbered is an issue or pull request ("kind") of a repository,
// both checked.
func parseNumbered(repoArg string, n uint64, kind string) (repoName, int, error) {
	repo, err := parseRepo(repoArg)
	if err != nil {
		return repoName{}, 0, err
	}
	num, err := number(n, kind)
	return repo, num, err
}

// pageLimit bounds how many pages one read follows, so a pathological
// artifact (thousands of comments, a repository of nothing but pull
// requests) costs a bounded number of requests.
const pageLimit = 10

// collect follows GitHub's Link pagination from page 1 at perPage items a
// page, for at most pageLimit pages.
func collect[T any](perPage int, fetch func(gh.ListOptions) ([]T, *gh.Response, error)) ([]T, error) {
	return kit.Collect(pageLimit, func(next int) (kit.Page[T, int], error) {
		items, resp, err := fetch(gh.ListOptions{PerPage: perPage, Page: next})
		return kit.Page[T, int]{Items: items, Next: nextPage(resp)}, err
	})
}

// nextPage is the page GitHub's Link header names next; 0 when none.
func nextPage(resp *gh.Response) int {
	if resp == nil {
		return 0
	}
	return resp.NextPage
}
