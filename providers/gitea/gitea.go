// Package gitea is the Gitea and Forgejo provider, through Gitea's Go SDK.
//
// Forgejo began as a fork of Gitea and keeps serving Gitea's v1 REST API,
// so one provider serves both; Flavor says which one an instance is, for
// the forge coordinate and for the words of its answers. Where Forgejo
// diverges, the provider says so:
//
//   - version: Forgejo reports its own version ("11.0.1+gitea-1.22.0"),
//     which the SDK's version gates would misread. The provider never asks
//     the server for its version (SetGiteaVersion("")): no request at
//     start, so a gateway starts while the forge is down, and no gate
//     silently downgrading a call.
//   - CI: forgetools reads and re-runs CI through Gitea's Actions run API
//     (runs, their jobs, job logs, re-run; Gitea 1.26 and later). Forgejo's
//     Actions API has its own shapes, so on Forgejo those arms answer
//     unimplemented in so many words rather than decode one shape as the
//     other; starting a workflow (workflow dispatch) is the same on both.
//     A Gitea that serves no run API (older), or a repository with Actions
//     disabled, answers unimplemented too, after checking the repository
//     exists; a run that does not exist is not_found.
//
// One Provider serves one instance. Its HTTP client only ever talks to the
// instance's host (providers/internal/rest), every operation runs under a
// timeout (the SDK takes its context per client, so each operation gets a
// client of its own over the shared HTTP client), and failures become
// *toolserver.Error values with the gateway's codes (errors.go).
package gitea

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"regexp"
	"strings"
	"time"

	sdk "code.gitea.io/sdk/gitea"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/internal/redact"
	"github.com/forgetools/forgetools/providers/internal/rest"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// Flavor is which forge of the Gitea family an instance runs.
type Flavor string

const (
	Gitea   Flavor = "gitea"
	Forgejo Flavor = "forgejo"
)

const (
	// DefaultTimeout bounds each provider operation when Options.Timeout is zero.
	DefaultTimeout = kit.DefaultTimeout
	// DefaultUserAgent is sent when Options.UserAgent is empty.
	DefaultUserAgent = kit.DefaultUserAgent
)

// DefaultHost is each flavor's public instance, the host when Options.Host
// is empty: gitea.com and Codeberg.
func (f Flavor) DefaultHost() string {
	if f == Forgejo {
		return "codeberg.org"
	}
	return "gitea.com"
}

// Name is the forge's name as its users write it.
func (f Flavor) Name() string {
	if f == Forgejo {
		return "Forgejo"
	}
	return "Gitea"
}

// Options configures a Provider. Host is the instance host; empty = the
// flavor's DefaultHost. Its API is https://HOST/api/v1/, and an APIURL is
// scheme://host[:port][/prefix]/api/v1/. ReviewerToken lets a pull request
// opened with Token be approved (Gitea refuses a verdict on your own pull
// request).
type Options struct {
	kit.Options
	// Flavor is Gitea (the default) or Forgejo.
	Flavor Flavor
}

// Provider is one configured Gitea or Forgejo instance.
type Provider struct {
	gatewayv1handler.UnimplementedForgeHandler

	flavor   Flavor
	host     string
	root     string // the instance root the SDK appends /api/v1 to
	http     *http.Client
	token    string
	reviewer string
	ua       string
	timeout  time.Duration
	redactor *redact.Redactor // both credentials
	log      *slog.Logger
	now      func() time.Time
	errs     *rest.Forge // how failures are worded
}

var (
	_ toolserver.Explainer                      = (*Provider)(nil)
	_ gatewayv1handler.ForgeIssuesHandler       = (*Provider)(nil)
	_ gatewayv1handler.ForgePullRequestsHandler = (*Provider)(nil)
	_ gatewayv1handler.ForgeReviewsHandler      = (*Provider)(nil)
	_ gatewayv1handler.ForgeRepositoryHandler   = (*Provider)(nil)
	_ gatewayv1handler.ForgePushHandler         = (*Provider)(nil)
	_ gatewayv1handler.ForgeCiHandler           = (*Provider)(nil)
)

// New returns a Provider, or an error naming the bad option. It sends
// nothing: a forge that is down answers its calls unavailable, and the
// gateway serving it starts regardless.
func New(o Options) (*Provider, error) {
	flavor := o.Flavor
	if flavor == "" {
		flavor = Gitea
	}
	if flavor != Gitea && flavor != Forgejo {
		return nil, fmt.Errorf("flavor %q is not gitea or forgejo", flavor)
	}
	c, err := o.Open(kit.Forge{DefaultHost: flavor.DefaultHost(), APIURL: func(host string) string { return "https://" + host + "/api/v1/" }})
	if err != nil {
		return nil, err
	}
	root, ok := strings.CutSuffix(c.Base.Path, "/api/v1/")
	if !ok {
		return nil, fmt.Errorf("api_url %q must end in /api/v1 (the SDK addresses the API below the instance root)", c.Base.Redacted())
	}
	rootURL := *c.Base
	rootURL.Path = root
	p := &Provider{
		flavor: flavor, host: c.Host, root: rootURL.String(), http: c.Client(c.Transport),
		token: c.Token, reviewer: c.ReviewerToken, ua: c.UserAgent,
		timeout: c.Timeout, log: c.Log, now: c.Now, redactor: c.Redactor,
	}
	if p.reviewer == "" {
		p.reviewer = c.Token
	}
	p.errs = p.errorWords()
	return p, nil
}

