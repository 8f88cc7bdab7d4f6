package linear

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/forgetools/forgetools/toolserver"
)

// Bounds on the retry hint: Linear's reset headers are absolute times, so a
// skewed clock could otherwise yield zero (no hint at all) or hours.
const (
	minRetry     = time.Second
	maxRetry     = time.Hour
	defaultRetry = time.Minute // rate-limited with no usable header
	maxMessage   = 1000
)

// errKind is what one GraphQL error means, in priority order: when Linear
// returns several errors the lowest kind decides the code, so a rate limit
// is never reported as the input error it caused.
type errKind int

const (
	kindNone errKind = iota
	kindRateLimited
	kindAuth
	kindForbidden
	kindNotFound
	kindExists
	kindQuota
	kindInvalid
	kindTransient
	kindQuery
	kindOther
)

// kindOf reads Linear's classification: extensions.code (RATELIMITED,
// AUTHENTICATION_ERROR, FORBIDDEN, INPUT_ERROR, ...) and extensions.type
// (the SDK's vocabulary: "ratelimited", "authentication error", "invalid
// input", ...). Linear reports a missing entity as an input error whose
// message starts "Entity not found", so that is checked before the type.
func kindOf(e gqlError) errKind {
	code := strings.ToUpper(e.Extensions.Code)
	typ := strings.ToLower(e.Extensions.Type)
	msg := strings.ToLower(e.Message)
	switch {
	case code == "RATELIMITED" || typ == "ratelimited":
		return kindRateLimited
	case code == "AUTHENTICATION_ERROR" || typ == "authentication error":
		return kindAuth
	case code == "FORBIDDEN" || typ == "forbidden" || typ == "feature not accessible":
		return kindForbidden
	case code == "ENTITY_NOT_FOUND" || strings.HasPrefix(msg, "entity not found"):
		return kindNotFound
	case strings.Contains(msg, "already exists") || strings.Contains(msg, "duplicate key") ||
		strings.Contains(msg, "unique constraint"):
		return kindExists
	case code == "USAGE_LIMIT_EXCEEDED" || typ == "usage limit exceeded":
		return kindQuota
	case code == "INPUT_ERROR" || code == "INVALID_INPUT" || code == "BAD_USER_INPUT" ||
		typ == "invalid input" || typ == "user error":
		return kindInvalid
	case code == "INTERNAL_SERVER_ERROR" || code == "LOCK_TIMEOUT" || typ == "lock timeout" ||
		typ == "internal error" || typ == "network error" || typ == "bootstrap error":
		return kindTransient
	case code == "GRAPHQL_VALIDATION_FAILED" || code == "GRAPHQL_PARSE_FAILED" || typ == "graphql error":
		return kindQuery
	}
	return kindOther
}

// classify maps an HTTP status and Linear's errors[] to an in-band error,
// or nil when the answer is a success. Linear answers most failures with
// HTTP 200 or 400 and an errors[] entry, rate limits included, so the
// errors decide before the status does; a 401, a 429, a 5xx or a redirect
// decide on their own.
func (p *Provider) classify(op string, status int, h http.Header, errs []gqlError) *toolserver.Error {
	kind := kindNone
	for _, e := range errs {
		if k := kindOf(e); kind == kindNone || k < kind {
			kind = k
		}
	}
	detail := p.detail(status, errs)
	fail := func(as func(string, ...any) *toolserver.Error, what string) *toolserver.Error {
		return as("linear %s: %s: %s", op, what, detail)
	}
	switch {
	case status >= 300 && status < 400:
		return toolserver.FailedPrecondition("linear %s: Linear answered HTTP %d redirecting to %q; redirects are not followed on POST and nothing was written, check the configured api_url",
			op, status, p.clip(h.Get("Location"), 200))
	case kind == kindRateLimited || status == http.StatusTooManyRequests:
		e := fail(toolserver.ResourceExhausted, "rate limited")
		e.RetryAfter = retryAfter(h, p.now())
		return e
	case kind == kindAuth || status == http.StatusUnauthorized:
		return fail(toolserver.Unauthenticated, "Linear rejected the credential")
	case status >= 500:
		return fail(toolserver.Unavailable, "Linear is unavailable")
	case kind == kindForbidden || status == http.StatusForbidden:
		return fail(toolserver.PermissionDenied, "not allowed")
	case kind == kindNotFound:
		return fail(toolserver.NotFound, "not found")
	case kind == kindExists:
		return fail(toolserver.AlreadyExists, "already exists")
	case kind == kindQuota:
		return fail(toolserver.ResourceExhausted, "Linear usage limit reached")
	case kind == kindInvalid:
		return fail(toolserver.InvalidArgument, "Linear rejected the input")
	case kind == kindTransient:
		return fail(toolserver.Unavailable, "Linear failed temporarily")
	case kind == kindQuery:
		return fail(toolserver.Internal, "Linear rejected forgetools' query")
	case kind == kindOther:
		return fail(toolserver.Internal, "Linear returned an error")
	case status == http.StatusNotFound:
		return fail(toolserver.FailedPrecondition, "no GraphQL endpoint at the configured api_url")
	case status != http.StatusOK:
		return fail(toolserver.Internal, "unexpected answer")
	}
	return nil
}

