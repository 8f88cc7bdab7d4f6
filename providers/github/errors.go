package github

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	gh "github.com/google/go-github/v84/github"

	"github.com/forgetools/forgetools/providers/internal/rest"
	"github.com/forgetools/forgetools/toolserver"
)

// mapError turns a failure of the operation `what` into the gateway's
// in-band error. The message names the operation and what GitHub said, and
// never a credential. An operation that words its own failure (a
// *toolserver.Error) keeps its words, bounded and redacted the same way (see
// rest.Map).
func (p *Provider) mapError(what string, err error) *toolserver.Error {
	return rest.Map(what, err, p.redactor, p.classify)
}

func (p *Provider) classify(err error) *toolserver.Error {
	var (
		gate      *gateClosed
		egress    *rest.EgressError
		primary   *gh.RateLimitError
		secondary *gh.AbuseRateLimitError
		redirect  *gh.RedirectionError
		twoFactor *gh.TwoFactorAuthError
		accepted  *gh.AcceptedError
		resp      *gh.ErrorResponse
		netErr    net.Error
		urlErr    *url.Error
		syntax    *json.SyntaxError
		typeErr   *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &gate):
		return p.gateLimit(gate)
	case errors.As(err, &egress):
		return toolserver.FailedPrecondition("%v", egress)
	case errors.Is(err, context.DeadlineExceeded):
		return toolserver.Unavailable("GitHub did not answer within %s", p.timeout)
	case errors.Is(err, context.Canceled):
		return toolserver.Unavailable("canceled before GitHub answered")
	case errors.As(err, &primary):
		return p.primaryLimit(primary)
	case errors.As(err, &secondary):
		return p.secondaryLimit(secondary)
	case errors.As(err, &redirect):
		return redirected(redirect)
	case errors.As(err, &twoFactor):
		return toolserver.Unauthenticated("GitHub wants a one-time password for this credential; use a token instead")
	case errors.As(err, &accepted):
		return toolserver.Unavailable("GitHub accepted the request but has not finished preparing the answer; retry shortly")
	case errors.As(err, &resp):
		return p.byStatus(resp)
	case errors.As(err, &syntax), errors.As(err, &typeErr):
		return toolserver.Unavailable("GitHub's answer is not the JSON its API documents (%v)", err)
	case errors.As(err, &netErr), errors.As(err, &urlErr):
		return toolserver.Unavailable("GitHub unreachable: %v", err)
	default:
		return toolserver.Internal("%v", err)
	}
}

// primaryLimit is the hourly quota running out (x-ratelimit-remaining: 0).
func (p *Provider) primaryLimit(e *gh.RateLimitError) *toolserver.Error {
	wait, ok := headerWait(e.Response, p.now())
	if !ok {
		wait = e.Rate.Reset.Sub(p.now())
	}
	return limited(fmt.Sprintf("GitHub rate limit exhausted (%s: %d requests an hour): %s",
		resource(e.Rate.Resource), e.Rate.Limit, e.Message), wait)
}

// secondaryLimit is GitHub's abuse protection (too many requests at once or
// content created too fast). Without a wait in the answer, wait stays 0 and
// limited() applies the one-minute rule: go-github's own fallback (until
// x-ratelimit-reset, which every answer carries for the hourly window)
// would wait up to an hour for nothing.
func (p *Provider) secondaryLimit(e *gh.AbuseRateLimitError) *toolserver.Error {
	wait, _ := headerWait(e.Response, p.now())
	return limited("GitHub secondary rate limit: "+e.Message, wait)
}

// gateLimit is a request the rate gate refused without sending it.
func (p *Provider) gateLimit(e *gateClosed) *toolserver.Error {
	return limited(e.Error(), e.until.Sub(p.now()))
}

// limited is resource_exhausted with GitHub's wait, rounded to whole
// seconds; a wait GitHub did not name (or one already past) is the
// guide's minute (see rest.Limited).
func limited(msg string, wait time.Duration) *toolserver.Error { return rest.Limited(msg, wait) }

// headerWait reads how long GitHub asked to back off, per its rate-limit
// guide: retry-after seconds; or until x-ratelimit-reset when
// x-ratelimit-remaining is 0; the longer of the two when both are given.
// ok is false when the answer names neither.
func headerWait(r *http.Response, now time.Time) (d time.Duration, ok bool) {
	if r == nil {
		return 0, false
	}
	h := r.Header
	d, ok = rest.RetryAfter(h, now)
	if h.Get(gh.HeaderRateRemaining) == "0" {
		// Both waits are clamped at rest.MaxWait: a garbled header can
		// neither overflow nor silence GitHub for longer than an hour.
		if reset, found := rest.ResetWait(h, gh.HeaderRateReset, now); found {
			d, ok = max(d, reset), true
		}
	}
	return d, ok
}

