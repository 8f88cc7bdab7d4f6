// Package linear is the Linear forge provider: issues only, over Linear's
// GraphQL API.
//
// Linear has no repositories, so a forge call's repo is a Linear team key
// ("ENG") and issue number N is the issue identified as "ENG-N". The
// provider implements the "issues" capability and nothing else; the
// embedded unimplemented handler answers the pull request, review and
// subscription arms, which the gateway words with NoPullRequests and
// NoSubscriptions.
//
// Creates are idempotent at Linear itself: issueCreate and commentCreate
// take a client-chosen UUID, which the provider derives from the account and
// the call's client_request_id (see IssueID), so a replay that reaches Linear
// finds the first issue instead of filing a second one.
//
// The client is a small typed GraphQL client over net/http: every query is a
// named constant in queries.go and every response is a typed struct. No Go
// GraphQL client on the module proxy exposes the rate-limit headers and the
// error extensions this provider maps, and codegen clients need Linear's full
// schema in the repository.
package linear

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/handler"
	"github.com/forgetools/forgetools/internal/redact"
)

// Defaults for Options.
const (
	DefaultAPIURL  = "https://api.linear.app/graphql"
	DefaultHost    = "linear.app"
	DefaultTimeout = 30 * time.Second
	// DefaultUserAgent identifies forgetools to Linear.
	DefaultUserAgent = "forgetools-linear"
)

// What the gateway tells the model (in-band unimplemented) for the arms this
// provider does not serve; see Unsupported.
const (
	NoPullRequests  = "Linear has no pull requests or reviews: only the issue tools work on a Linear forge"
	NoSubscriptions = "Linear change notifications are not supported (the gateway neither polls Linear nor receives its webhooks, so a subscription would never deliver)"
	// NoRepository covers reads of files and directories, branches, commits
	// and merges: a Linear "repo" is a team.
	NoRepository = "Linear has no git repositories: a Linear repo is a team key, with no files, branches, commits or merges; use the code forge (GitHub) for those"
	NoCI         = "Linear runs no CI: CI runs live on the code forge (GitHub), not in Linear"
	// NoIssueUpdates is the one issues arm this provider does not serve.
	NoIssueUpdates = "forgetools cannot yet close, reopen or edit Linear issues (reading, listing, creating and commenting work)"
)

// Unsupported implements handler.Explainer for the capabilities the
// provider leaves to the embedded unimplemented handler.
func (p *Provider) Unsupported(capability string) string {
	switch capability {
	case "pull_requests", "reviews":
		return NoPullRequests
	case "change_notifications":
		return NoSubscriptions
	case "repository", "push":
		return NoRepository
	case "ci":
		return NoCI
	case "issues":
		return NoIssueUpdates
	}
	return ""
}

// AuthKind says how the credential is sent in the Authorization header.
type AuthKind string

const (
	// AuthAPIKey sends a personal API key bare: "Authorization: <key>".
	AuthAPIKey AuthKind = "api_key"
	// AuthOAuth sends an OAuth access token: "Authorization: Bearer <token>".
	AuthOAuth AuthKind = "oauth"
)

// Options configures a Linear provider.
type Options struct {
	// APIURL is the GraphQL endpoint; empty = DefaultAPIURL. Every request
	// goes to this URL's host and nowhere else. Plain http is accepted only
	// for loopback hosts (tests).
	APIURL string
	// Host is the forge coordinate's host (ForgeRef.host); empty = DefaultHost.
	Host string
	// APIKey is the credential: a personal API key or, with Auth = AuthOAuth,
	// an OAuth access token. It is sent only in the Authorization header and
	// never appears in a log line or an error.
	APIKey string
	// Auth selects the header form; empty = AuthAPIKey.
	Auth AuthKind
	// Timeout bounds each GraphQL request; zero = DefaultTimeout.
	Timeout time.Duration
	// HTTPClient is copied, never modified; nil = a client over a clone of
	// http.DefaultTransport. Its redirect policy and transport are wrapped so
	// redirects are never followed and egress stays pinned to APIURL's host.
	HTTPClient *http.Client
	// UserAgent is sent on every request; empty = DefaultUserAgent.
	UserAgent string
	// Logger receives debug lines per request (operation, status, duration);
	// nil = discard.
	Logger *slog.Logger
}

