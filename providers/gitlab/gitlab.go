// Package gitlab is the GitLab provider (gitlab.com and self-managed
// instances), through GitLab's maintained Go client.
//
// GitLab's shapes differ from the GitHub-style tools in ways the provider
// bridges in one place each:
//
//   - a repository is a project addressed by its URL-encoded full path,
//     nested groups included ("group/sub/project" is a valid repo here);
//   - issues and merge requests are keyed by their per-project iid, which
//     is the number the tools take and show;
//   - a review is an approval plus diff-anchored discussions (reviews.go);
//   - CI is pipelines (ci.go);
//   - the files API answers a write with no commit sha, so the branch head
//     is read after a write (repo.go).
//
// One Provider serves one instance. Its HTTP client only ever talks to the
// instance's host (providers/internal/rest), the client library's own
// retries and rate limiter are off (the gateway reports a rate limit
// in-band with GitLab's wait instead of sleeping through it), every
// operation runs under a timeout, and failures become *toolserver.Error
// values with the gateway's codes (errors.go).
package gitlab

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"regexp"
	"strings"
	"time"

	gl "gitlab.com/gitlab-org/api/client-go"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/internal/redact"
	"github.com/forgetools/forgetools/providers/internal/rest"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

const (
	// DefaultHost is the forge host when Options.Host is empty.
	DefaultHost = "gitlab.com"
	// DefaultTimeout bounds each provider operation when Options.Timeout is zero.
	DefaultTimeout = kit.DefaultTimeout
	// DefaultUserAgent is sent when Options.UserAgent is empty.
	DefaultUserAgent = kit.DefaultUserAgent
)

// Options configures a Provider. Host is gitlab.com (the default) or a
// self-managed host, whose API is https://HOST/api/v4/; Token is a
// personal, project or group access token, and ReviewerToken lets a merge
// request opened with Token be approved (GitLab's default rules do not let
// an author approve their own).
type Options struct {
	kit.Options
}

// Provider is one configured GitLab instance.
type Provider struct {
	gatewayv1handler.UnimplementedForgeHandler

	host     string
	author   *gl.Client
	reviewer *gl.Client
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
// nothing: an instance that is down answers its calls unavailable, and the
// gateway serving it starts regardless.
func New(o Options) (*Provider, error) {
	c, err := o.Open(kit.Forge{DefaultHost: DefaultHost, APIURL: func(host string) string { return "https://" + host + "/api/v4/" }})
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(c.Base.Path, "/api/v4/") {
		return nil, fmt.Errorf("api_url %q must end in /api/v4", c.Base.Redacted())
	}
	hc := c.Client(c.Transport)
	p := &Provider{host: c.Host, timeout: c.Timeout, log: c.Log, now: c.Now, redactor: c.Redactor}
	if p.author, err = newClient(c.Base.String(), c.Token, c.UserAgent, hc); err != nil {
		return nil, err
	}
	p.reviewer = p.author
	if c.ReviewerToken != "" {
		if p.reviewer, err = newClient(c.Base.String(), c.ReviewerToken, c.UserAgent, hc); err != nil {
			return nil, err
		}
	}
	p.errs = p.errorWords()
	return p, nil
}

// noLimit is a rate limiter that never waits: the library's own would
// sleep through GitLab's limits inside a call the gateway times.
type noLimit struct{}

func (noLimit) Wait(context.Context) error { return nil }

func newClient(base, token, ua string, hc *http.Client) (*gl.Client, error) {
	c, err := gl.NewClient(token,
		gl.WithBaseURL(base), gl.WithHTTPClient(hc), gl.WithoutRetries(),
		gl.WithCustomLimiter(noLimit{}), gl.WithUserAgent(ua))
	if err != nil {
		return nil, fmt.Errorf("GitLab client: %w", err)
	}
	return c, nil
}

// Ref is the coordinate this provider serves.
func (p *Provider) Ref() *forgev1.ForgeRef {
	return &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITLAB, Host: p.host}
}

// Unsupported words the capabilities GitLab lacks through forgetools; the
// gateway goes on ", so ARM cannot run on forge F".
func (p *Provider) Unsupported(capability string) string {
	if capability == "change_notifications" {
		return "GitLab delivers no change notifications to forgetools (read the issue or merge request again to see changes)"
	}
	return ""
}

