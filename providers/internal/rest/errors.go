package rest

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

	"github.com/forgetools/forgetools/internal/redact"
	"github.com/forgetools/forgetools/toolserver"
)

// StatusError is a client library call's failure together with the
// response it came with: libraries reduce a forge's error body to a
// message (or, for a 404, to a bare sentinel), and the status and headers
// say the rest.
type StatusError struct {
	Status int
	Header http.Header
	Method string
	Err    error
}

func (e *StatusError) Error() string { return e.Err.Error() }
func (e *StatusError) Unwrap() error { return e.Err }

// WithResponse keeps a call's response (nil when there was none) with its
// error; an error that is already a *toolserver.Error passes through.
func WithResponse(resp *http.Response, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := toolserver.AsError(err); ok {
		return err
	}
	e := &StatusError{Err: err}
	if resp != nil {
		e.Status, e.Header = resp.StatusCode, resp.Header
		if resp.Request != nil {
			e.Method = resp.Request.Method
		}
	}
	return e
}

// Status is the HTTP status a failure came with, 0 for none.
func Status(err error) int {
	var s *StatusError
	if errors.As(err, &s) {
		return s.Status
	}
	return 0
}

// Forge is how one forge's failures are worded and its rate limits read.
type Forge struct {
	// Name is the forge as its users write it: "GitLab", "Gitea".
	Name string
	// Timeout is the per-call timeout, for the "did not answer" message.
	Timeout time.Duration
	// Redactor knows the credentials no message may show, in any form.
	Redactor *redact.Redactor
	// ResetHeader holds a Unix time to wait until, when Retry-After is
	// absent ("RateLimit-Reset" on GitLab).
	ResetHeader string
	// LimitNameHeader names the limit that was hit ("RateLimit-Name").
	LimitNameHeader string
	// Moved says what a redirect on a write may mean for this forge.
	Moved string
	// Detail is the forge's error message from the library's error, as
	// one line; "" when there is none worth showing.
	Detail func(error) string
	// Now is the clock waits are computed against.
	Now func() time.Time
}

// Map turns a failure of the operation `what` into the gateway's in-band
// error: the operation, what the forge said, never a credential, bounded.
func (f *Forge) Map(what string, err error) *toolserver.Error {
	return Map(what, err, f.Redactor, f.classify)
}

// Map is how every REST provider words a failure of the operation `what`:
// classify says what the forge's failure means, prefixed with `what`. An
// operation that words its own failure (a *toolserver.Error) keeps its
// words. Either way the message is cleaned (see Clean): an operation's
// words can quote the forge too.
func Map(what string, err error, r *redact.Redactor, classify func(error) *toolserver.Error) *toolserver.Error {
	e, ok := toolserver.AsError(err)
	var large *TooLargeError
	switch {
	case ok:
	case errors.As(err, &large):
		// Before any forge's classify, which would call it internal: an
		// answer past the cap is the forge's excess, said in the cap's words.
		e = toolserver.ResourceExhausted("%s: %v", what, large)
	default:
		e = classify(err)
		e.Message = what + ": " + e.Message
	}
	e.Message = Clean(e.Message, r)
	return e
}

func (f *Forge) classify(err error) *toolserver.Error {
	var (
		status  *StatusError
		egress  *EgressError
		netErr  net.Error
		urlErr  *url.Error
		syntax  *json.SyntaxError
		typeErr *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &egress):
		return toolserver.FailedPrecondition("%v", egress)
	case errors.Is(err, context.DeadlineExceeded):
		return toolserver.Unavailable("%s did not answer within %s", f.Name, f.Timeout)
	case errors.Is(err, context.Canceled):
		return toolserver.Unavailable("canceled before %s answered", f.Name)
	case errors.As(err, &status) && status.Status >= 300:
		return f.byStatus(status)
	case errors.As(err, &syntax), errors.As(err, &typeErr):
		return toolserver.Unavailable("%s's answer is not the JSON its API documents (%v)", f.Name, err)
	case errors.As(err, &netErr), errors.As(err, &urlErr):
		return toolserver.Unavailable("%s unreachable: %v", f.Name, err)
	default:
		return toolserver.Internal("%v", err)
	}
}

// byStatus maps an error the forge answered with a status.
func (f *Forge) byStatus(e *StatusError) *toolserver.Error {
	text := http.StatusText(e.Status)
	msg := fmt.Sprintf("%s answered %d %s", f.Name, e.Status, text)
	if d := f.detail(e.Err); d != "" && !strings.EqualFold(d, text) && !strings.EqualFold(d, fmt.Sprintf("%d %s", e.Status, text)) {
		msg += ": " + d
	}
	method := e.Method
	if method == "" {
		method = "a write"
	}
	switch s := e.Status; {
	case s >= 300 && s < 400:
		return toolserver.FailedPrecondition("%s answered %s with a %d redirect, which is not followed on writes; nothing was written (%s)", f.Name, method, s, f.Moved)
	case s == http.StatusBadRequest, s == http.StatusUnprocessableEntity, s == http.StatusRequestEntityTooLarge:
		return toolserver.InvalidArgument("%s", msg)
	case s == http.StatusUnauthorized:
		return toolserver.Unauthenticated("%s (the configured token is missing, expired or revoked)", msg)
	case s == http.StatusTooManyRequests, s == http.StatusForbidden && e.Header.Get("Retry-After") != "":
		// A 429, or a 403 that names a wait (a proxy's or an instance's
		// limit), is a rate limit.
		return f.limited(msg, e.Header)
	case s == http.StatusForbidden:
		return toolserver.PermissionDenied("%s", msg)
	case s == http.StatusNotFound:
		return toolserver.NotFound("%s (it does not exist, or the credential cannot see it)", msg)
	case s == http.StatusConflict, s == http.StatusMethodNotAllowed, s == http.StatusNotAcceptable:
		// Refusals of a write the state forbids: a merge that cannot
		// happen, a head that moved.
		return toolserver.FailedPrecondition("%s", msg)
	case s >= 500:
		return toolserver.Unavailable("%s", msg)
	default:
		return toolserver.Internal("%s", msg)
	}
}

// limited reads the forge's wait: Retry-After (seconds or a date), else
// the reset header.
func (f *Forge) limited(msg string, h http.Header) *toolserver.Error {
	now := time.Now
	if f.Now != nil {
		now = f.Now
	}
	wait, ok := RetryAfter(h, now())
	if !ok && f.ResetHeader != "" {
		wait, _ = ResetWait(h, f.ResetHeader, now())
	}
	name := f.Name + " rate limit"
	if f.LimitNameHeader != "" {
		if l := h.Get(f.LimitNameHeader); l != "" {
			name += " " + l
		}
	}
	return Limited(name+": "+msg, wait)
}

func (f *Forge) detail(err error) string {
	if f.Detail == nil {
		return ""
	}
	return f.Detail(err)
}