// Ref is the coordinate this provider serves.
func (p *Provider) Ref() *forgev1.ForgeRef {
	prov := forgev1.ForgeProvider_FORGE_PROVIDER_GITEA
	if p.flavor == Forgejo {
		prov = forgev1.ForgeProvider_FORGE_PROVIDER_FORGEJO
	}
	return &forgev1.ForgeRef{Provider: prov, Host: p.host}
}

// Unsupported words the capabilities the Gitea family lacks; the gateway
// goes on ", so ARM cannot run on forge F".
func (p *Provider) Unsupported(capability string) string {
	if capability == "change_notifications" {
		return fmt.Sprintf("%s delivers no change notifications to forgetools (read the issue or pull request again to see changes)", p.flavor.Name())
	}
	return ""
}

// client is an SDK client for one operation: the SDK takes its context per
// client, not per call. It sends nothing until used.
func (p *Provider) client(ctx context.Context, token string) *sdk.Client {
	c, err := sdk.NewClient(p.root,
		sdk.SetHTTPClient(p.http), sdk.SetToken(token), sdk.SetUserAgent(p.ua),
		sdk.SetGiteaVersion(""), sdk.SetContext(ctx))
	if err != nil {
		// With the version check off, NewClient has no way to fail.
		panic(fmt.Sprintf("gitea: sdk client: %v", err))
	}
	return c
}

// call runs op with an author client under the provider's timeout and maps
// its failure.
func call[T any](ctx context.Context, p *Provider, what string, op func(c *sdk.Client) (T, error)) (T, error) {
	return callAs(ctx, p, p.token, what, op)
}

func callAs[T any](ctx context.Context, p *Provider, token, what string, op func(c *sdk.Client) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	v, err := op(p.client(ctx, token))
	if err != nil {
		var zero T
		e := p.mapError(what, err)
		p.log.DebugContext(ctx, "gitea call failed", "forge", p.flavor, "host", p.host, "op", what, "code", e.Code.String())
		return zero, e
	}
	return v, nil
}

// repoName is an "owner/name" split and checked. Both parts go into URL
// paths, so anything that could change the path is refused, not escaped.
type repoName struct{ owner, name string }

var repoPart = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,100}$`)

func (p *Provider) parseRepo(repo string) (repoName, error) {
	owner, name, ok := strings.Cut(repo, "/")
	if !ok || !validPart(owner) || !validPart(name) {
		return repoName{}, toolserver.InvalidArgument("repo %q is not a %s repository: want owner/name (letters, digits, '-', '_', '.')", repo, p.flavor.Name())
	}
	return repoName{owner, name}, nil
}

func validPart(s string) bool { return repoPart.MatchString(s) && strings.Trim(s, ".") != "" }

func (r repoName) String() string { return r.owner + "/" + r.name }

// target is a call's repository and issue or pull request number, checked.
func (p *Provider) target(repoArg string, n uint64, kind string) (repoName, int64, error) {
	repo, err := p.parseRepo(repoArg)
	if err != nil {
		return repoName{}, 0, err
	}
	num, err := number(n, kind)
	return repo, num, err
}

// number converts a validated wire number to the SDK's int64.
func number(n uint64, kind string) (int64, error) {
	if n == 0 || n > math.MaxInt32 {
		return 0, toolserver.InvalidArgument("%s number %d is out of range", kind, n)
	}
	return int64(n), nil
}

const (
	// pageSize is Gitea's default maximum page (MAX_RESPONSE_ITEMS = 50).
	pageSize = 50
	// pageLimit bounds how many pages one read follows.
	pageLimit = 10
	// defaultListLimit is the wire's "omitted = 30".
	defaultListLimit = 30
)

// collect reads pages of pageSize until a short or last page, for at most
// pageLimit pages.
func collect[T any](fetch func(sdk.ListOptions) ([]T, *sdk.Response, error)) ([]T, error) {
	return kit.Collect(pageLimit, func(next int) (kit.Page[T, int], error) {
		o := sdk.ListOptions{Page: max(next, 1), PageSize: pageSize}
		items, resp, err := fetch(o)
		if err != nil {
			return kit.Page[T, int]{}, fail(resp, err)
		}
		if resp != nil && resp.NextPage == 0 && resp.Header.Get("Link") != "" {
			return kit.Page[T, int]{Items: items}, nil // the Link header says it is the last
		}
		return kit.Page[T, int]{Items: items, Next: following(o, len(items))}, nil
	})
}

// following is the page after o's when it came back full (got items);
// 0 when a short page says it was the last.
func following(o sdk.ListOptions, got int) int {
	if got < o.PageSize {
		return 0
	}
	return o.Page + 1
}
