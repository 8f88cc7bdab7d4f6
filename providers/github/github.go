// Package github is the GitHub provider: github.com and GitHub Enterprise
// Server hosts, through go-github.
//
// One Provider serves one host. Its HTTP client only ever talks to that
// host's API (see egress.go), every operation runs under a timeout, and
// GitHub's failures become *handler.Error values with the gateway's codes
// (see errors.go). Bodies are sent and returned verbatim: the gateway stamps
// attribution before a write and parses it after a read.
package github

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	gh "github.com/google/go-github/v84/github"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/handler"
)

const (
	// DefaultHost is the forge host when Options.Host is empty.
	DefaultHost = "github.com"
	// DefaultTimeout bounds each provider operation when Options.Timeout is zero.
	DefaultTimeout = 30 * time.Second
	// DefaultUserAgent is sent when Options.UserAgent is empty.
	DefaultUserAgent = "forgetools"
)

// Options configures a Provider.
type Options struct {
	// Host is the forge host the provider serves and reports in Ref:
	// "github.com" (the default) or a GitHub Enterprise Server host, whose
	// API is https://HOST/api/v3/. A GHE.com host (NAME.ghe.com) uses
	// https://api.NAME.ghe.com/.
	Host string
	// APIURL overrides the API base URL derived from Host (the CLI's
	// api_url; tests point it at a local server). Plain http is accepted
	// only for loopback addresses, so a token never crosses a network in
	// clear text.
	APIURL string
	// Token is the author credential, used for every call except reviews.
	Token string
	// ReviewerToken, when set, is used only to submit reviews, so a pull
	// request opened with Token can be approved (GitHub refuses a review
	// verdict from the pull request's author).
	ReviewerToken string
	// Timeout bounds each operation, paging included; zero = DefaultTimeout.
	Timeout time.Duration
	// UserAgent is sent on every request; empty = DefaultUserAgent.
	UserAgent string
	// Transport is the base HTTP transport (tests use it to trust a test
	// certificate); nil = a clone of http.DefaultTransport. Host pinning,
	// redirect policy and authentication are layered on top of it.
	Transport http.RoundTripper
	// Logger receives debug lines about degraded reads; nil = slog.Default().
	Logger *slog.Logger
	// Now is the clock rate-limit waits are computed against (GitHub names
	// a reset time); nil = time.Now.
	Now func() time.Time
}

// Provider is one configured GitHub host.
type Provider struct {
	gatewayv1handler.UnimplementedForgeHandler

	host     string
	author   *gh.Client
	reviewer *gh.Client
	timeout  time.Duration
	secrets  []string
	log      *slog.Logger
	// now is the clock rate-limit waits are computed against.
	now func() time.Time
}

var (
	_ handler.Provider                          = (*Provider)(nil)
	_ gatewayv1handler.ForgeIssuesHandler       = (*Provider)(nil)
	_ gatewayv1handler.ForgePullRequestsHandler = (*Provider)(nil)
	_ gatewayv1handler.ForgeReviewsHandler      = (*Provider)(nil)
)

// hostPattern is ForgeRef.host's rule, lower case: a DNS name with an
// optional port and nothing else (no scheme, path or credentials).
var hostPattern = regexp.MustCompile(`^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]{1,5})?$`)

// New returns a Provider for o.Host, or an error naming the bad option.
func New(o Options) (*Provider, error) {
	host := strings.ToLower(strings.TrimSpace(o.Host))
	if host == "" {
		host = DefaultHost
	}
	if !hostPattern.MatchString(host) {
		return nil, fmt.Errorf("github: host %q is not a host name (no scheme or path; use api_url for a full URL)", o.Host)
	}
	if o.Token == "" {
		return nil, fmt.Errorf("github: no token for %s (set the environment variable the forge's token_env names)", host)
	}
	if o.Timeout < 0 {
		return nil, fmt.Errorf("github: timeout %s is negative", o.Timeout)
	}
	base, err := apiBase(host, o.APIURL)
	if err != nil {
		return nil, err
	}
	p := &Provider{
		host:    host,
		timeout: o.Timeout,
		log:     o.Logger,
		now:     o.Now,
		secrets: []string{o.Token},
	}
	if p.timeout == 0 {
		p.timeout = DefaultTimeout
	}
	if p.log == nil {
		p.log = slog.Default()
	}
	if p.now == nil {
		p.now = time.Now
	}
	ua := o.UserAgent
	if ua == "" {
		ua = DefaultUserAgent
	}
	rt := o.Transport
	if rt == nil {
		rt = http.DefaultTransport.(*http.Transport).Clone()
	}
	p.author = newClient(base, o.Token, ua, rt)
	p.reviewer = p.author
	if o.ReviewerToken != "" {
		p.reviewer = newClient(base, o.ReviewerToken, ua, rt)
		p.secrets = append(p.secrets, o.ReviewerToken)
	}
	return p, nil
}

// apiBase is the REST API root for host, or apiURL when given.
func apiBase(host, apiURL string) (*url.URL, error) {
	if apiURL == "" {
		switch {
		case host == DefaultHost:
			apiURL = "https://api.github.com/"
		case strings.HasSuffix(host, ".ghe.com"):
			apiURL = "https://api." + host + "/"
		default:
			apiURL = "https://" + host + "/api/v3/"
		}
	}
	u, err := url.Parse(apiURL)
	if err != nil {
		// url.Parse repeats the whole URL, credentials and all; keep its reason only.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("github: api_url is not a URL: %v", err)
	}
	shown := u.Redacted()
	switch {
	case u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "":
		return nil, fmt.Errorf("github: api_url %q must be scheme://host[:port]/path with no credentials, query or fragment", shown)
	case u.Scheme == "http" && !isLoopback(u.Hostname()):
		return nil, fmt.Errorf("github: api_url %q uses plain http on a non-loopback host; use https", shown)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("github: api_url %q: scheme must be https", shown)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// newClient is a go-github client pinned to base, authenticating with token.
// go-github's token layer wraps the pinned transport, so the Authorization
// header is set on a request only on its way into the pin: one bound for
// another host is refused there, with nothing sent.
func newClient(base *url.URL, token, userAgent string, rt http.RoundTripper) *gh.Client {
	hc := &http.Client{
		Transport:     &pinnedTransport{scheme: base.Scheme, host: base.Host, next: rt},
		CheckRedirect: redirectPolicy(base),
	}
	c := gh.NewClient(hc).WithAuthToken(token)
	c.BaseURL = base
	// Uploads are never used; pinning them to the API root keeps every URL
	// the client can build on the one host.
	c.UploadURL = base
	c.UserAgent = userAgent
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
		return repoName{}, handler.Errorf(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
			"repo %q is not a GitHub repository: want owner/name (letters, digits, '-', '_', '.')", repo)
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
		return 0, handler.Errorf(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "%s number %d is out of range", kind, n)
	}
	return int(n), nil
}

// pageLimit bounds how many pages one read follows, so a pathological
// artifact (thousands of comments, a repository of nothing but pull
// requests) costs a bounded number of requests.
const pageLimit = 10

// collect follows GitHub's Link pagination from page 1 at perPage items a
// page, for at most pageLimit pages.
func collect[T any](perPage int, fetch func(gh.ListOptions) ([]T, *gh.Response, error)) ([]T, error) {
	var all []T
	opts := gh.ListOptions{PerPage: perPage}
	for range pageLimit {
		items, resp, err := fetch(opts)
		if err != nil {
			return nil, err
		}
		all = append(all, items...)
		if resp == nil || resp.NextPage == 0 {
			break
		}
		opts.Page = resp.NextPage
	}
	return all, nil
}
