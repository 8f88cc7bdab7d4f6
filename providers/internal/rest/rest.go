// Package rest is what the REST forge providers (GitHub, Gitea and
// Forgejo, GitLab) share below their client libraries: an HTTP client
// pinned to the configured API host (or to hosts a provider names) that
// never follows a redirect on a write, the check of a configured API URL,
// the reading of a forge's rate-limit answer into the wait the gateway
// reports in-band, and error messages bounded and redacted of every form
// of a credential.
package rest

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/forgetools/forgetools/internal/redact"
	"github.com/forgetools/forgetools/toolserver"
)

// HostPattern is ForgeRef.host's rule, lower case: a DNS name with an
// optional port and nothing else (no scheme, path or credentials).
var HostPattern = regexp.MustCompile(`^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]{1,5})?$`)

// Host lower-cases and checks a configured host; "" is def. Errors name
// the option, not the forge: the caller says which forge it configures.
func Host(host, def string) (string, error) {
	h := strings.ToLower(strings.TrimSpace(host))
	if h == "" {
		h = def
	}
	if !HostPattern.MatchString(h) {
		return "", fmt.Errorf("host %q is not a host name (no scheme or path; use api_url for a full URL)", host)
	}
	return h, nil
}

// APIURL parses and checks an API base URL: scheme://host[:port]/path with
// no credentials, query or fragment, https unless the host is loopback (so
// a token never crosses a network in clear text). The path ends in "/".
// A refusal never repeats a credential the URL holds.
func APIURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		// url.Parse repeats the whole URL, credentials and all; keep its reason only.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("api_url is not a URL: %v", err)
	}
	shown := u.Redacted()
	switch {
	case u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "":
		return nil, fmt.Errorf("api_url %q must be scheme://host[:port]/path with no credentials, query or fragment", shown)
	case u.Scheme == "http" && !IsLoopback(u.Hostname()):
		return nil, fmt.Errorf("api_url %q uses plain http on a non-loopback host; use https", shown)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("api_url %q: scheme must be https", shown)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u, nil
}

// IsLoopback reports a host name or address that never leaves the machine.
func IsLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

const (
	// UnspecifiedWait is how long to back off from a rate limit that
	// names no time: a minute, as GitHub's guide says and GitLab's and
	// Gitea's limits (per minute) make safe.
	UnspecifiedWait = time.Minute
	// MaxWait caps a requested wait: quota windows are an hour at most,
	// so a longer one is a garbled header, not advice.
	MaxWait = time.Hour
)

// RetryAfter reads a Retry-After header (seconds or an HTTP date) as a
// wait from now, at most MaxWait; ok is false when there is none.
func RetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	s := strings.TrimSpace(h.Get("Retry-After"))
	if s == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		// Clamped before the multiplication, which would overflow.
		return time.Duration(min(max(n, 0), int64(MaxWait/time.Second))) * time.Second, true
	}
	if t, err := http.ParseTime(s); err == nil {
		return min(t.Sub(now), MaxWait), true
	}
	return 0, false
}

// ResetWait reads a header holding a Unix time (x-ratelimit-reset,
// RateLimit-Reset) as a wait from now, at most MaxWait; ok is false when
// it holds none.
func ResetWait(h http.Header, name string, now time.Time) (time.Duration, bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(h.Get(name)), 10, 64)
	if err != nil || n <= 0 {
		return 0, false
	}
	// Clamped as seconds, before time.Unix: a garbled, huge value would
	// overflow there, into the past (no wait at all) or centuries ahead.
	reset := time.Unix(min(n, now.Add(MaxWait).Unix()), 0)
	return reset.Sub(now), true
}

// Limited is resource_exhausted with the wait rounded to whole seconds; a
// wait the forge did not name (or one already past) is UnspecifiedWait.
// The wait travels as RetryAfter; the renderer states it once, in ms.
func Limited(msg string, wait time.Duration) *toolserver.Error {
	if wait <= 0 {
		wait = UnspecifiedWait
	}
	wait = min(max(wait.Round(time.Second), time.Second), MaxWait)
	e := toolserver.ResourceExhausted("%s", msg)
	e.RetryAfter = wait
	return e
}

// MaxMessage bounds an error message built from a response body, which the
// forge (or whatever answered in its place) controls.
const MaxMessage = 2000

// Clean makes msg safe to return: valid UTF-8, every form and piece of a
// credential r knows redacted (see package redact), cut at MaxMessage
// bytes on a character boundary (proto strings stay UTF-8).
func Clean(msg string, r *redact.Redactor) string {
	return r.Message(strings.ToValidUTF8(msg, "\uFFFD"), MaxMessage)
}

// OneLine flattens a forge's message to one line of single spaces.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
