package gitlab

import (
	"errors"
	"net/http"
	"regexp"
	"strings"

	gl "gitlab.com/gitlab-org/api/client-go"

	"github.com/forgetools/forgetools/providers/internal/rest"
	"github.com/forgetools/forgetools/toolserver"
)

// errorWords is how GitLab's failures are worded and its limits read, per
// its rate-limit documentation: Retry-After (seconds), else
// RateLimit-Reset (a Unix time); RateLimit-Name says which limit.
func (p *Provider) errorWords() *rest.Forge {
	return &rest.Forge{
		Name: "GitLab", Timeout: p.timeout, Redactor: p.redactor, ResetHeader: "RateLimit-Reset",
		LimitNameHeader: "RateLimit-Name", Moved: "was the project renamed or moved?", Detail: detail, Now: p.now,
	}
}

// fail keeps a client call's response with its error (the client answers
// a 404 with a bare sentinel error; the response has the status).
func fail(resp *gl.Response, err error) error {
	var r *http.Response
	if resp != nil {
		r = resp.Response
	}
	return rest.WithResponse(r, err)
}

// mapError turns a failure of the operation `what` into the gateway's
// in-band error.
func (p *Provider) mapError(what string, err error) *toolserver.Error { return p.errs.Map(what, err) }

// wrapped is the client's rendering of {"message": "..."}.
var wrapped = regexp.MustCompile(`^\{(message|error): (.*)\}$`)

// detail is GitLab's message as one line, without the client's framing.
// Its body is {"message": ...} (a string, a list, or a map of field to
// messages) or {"error": ...}.
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