func resource(r string) string {
	if r == "" {
		return "core"
	}
	return r
}

func redirected(e *gh.RedirectionError) *toolserver.Error {
	method := "a write"
	if e.Response != nil && e.Response.Request != nil {
		method = e.Response.Request.Method
	}
	if e.StatusCode == http.StatusMovedPermanently || e.StatusCode == http.StatusPermanentRedirect {
		return toolserver.FailedPrecondition("repository moved: GitHub answered %s with %d %s (renamed or transferred); nothing was written, use the repository's new owner/name",
			method, e.StatusCode, http.StatusText(e.StatusCode))
	}
	return toolserver.FailedPrecondition("GitHub answered %s with a %d redirect, which is not followed on writes; nothing was written",
		method, e.StatusCode)
}

// byStatus maps an error GitHub answered with a status and (usually) a JSON
// body {message, errors[], documentation_url}.
func (p *Provider) byStatus(e *gh.ErrorResponse) *toolserver.Error {
	status := 0
	if e.Response != nil {
		status = e.Response.StatusCode
	}
	msg := fmt.Sprintf("GitHub answered %d %s", status, http.StatusText(status))
	// GitHub's message often only repeats the status text.
	if d := strings.TrimPrefix(detail(e), http.StatusText(status)+": "); d != "" && d != http.StatusText(status) {
		msg += ": " + d
	}
	switch {
	case status == http.StatusBadRequest, status == http.StatusUnprocessableEntity:
		return toolserver.InvalidArgument("%s", msg)
	case status == http.StatusUnauthorized:
		return toolserver.Unauthenticated("%s (the configured token is missing, expired or revoked)", msg)
	case status == http.StatusForbidden || status == http.StatusTooManyRequests:
		// A 429, or a 403 that names a wait, is a rate limit whose body
		// go-github did not recognise (it keys on documentation_url).
		if status == http.StatusTooManyRequests || e.Response.Header.Get("Retry-After") != "" {
			wait, _ := headerWait(e.Response, p.now())
			return limited(msg, wait)
		}
		return toolserver.PermissionDenied("%s", msg)
	case status == http.StatusNotFound:
		return toolserver.NotFound("%s (it does not exist, or the credential cannot see it)", msg)
	case status == http.StatusConflict, status == http.StatusGone, status == http.StatusMethodNotAllowed:
		// 405 is how GitHub says an operation cannot be done in the
		// artifact's present state (a pull request that cannot be merged).
		return toolserver.FailedPrecondition("%s", msg)
	case status == http.StatusUnavailableForLegalReasons:
		return toolserver.PermissionDenied("%s", msg)
	case status >= 500:
		return toolserver.Unavailable("%s", msg)
	default:
		return toolserver.Internal("%s", msg)
	}
}

// answered is the HTTP status GitHub answered err with (0 when err is not
// an error answer) and what it said, flattened as detail does. Operations
// use it to word the failures an agent acts on.
func answered(err error) (status int, said string) {
	var resp *gh.ErrorResponse
	if !errors.As(err, &resp) || resp.Response == nil {
		return 0, ""
	}
	return resp.Response.StatusCode, detail(resp)
}

// detail flattens GitHub's error body into one line: the message, then each
// entry of errors[] as "Resource.field (code): message".
func detail(e *gh.ErrorResponse) string {
	parts := make([]string, 0, len(e.Errors))
	for _, x := range e.Errors {
		var b strings.Builder
		b.WriteString(strings.Trim(x.Resource+"."+x.Field, "."))
		if x.Code != "" {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("(" + x.Code + ")")
		}
		if x.Message != "" {
			if b.Len() > 0 {
				b.WriteString(": ")
			}
			b.WriteString(x.Message)
		}
		if b.Len() > 0 {
			parts = append(parts, b.String())
		}
	}
	out := strings.TrimSpace(e.Message)
	if len(parts) > 0 {
		if out != "" {
			out += ": "
		}
		out += strings.Join(parts, "; ")
	}
	return strings.Join(strings.Fields(out), " ")
}
