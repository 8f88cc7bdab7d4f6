package rest

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// MaxRedirects bounds the redirects a read follows (GitHub answers a read
// of a renamed repository with a 301 to /repositories/ID/...).
const MaxRedirects = 5

// EgressError is a request a provider refused because it would leave where
// its client is pinned.
type EgressError struct {
	Target   string // scheme://host the request was bound for
	Pinned   string // what the client is pinned to, as a refusal names it
	Redirect bool
}

func (e *EgressError) Error() string {
	if e.Redirect {
		return fmt.Sprintf("refused to follow a redirect to %s: this forge is pinned to %s", e.Target, e.Pinned)
	}
	return fmt.Sprintf("refused a request to %s: this forge is pinned to %s", e.Target, e.Pinned)
}

// PinnedClient is an HTTP client that only ever talks to base's scheme and
// host, over rt, and follows same-host redirects on reads only. Its reads
// are conditional (conditional.go): a repeated GET asks the forge whether
// the answer changed and a 304 is served from the stored answer.
func PinnedClient(base *url.URL, rt http.RoundTripper) *http.Client {
	return PinnedClientFor(Origin(base), SameOrigin(base), rt)
}

// PinnedClientFor is an HTTP client whose requests and redirects go only
// where allows says, over rt, following redirects on reads only, with
// conditional reads. pinned is how a refusal names what is allowed.
func PinnedClientFor(pinned string, allows func(*url.URL) bool, rt http.RoundTripper) *http.Client {
	return &http.Client{
		Transport:     &pinnedTransport{pinned: pinned, allows: allows, next: newConditional(rt, MaxCachedBody, MaxCacheEntries, MaxCacheBytes)},
		CheckRedirect: redirectPolicy(pinned, allows),
	}
}

// SameOrigin allows base's scheme and host only.
func SameOrigin(base *url.URL) func(*url.URL) bool {
	return func(u *url.URL) bool {
		return u.Scheme == base.Scheme && strings.EqualFold(u.Host, base.Host)
	}
}

// Origin is u's scheme://host, as refusals name it.
func Origin(u *url.URL) string { return u.Scheme + "://" + u.Host }

// RefuseRedirect is the *EgressError for a redirect to u that allows
// rejects, or nil when it accepts u. A provider that follows a redirect
// itself (one the forge answers with as a value, not a 3xx the client
// follows) checks it with this before sending anything.
func RefuseRedirect(pinned string, allows func(*url.URL) bool, u *url.URL) error {
	if allows(u) {
		return nil
	}
	return &EgressError{Target: Origin(u), Pinned: pinned, Redirect: true}
}

// pinnedTransport refuses every request whose origin allows rejects. It is
// the last check before the network: whatever built the URL (a client
// library, a redirect, a URL taken from a response), nothing and no
// credential reaches another host. It is also the first reader of every
// answer, and caps its body (bodycap.go).
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
		return nil, &EgressError{Target: Origin(r.URL), Pinned: t.pinned}
	}
	resp, err := t.next.RoundTrip(r)
	capBody(resp, MaxResponseBytes)
	return resp, err
}

// redirectPolicy follows redirects that allows accepts, on reads only. A
// redirect on a write is returned as-is (the client library reports the
// 3xx): Go would otherwise turn a POST answered with 301 into a GET that
// succeeds and writes nothing, and the caller would be told the write
// happened.
func redirectPolicy(pinned string, allows func(*url.URL) bool) func(*http.Request, []*http.Request) error {
	return func(next *http.Request, via []*http.Request) error {
		if err := RefuseRedirect(pinned, allows, next.URL); err != nil {
			return err
		}
		if m := via[0].Method; m != http.MethodGet && m != http.MethodHead {
			return http.ErrUseLastResponse
		}
		if len(via) > MaxRedirects {
			return fmt.Errorf("stopped after %d redirects", MaxRedirects)
		}
		return nil
	}
}
