package rest

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// maxRedirects bounds the same-host redirects a read follows (GitHub answers
// a read of a renamed repository with a 301 to /repositories/ID/...).
const maxRedirects = 5

// EgressError is a request a provider refused because it would leave the
// configured API host.
type EgressError struct {
	Target   string // scheme://host the request was bound for
	Pinned   string // scheme://host the provider is pinned to
	Redirect bool
}

func (e *EgressError) Error() string {
	if e.Redirect {
		return fmt.Sprintf("refused to follow a redirect to %s: this forge is pinned to %s", e.Target, e.Pinned)
	}
	return fmt.Sprintf("refused a request to %s: this forge is pinned to %s", e.Target, e.Pinned)
}

// PinnedClient is an HTTP client that only ever talks to base's scheme and
// host, over rt, and follows same-host redirects on reads only.
func PinnedClient(base *url.URL, rt http.RoundTripper) *http.Client {
	return &http.Client{
		Transport:     &pinnedTransport{scheme: base.Scheme, host: base.Host, next: rt},
		CheckRedirect: redirectPolicy(base),
	}
}

// pinnedTransport refuses every request whose scheme or host is not the
// API's. It is the last check before the network: whatever built the URL
// (a client library, a redirect, a URL taken from a response), nothing and
// no credential reaches another host.
type pinnedTransport struct {
	scheme, host string
	next         http.RoundTripper
}

func (t *pinnedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if !t.allows(r.URL) {
		if r.Body != nil {
			r.Body.Close() // RoundTrip owns the body, even when refusing.
		}
		return nil, &EgressError{Target: origin(r.URL), Pinned: t.scheme + "://" + t.host}
	}
	return t.next.RoundTrip(r)
}

func (t *pinnedTransport) allows(u *url.URL) bool {
	return u.Scheme == t.scheme && strings.EqualFold(u.Host, t.host)
}

// redirectPolicy follows same-host redirects on reads only. A redirect on a
// write is returned as-is (the client library reports the 3xx): Go would
// otherwise turn a POST answered with 301 into a GET that succeeds and
// writes nothing, and the caller would be told the write happened.
func redirectPolicy(base *url.URL) func(*http.Request, []*http.Request) error {
	pin := &pinnedTransport{scheme: base.Scheme, host: base.Host}
	return func(next *http.Request, via []*http.Request) error {
		if !pin.allows(next.URL) {
			return &EgressError{Target: origin(next.URL), Pinned: origin(base), Redirect: true}
		}
		if m := via[0].Method; m != http.MethodGet && m != http.MethodHead {
			return http.ErrUseLastResponse
		}
		if len(via) > maxRedirects {
			return fmt.Errorf("stopped after %d redirects", maxRedirects)
		}
		return nil
	}
}

func origin(u *url.URL) string { return u.Scheme + "://" + u.Host }
