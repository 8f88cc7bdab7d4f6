package gitlab

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	gl "gitlab.com/gitlab-org/api/client-go"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/handler"
	"github.com/forgetools/forgetools/providers/internal/rest"
)

const (
	codeInvalid      = gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT
	codeNotFound     = gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND
	codeDenied       = gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED
	codeUnauth       = gatewayv1.ErrorCode_ERROR_CODE_UNAUTHENTICATED
	codeUnavailable  = gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE
	codeInternal     = gatewayv1.ErrorCode_ERROR_CODE_INTERNAL
	codePrecondition = gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION
	codeExists       = gatewayv1.ErrorCode_ERROR_CODE_ALREADY_EXISTS
)

// apiError is a client call's failure with the status and headers it came
// with: the client answers a 404 with a bare sentinel error, and the
// response says the rest.
type apiError struct {
	status int
	header http.Header
	method string
	err    error
}

func (e *apiError) Error() string { return e.err.Error() }
func (e *apiError) Unwrap() error { return e.err }

// fail keeps a client call's response with its error.
func fail(resp *gl.Response, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := handler.AsError(err); ok {
		return err
	}
	e := &apiError{err: err}
	if resp != nil && resp.Response != nil {
		e.status, e.header = resp.StatusCode, resp.Header
		if resp.Request != nil {
			e.method = resp.Request.Method
		}
	}
	return e
}

// status is the HTTP status a failure came with, 0 for none.
func status(err error) int {
	var api *apiError
	if errors.As(err, &api) {
		return api.status
	}
	return 0
}

// mapError turns a failure of the operation `what` into the gateway's
// in-band error, naming the operation and what GitLab said, never a
// credential.
func (p *Provider) mapError(what string, err error) *handler.Error {
	if pe, ok := handler.AsError(err); ok {
		return pe
	}
	e := p.classify(err)
	e.Message = rest.Clean(what+": "+e.Message, p.secrets)
	return e
}

func (p *Provider) classify(err error) *handler.Error {
	var (
		api     *apiError
		egress  *rest.EgressError
		netErr  net.Error
		urlErr  *url.Error
		syntax  *json.SyntaxError
		typeErr *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &egress):
		return handler.Errorf(codePrecondition, "%v", egress)
	case errors.Is(err, context.DeadlineExceeded):
		return handler.Errorf(codeUnavailable, "GitLab did not answer within %s", p.timeout)
	case errors.Is(err, context.Canceled):
		return handler.Errorf(codeUnavailable, "canceled before GitLab answered")
	case errors.As(err, &api) && api.status >= 300:
		return p.byStatus(api)
	case errors.As(err, &syntax), errors.As(err, &typeErr):
		return handler.Errorf(codeUnavailable, "GitLab's answer is not the JSON its API documents (%v)", err)
	case errors.As(err, &netErr), errors.As(err, &urlErr):
		return handler.Errorf(codeUnavailable, "GitLab unreachable: %v", err)
	default:
		return handler.Errorf(codeInternal, "%v", err)
	}
}

// byStatus maps an error GitLab answered with a status. Its body is
// {"message": ...} (a string, a list, or a map of field to messages) or
// {"error": ...}.
func (p *Provider) byStatus(e *apiError) *handler.Error {
	msg := fmt.Sprintf("GitLab answered %d %s", e.status, http.StatusText(e.status))
	if d := detail(e.err); d != "" && !strings.EqualFold(d, fmt.Sprintf("%d %s", e.status, http.StatusText(e.status))) {
		msg += ": " + d
	}
	switch s := e.status; {
	case s >= 300 && s < 400:
		return handler.Errorf(codePrecondition,
			"GitLab answered %s with a %d redirect, which is not followed on writes; nothing was written (was the project renamed or moved?)", or(e.method, "a write"), s)
	case s == http.StatusBadRequest, s == http.StatusUnprocessableEntity:
		return handler.Errorf(codeInvalid, "%s", msg)
	case s == http.StatusUnauthorized:
		return handler.Errorf(codeUnauth, "%s (the configured token is missing, expired or revoked)", msg)
	case s == http.StatusTooManyRequests:
		return p.limited(msg, e.header)
	case s == http.StatusForbidden:
		if e.header.Get("Retry-After") != "" {
			return p.limited(msg, e.header)
		}
		return handler.Errorf(codeDenied, "%s", msg)
	case s == http.StatusNotFound:
		return handler.Errorf(codeNotFound, "%s (it does not exist, or the credential cannot see it)", msg)
	case s == http.StatusConflict, s == http.StatusMethodNotAllowed, s == http.StatusNotAcceptable:
		return handler.Errorf(codePrecondition, "%s", msg)
	case s == http.StatusRequestEntityTooLarge:
		return handler.Errorf(codeInvalid, "%s", msg)
	case s >= 500:
		return handler.Errorf(codeUnavailable, "%s", msg)
	default:
		return handler.Errorf(codeInternal, "%s", msg)
	}
}

// limited reads GitLab's wait: Retry-After (seconds), else RateLimit-Reset
// (a Unix time), per GitLab's rate-limit documentation.
func (p *Provider) limited(msg string, h http.Header) *handler.Error {
	wait, ok := rest.RetryAfter(h, p.now())
	if !ok {
		wait, _ = rest.ResetWait(h, "RateLimit-Reset", p.now())
	}
	if l := h.Get("RateLimit-Name"); l != "" {
		msg = fmt.Sprintf("GitLab rate limit %s: %s", l, msg)
	} else {
		msg = "GitLab rate limit: " + msg
	}
	return rest.Limited(msg, wait)
}

// wrapped is the client's rendering of {"message": "..."}.
var wrapped = regexp.MustCompile(`^\{(message|error): (.*)\}$`)

// detail is GitLab's message as one line, without the client's framing.
func detail(err error) string {
	var er *gl.ErrorResponse
	if !errors.As(err, &er) {
		return "" // a bare sentinel (404): the status says it
	}
	m := rest.OneLine(er.Message)
	if strings.HasPrefix(m, "failed to parse unknown error format") {
		return "" // a proxy's HTML page, not GitLab's JSON
	}
	if sub := wrapped.FindStringSubmatch(m); sub != nil {
		m = sub[2]
	}
	return m
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
