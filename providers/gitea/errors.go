package gitea

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	sdk "code.gitea.io/sdk/gitea"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/handler"
	"github.com/forgetools/forgetools/providers/internal/rest"
)

const (
	codeInvalid       = gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT
	codeNotFound      = gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND
	codeDenied        = gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED
	codeUnauth        = gatewayv1.ErrorCode_ERROR_CODE_UNAUTHENTICATED
	codeUnavailable   = gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE
	codeInternal      = gatewayv1.ErrorCode_ERROR_CODE_INTERNAL
	codePrecondition  = gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION
	codeExists        = gatewayv1.ErrorCode_ERROR_CODE_ALREADY_EXISTS
	codeUnimplemented = gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED
)

// apiError is an SDK call's failure together with the response it came
// with, when there was one: the SDK reduces Gitea's error body to its
// message, and the status and headers say the rest.
type apiError struct {
	status int
	header http.Header
	method string
	err    error
}

func (e *apiError) Error() string { return e.err.Error() }
func (e *apiError) Unwrap() error { return e.err }

// fail keeps an SDK call's response with its error.
func fail(resp *sdk.Response, err error) error {
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

// mapError turns a failure of the operation `what` into the gateway's
// in-band error. The message names the operation and what the forge said,
// and never a credential.
func (p *Provider) mapError(what string, err error) *handler.Error {
	if pe, ok := handler.AsError(err); ok {
		return pe
	}
	e := p.classify(err)
	e.Message = rest.Clean(what+": "+e.Message, p.secrets)
	return e
}

func (p *Provider) classify(err error) *handler.Error {
	name := p.flavor.Name()
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
		return handler.Errorf(codeUnavailable, "%s did not answer within %s", name, p.timeout)
	case errors.Is(err, context.Canceled):
		return handler.Errorf(codeUnavailable, "canceled before %s answered", name)
	case errors.As(err, &api) && api.status >= 300:
		return p.byStatus(api)
	case errors.As(err, &syntax), errors.As(err, &typeErr):
		return handler.Errorf(codeUnavailable, "%s's answer is not the JSON its API documents (%v)", name, err)
	case errors.As(err, &netErr), errors.As(err, &urlErr):
		return handler.Errorf(codeUnavailable, "%s unreachable: %v", name, err)
	default:
		return handler.Errorf(codeInternal, "%v", err)
	}
}

// byStatus maps an error the forge answered with a status. Gitea's body is
// {"message": ..., "url": ...}; the SDK keeps the message, or says
// "unknown API error" with the raw body when it is not JSON.
func (p *Provider) byStatus(e *apiError) *handler.Error {
	name := p.flavor.Name()
	msg := fmt.Sprintf("%s answered %d %s", name, e.status, http.StatusText(e.status))
	if d := detail(e.err.Error()); d != "" && d != http.StatusText(e.status) {
		msg += ": " + d
	}
	switch s := e.status; {
	case s >= 300 && s < 400:
		return handler.Errorf(codePrecondition, "%s answered %s with a %d redirect, which is not followed on writes; nothing was written (was the repository renamed or transferred?)", name, or(e.method, "a write"), s)
	case s == http.StatusBadRequest, s == http.StatusUnprocessableEntity:
		return handler.Errorf(codeInvalid, "%s", msg)
	case s == http.StatusUnauthorized:
		return handler.Errorf(codeUnauth, "%s (the configured token is missing, expired or revoked)", msg)
	case s == http.StatusTooManyRequests, s == http.StatusForbidden && e.header.Get("Retry-After") != "":
		// Gitea itself limits nothing by default; a proxy in front of it
		// (or a Forgejo rate limit) answers 429, or 403 with a wait.
		wait, ok := rest.RetryAfter(e.header, p.now())
		if !ok {
			wait, _ = rest.ResetWait(e.header, "X-RateLimit-Reset", p.now())
		}
		return rest.Limited(fmt.Sprintf("%s rate limit: %s", name, msg), wait)
	case s == http.StatusForbidden:
		return handler.Errorf(codeDenied, "%s", msg)
	case s == http.StatusNotFound:
		return handler.Errorf(codeNotFound, "%s (it does not exist, or the credential cannot see it)", msg)
	case s == http.StatusConflict:
		return handler.Errorf(codePrecondition, "%s", msg)
	case s == http.StatusMethodNotAllowed:
		// Gitea's answer to a merge it will not do (conflicts, checks,
		// approvals, a closed pull request).
		return handler.Errorf(codePrecondition, "%s", msg)
	case s == http.StatusRequestEntityTooLarge:
		return handler.Errorf(codeInvalid, "%s", msg)
	case s >= 500:
		return handler.Errorf(codeUnavailable, "%s", msg)
	default:
		return handler.Errorf(codeInternal, "%s", msg)
	}
}

// detail is the SDK's error text as one line. For a body that is not JSON
// (a proxy's HTML page) the SDK quotes the whole body; say only that.
func detail(s string) string {
	if strings.HasPrefix(s, "unknown API error:") {
		return ""
	}
	return rest.OneLine(s)
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
