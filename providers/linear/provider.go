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
	"fmt"
	"log/slog"
	"net/http"
	"time"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/internal/redact"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// Defaults for Options.
const (
	DefaultAPIURL  = "https://api.linear.app/graphql"
	DefaultHost    = "linear.app"
	DefaultTimeout = kit.DefaultTimeout
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

// Unsupported implements toolserver.Explainer for the capabilities the
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

// Options configures a Linear provider. APIURL is the GraphQL endpoint
// (empty = DefaultAPIURL), used as given, and every request goes to its
// host and nowhere else; Host is only the forge coordinate's host (empty =
// DefaultHost). Token is a personal API key or, with Auth = AuthOAuth, an
// OAuth access token; it is sent only in the Authorization header. Linear
// has no reviews, so ReviewerToken is refused.
type Options struct {
	kit.Options
	// Auth selects the header form; empty = AuthAPIKey.
	Auth AuthKind
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
	_ toolserver.Explainer                = (*Provider)(nil)
	_ gatewayv1handler.ForgeIssuesHandler = (*Provider)(nil)
)

// New validates opts and returns a provider. It makes no network call.
func New(opts Options) (*Provider, error) {
	c, err := opts.Open(kit.Forge{
		DefaultHost: DefaultHost, APIURL: func(string) string { return DefaultAPIURL }, UserAgent: DefaultUserAgent,
		Endpoint: true, NoReviews: "Linear has no reviews, so it takes no reviewer token",
	})
	if err != nil {
		return nil, err
	}
	var auth string
	switch opts.Auth {
	case "", AuthAPIKey:
		auth = c.Token
	case AuthOAuth:
		auth = "Bearer " + c.Token
	default:
		return nil, fmt.Errorf("unknown Auth %q (want %q or %q)", opts.Auth, AuthAPIKey, AuthOAuth)
	}
	// Every call is a POST, whose redirect the pinned client never follows;
	// one to another host is returned too, not refused, so that classify
	// can name where it pointed (the pin still refuses any request there).
	client := c.Client(c.Transport)
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &Provider{
		host: c.Host, endpoint: c.Base.String(), auth: auth, redactor: c.Redactor, agent: c.UserAgent,
		timeout: c.Timeout, client: client, log: c.Log, now: c.Now,
	}, nil
}

// Ref is the coordinate this provider serves.
func (p *Provider) Ref() *forgev1.ForgeRef {
	return &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_LINEAR, Host: p.host}
}