// detail is the people-facing part of a failure: Linear's messages (with
// the user-presentable wording when it adds something), or the HTTP status.
func (p *Provider) detail(status int, errs []gqlError) string {
	var parts []string
	for i, e := range errs {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(errs)-i))
			break
		}
		m := strings.TrimSpace(e.Message)
		if u := strings.TrimSpace(e.Extensions.UserPresentableMessage); u != "" && u != m {
			if m == "" {
				m = u
			} else {
				m += " (" + u + ")"
			}
		}
		if c := e.Extensions.Code; c != "" {
			m += " [" + c + "]"
		}
		parts = append(parts, strings.TrimSpace(m))
	}
	if len(parts) == 0 {
		return fmt.Sprintf("HTTP %d", status)
	}
	return p.clip(strings.Join(parts, "; "), maxMessage)
}

// clip redacts the credential (in any encoding, or in pieces; see
// internal/redact) and bounds the length of text that came from the wire.
func (p *Provider) clip(s string, max int) string { return p.redactor.Message(s, max) }

// redact removes the credential from text that came from outside: a
// misbehaving server or proxy could echo the Authorization header back.
func (p *Provider) redact(s string) string { return p.redactor.String(s) }

// rateDimensions are Linear's budgets: each has a remaining count and a
// reset time in UTC epoch milliseconds.
var rateDimensions = [...]struct{ remaining, reset string }{
	{"X-RateLimit-Requests-Remaining", "X-RateLimit-Requests-Reset"},
	{"X-RateLimit-Complexity-Remaining", "X-RateLimit-Complexity-Reset"},
	{"X-RateLimit-Endpoint-Requests-Remaining", "X-RateLimit-Endpoint-Requests-Reset"},
}

// retryAfter is how long a rate-limited caller should wait: Retry-After
// (seconds) when present, else the latest reset among the exhausted budgets
// (or among all budgets when none reads zero), bounded to [1s, 1h].
func retryAfter(h http.Header, now time.Time) time.Duration {
	if s := strings.TrimSpace(h.Get("Retry-After")); s != "" {
		if secs, err := strconv.ParseFloat(s, 64); err == nil && secs > 0 {
			return bound(time.Duration(min(secs, maxRetry.Seconds()) * float64(time.Second)))
		}
	}
	var exhausted, latest time.Time
	for _, d := range rateDimensions {
		reset, ok := parseReset(h.Get(d.reset))
		if !ok {
			continue
		}
		if reset.After(latest) {
			latest = reset
		}
		if h.Get(d.remaining) == "0" && reset.After(exhausted) {
			exhausted = reset
		}
	}
	switch {
	case !exhausted.IsZero():
		return bound(exhausted.Sub(now))
	case !latest.IsZero():
		return bound(latest.Sub(now))
	}
	return defaultRetry
}

// parseReset reads an epoch timestamp. Linear documents milliseconds; a
// value too small to be milliseconds since 1973 is read as seconds.
func parseReset(s string) (time.Time, bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n <= 0 {
		return time.Time{}, false
	}
	if n < 1e11 {
		return time.Unix(n, 0), true
	}
	return time.UnixMilli(n), true
}

func bound(d time.Duration) time.Duration {
	return min(max(d, minRetry), maxRetry)
}
