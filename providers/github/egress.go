package github

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// maxRedirects bounds the same-host redirects a read follows (GitHub answers
// a read of a renamed repository with a 301 to /repositories/ID/...).
const maxRedirects = 5

// egressError is a request the provider refused because it would leave the
// configured API host.
type egressError struct {
	target   string // scheme://host the request was bound for
	pinned   string // scheme://host the provider is pinned to
	redirect bool
}

func (e *egressError) Error() string {
	if e.redirect {
		return fmt.Sprintf("refused to follow a redirect to %s: this forge is pinned to %s", e.target, e.pinned)
	}
	return fmt.Sprintf("refused a request to %s: this forge is pinned to %s", e.target, e.pinned)
}

// pinnedTransport refuses every request whose origin allows rejects. It is
// the last check before the network: whatever built the URL (go-github, a
// redirect, a URL taken from a response), nothing and no credential reaches
// another host.
type pinnedTransport struct {
	pinned string // what a refusal names as allowed
	allows func(*url.URL) bool
	next   http.RoundTripper
}

func (t *pinnedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if !t.allows(r.URL) {
		if r.Body != nil {
			r.Body.Close() // RoundTrip owns the body, even when refusing.
		}
		return nil, &egressError{target: origin(r.URL), pinned: t.pinned}
	}
	return t.next.RoundTrip(r)
}

// sameOrigin allows base's scheme and host only.
func sameOrigin(base *url.URL) func(*url.URL) bool {
	return func(u *url.URL) bool {
		return u.Scheme == base.Scheme && strings.EqualFold(u.Host, base.Host)
	}
}

// redirectPolicy follows redirects that allows accepts, on reads only. A
// redirect on a write is returned as-is (go-github reports it as a
// RedirectionError): Go would otherwise turn a POST answered with 301 into a
// GET that succeeds and writes nothing, and the caller would be told the
// write happened.
func redirectPolicy(pinned string, allows func(*url.URL) bool) func(*http.Request, []*http.Request) error {
	return func(next *http.Request, via []*http.Request) error {
		if !allows(next.URL) {
			return &egressError{target: origin(next.URL), pinned: pinned, redirect: true}
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

// pinnedClient is an HTTP client whose requests and redirects stay where
// allows says, over rt.
func pinnedClient(pinned string, allows func(*url.URL) bool, rt http.RoundTripper) *http.Client {
	return &http.Client{
		Transport:     &pinnedTransport{pinned: pinned, allows: allows, next: rt},
		CheckRedirect: redirectPolicy(pinned, allows),
	}
}

func origin(u *url.URL) string { return u.Scheme + "://" + u.Host }
