// Package kit is what every remote forge provider (GitHub, GitLab, Gitea
// and Forgejo, Linear) is configured and built with: one Options each
// provider's own Options embeds, and one constructor path, Open, that
// checks and defaults it (host, API URL, credentials, timeout, user agent,
// transport, logger, clock) and derives what no provider may forget: the
// redactor that knows every credential, and the HTTP client pinned to the
// API's origin (see providers/internal/rest). Its paging helper, Pages,
// is the one loop the providers read whole lists with.
//
// The package is outside providers/internal so that what wires providers
// (internal/cli, tests) can name the Options it fills.
package kit

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/forgetools/forgetools/internal/redact"
	"github.com/forgetools/forgetools/providers/internal/rest"
)

const (
	// DefaultTimeout bounds each provider operation when Options.Timeout is zero.
	DefaultTimeout = 30 * time.Second
	// DefaultUserAgent is sent when Options.UserAgent is empty and the
	// forge names none of its own (Forge.UserAgent).
	DefaultUserAgent = "forgetools"
)

// Options configures a remote forge provider; each provider's Options
// embeds it and adds what only that forge has.
type Options struct {
	// Host is the forge host the provider serves and reports in Ref;
	// empty = the forge's default host. A host name with an optional port,
	// nothing else (api_url takes a full URL).
	Host string
	// APIURL overrides the API URL derived from Host (the config's
	// api_url; tests point it at a local server). Plain http is accepted
	// only for loopback addresses, so a credential never crosses a network
	// in clear text.
	APIURL string
	// Token is the author credential, used for every call except reviews.
	Token string
	// ReviewerToken, when set, is used only for reviews, so a change
	// opened with Token can be approved (forges refuse a verdict from the
	// change's author). A forge without reviews refuses it.
	ReviewerToken string
	// Timeout bounds each operation, paging included; zero = DefaultTimeout.
	Timeout time.Duration
	// UserAgent is sent on every request; empty = the forge's default.
	UserAgent string
	// Transport is the base HTTP transport (tests use it to trust a test
	// certificate or to count requests); nil = a clone of
	// http.DefaultTransport. It is used, never modified: host pinning,
	// the redirect policy and authentication are layered on top of it.
	Transport http.RoundTripper
	// Logger receives debug lines about calls and degraded reads;
	// nil = slog.Default().
	Logger *slog.Logger
	// Now is the clock rate-limit waits are computed against; nil =
	// time.Now.
	Now func() time.Time
}

// Forge is what a provider tells Open about its forge.
type Forge struct {
	// DefaultHost is the host when Options.Host is empty.
	DefaultHost string
	// APIURL is the API URL for a host when Options.APIURL is empty.
	APIURL func(host string) string
	// UserAgent is the forge's default user agent; "" = DefaultUserAgent.
	UserAgent string
	// Endpoint marks an API URL that is one endpoint (Linear's GraphQL
	// URL), used as given; otherwise it is a base, whose path ends in "/".
	Endpoint bool
	// NoReviews refuses Options.ReviewerToken: the forge has no reviews.
	NoReviews string
}

// Conn is Options checked and defaulted: what a provider is built from.
type Conn struct {
	Host string
	// Base is the API URL (a base ending in "/", or Forge.Endpoint's URL).
	Base          *url.URL
	Token         string
	ReviewerToken string
	Timeout       time.Duration
	UserAgent     string
	// Transport is the base transport, below the pin; Client is the
	// pinned client over it.
	Transport http.RoundTripper
	Log       *slog.Logger
	Now       func() time.Time
	// Redactor knows both credentials, in every form a message could
	// carry them.
	Redactor *redact.Redactor
}

// Open checks o for forge f and defaults what it leaves empty, or returns
// an error naming the bad option. It sends nothing: a forge that is down
// answers its calls unavailable, and the gateway serving it starts
// regardless.
func (o Options) Open(f Forge) (*Conn, error) {
	host, err := rest.Host(o.Host, f.DefaultHost)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(o.Token) == "" {
		return nil, fmt.Errorf("no token for %s (set the environment variable the forge's token_env names)", host)
	}
	if strings.ContainsAny(o.Token+o.ReviewerToken, "\r\n") {
		return nil, errors.New("the token contains a line break")
	}
	if o.ReviewerToken != "" && f.NoReviews != "" {
		return nil, errors.New(f.NoReviews)
	}
	if o.Timeout < 0 {
		return nil, fmt.Errorf("timeout %s is negative", o.Timeout)
	}
	raw := o.APIURL
	if raw == "" {
		raw = f.APIURL(host)
	}
	base, err := rest.APIURL(raw)
	if err != nil {
		return nil, err
	}
	if f.Endpoint {
		// rest.APIURL ends a base's path in "/"; an endpoint is its URL.
		base.Path = strings.TrimSuffix(base.Path, "/")
		if strings.HasSuffix(raw, "/") {
			base.Path += "/"
		}
	}
	c := &Conn{
		Host: host, Base: base, Token: o.Token, ReviewerToken: o.ReviewerToken,
		Timeout: o.Timeout, UserAgent: first(o.UserAgent, f.UserAgent, DefaultUserAgent),
		Transport: o.Transport, Log: o.Logger, Now: o.Now,
		Redactor: redact.New(o.Token, o.ReviewerToken),
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Transport == nil {
		c.Transport = http.DefaultTransport.(*http.Transport).Clone()
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c, nil
}

// Client is an HTTP client pinned to the API's origin over next (the
// Transport, or a layer a provider puts above it): it talks to no other
// host and follows no redirect on a write (see rest.PinnedClient).
func (c *Conn) Client(next http.RoundTripper) *http.Client { return rest.PinnedClient(c.Base, next) }

func first(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