// call runs op under the provider's timeout, with the request option that
// carries its context, and maps its failure.
func call[T any](ctx context.Context, p *Provider, what string, op func(ctx gl.RequestOptionFunc) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	v, err := op(gl.WithContext(ctx))
	if err != nil {
		var zero T
		e := p.mapError(what, err)
		p.log.DebugContext(ctx, "gitlab call failed", "host", p.host, "op", what, "code", e.Code.String())
		return zero, e
	}
	return v, nil
}

// maxDepth is GitLab's nesting limit: 20 levels of subgroups.
const maxDepth = 21

// segment is one path segment of a GitLab namespace or project path.
var segment = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$`)

// project is a "namespace/project" path, nested groups included, checked
// segment by segment. The client URL-encodes it whole ("a%2Fb%2Fc").
type project string

func parseRepo(repo string) (project, error) {
	segs := strings.Split(repo, "/")
	ok := len(segs) >= 2 && len(segs) <= maxDepth
	for _, s := range segs {
		if !segment.MatchString(s) || strings.HasSuffix(s, ".") || strings.HasSuffix(s, ".git") || strings.HasSuffix(s, ".atom") {
			ok = false
		}
	}
	if !ok {
		return "", toolserver.InvalidArgument("repo %q is not a GitLab project path: want namespace/project or group/subgroup/.../project (letters, digits, '-', '_', '.')", repo)
	}
	return project(repo), nil
}

func (r project) String() string { return string(r) }

// target is a call's project and issue or merge request iid, checked.
func target(repoArg string, n uint64, kind string) (project, int64, error) {
	repo, err := parseRepo(repoArg)
	if err != nil {
		return "", 0, err
	}
	num, err := iid(n, kind)
	return repo, num, err
}

// iid converts a validated wire number to a per-project iid.
func iid(n uint64, kind string) (int64, error) {
	if n == 0 || n > math.MaxInt32 {
		return 0, toolserver.InvalidArgument("%s number %d is out of range", kind, n)
	}
	return int64(n), nil
}

const (
	// perPage is GitLab's largest page.
	perPage = 100
	// pageLimit bounds how many pages one read follows.
	pageLimit = 10
	// defaultListLimit is the wire's "omitted = 30".
	defaultListLimit = 30
)

// collect reads pages of perPage, following X-Next-Page, for at most
// pageLimit pages.
func collect[T any](fetch func(gl.ListOptions) ([]T, *gl.Response, error)) ([]T, error) {
	return kit.Collect(pageLimit, func(next int) (kit.Page[T, int], error) {
		items, resp, err := fetch(gl.ListOptions{PerPage: perPage, Page: int64(max(next, 1))})
		if err != nil {
			return kit.Page[T, int]{}, fail(resp, err)
		}
		return kit.Page[T, int]{Items: items, Next: nextPage(resp)}, nil
	})
}

// nextPage is the page X-Next-Page names; 0 when none.
func nextPage(resp *gl.Response) int {
	if resp == nil {
		return 0
	}
	return int(resp.NextPage)
}

// firstNotes reads the first page of an issue's or merge request's notes,
// the most GitLab serves in one (system notes share the list with the
// comments the renderer shows), and never further pages; more reports
// that there are. A forge sending more than a page has the rest dropped.
func firstNotes(fetch func(gl.ListOptions) ([]*gl.Note, *gl.Response, error)) (notes []*gl.Note, more bool, err error) {
	items, resp, err := fetch(gl.ListOptions{PerPage: perPage, Page: 1})
	if err != nil {
		return nil, false, fail(resp, err)
	}
	return items[:min(len(items), perPage)], len(items) > perPage || resp != nil && resp.NextPage != 0, nil
}

// diffNotes counts the notes anchored to a diff (review comments).
func diffNotes(notes []*gl.Note) int {
	n := 0
	for _, note := range notes {
		if !note.System && note.Position != nil {
			n++
		}
	}
	return n
}

func ptr[T any](v T) *T { return &v }