// Provider serves issues on one Linear workspace.
type Provider struct {
	gatewayv1handler.UnimplementedForgeHandler

	host     string
	endpoint string
	auth     string           // the full Authorization header value
	redactor *redact.Redactor // the credential, out of every message derived from a response
	agent    string
	timeout  time.Duration
	client   *http.Client
	log      *slog.Logger
	now      func() time.Time // tests pin the clock for rate-limit math
	teams    teamCache
}

// The provider serves issues and nothing else; the gateway relies on these
// type assertions failing for the other capabilities.
var (
	_ handler.Explainer                   = (*Provider)(nil)
	_ gatewayv1handler.ForgeIssuesHandler = (*Provider)(nil)
)

// New validates opts and returns a provider. It makes no network call.
func New(opts Options) (*Provider, error) {
	if strings.TrimSpace(opts.APIKey) == "" {
		return nil, errors.New("APIKey is required")
	}
	if strings.ContainsAny(opts.APIKey, "\r\n") {
		return nil, errors.New("APIKey contains a line break")
	}
	endpoint, host, err := parseEndpoint(opts.APIURL)
	if err != nil {
		return nil, err
	}
	var auth string
	switch opts.Auth {
	case "", AuthAPIKey:
		auth = opts.APIKey
	case AuthOAuth:
		auth = "Bearer " + opts.APIKey
	default:
		return nil, fmt.Errorf("unknown Auth %q (want %q or %q)", opts.Auth, AuthAPIKey, AuthOAuth)
	}
	if opts.Timeout < 0 {
		return nil, fmt.Errorf("Timeout %s is negative", opts.Timeout)
	}
	p := &Provider{
		host:     or(opts.Host, DefaultHost),
		endpoint: endpoint,
		auth:     auth,
		redactor: redact.New(opts.APIKey),
		agent:    or(opts.UserAgent, DefaultUserAgent),
		timeout:  opts.Timeout,
		client:   pinnedClient(opts.HTTPClient, host),
		log:      opts.Logger,
		now:      time.Now,
	}
	if p.timeout == 0 {
		p.timeout = DefaultTimeout
	}
	if p.log == nil {
		p.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return p, nil
}

// Ref is the coordinate this provider serves.
func (p *Provider) Ref() *forgev1.ForgeRef {
	return &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_LINEAR, Host: p.host}
}

// parseEndpoint checks the API URL and returns it with its host (the one
// egress is pinned to). A credential must not travel in clear text to a
// remote host, so http is for loopback test servers only.
func parseEndpoint(raw string) (endpoint, host string, err error) {
	raw = or(raw, DefaultAPIURL)
	u, err := url.Parse(raw)
	if err != nil {
		return "", "", fmt.Errorf("APIURL %q: %w", raw, err)
	}
	if u.Host == "" || u.User != nil || u.Fragment != "" {
		return "", "", fmt.Errorf("APIURL %q must be an absolute URL without user info or fragment", raw)
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !isLoopback(u.Hostname()) {
			return "", "", fmt.Errorf("APIURL %q: plain http is allowed only for loopback hosts", raw)
		}
	default:
		return "", "", fmt.Errorf("APIURL %q: scheme must be https", raw)
	}
	return u.String(), strings.ToLower(u.Host), nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// pinnedClient copies base (or builds a client) so that redirects are
// returned instead of followed (a 301 must not turn a POST into a GET that
// silently does nothing) and every request is refused unless it goes to host.
func pinnedClient(base *http.Client, host string) *http.Client {
	c := &http.Client{}
	if base != nil {
		*c = *base
	}
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport.(*http.Transport).Clone()
	}
	c.Transport = pinnedTransport{host: host, next: next}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return c
}

// pinnedTransport refuses any request to a host other than the API's.
type pinnedTransport struct {
	host string
	next http.RoundTripper
}

func (t pinnedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if got := strings.ToLower(r.URL.Host); got != t.host {
		return nil, fmt.Errorf("egress to %q refused: this provider talks only to %q", got, t.host)
	}
	return t.next.RoundTrip(r)
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
