package gitea

import (
	"net/http"
	"strings"

	sdk "code.gitea.io/sdk/gitea"

	"github.com/forgetools/forgetools/providers/internal/rest"
	"github.com/forgetools/forgetools/toolserver"
)

// errorWords is how Gitea's failures are worded and its limits read: the
// body is {"message", "url"}; Gitea itself limits nothing by default, so
// a 429 (or a 403 with Retry-After) comes from a proxy in front of it, or
// from a Forgejo or Gitea rate limit, with Retry-After or
// X-RateLimit-Reset.
func (p *Provider) errorWords() *rest.Forge {
	return &rest.Forge{
		Name: p.flavor.Name(), Timeout: p.timeout, Redactor: p.redactor, ResetHeader: "X-RateLimit-Reset",
		Moved: "was the repository renamed or transferred?", Detail: detail, Now: p.now,
	}
}

// fail keeps an SDK call's response with its error.
func fail(resp *sdk.Response, err error) error {
	var r *http.Response
	if resp != nil {
		r = resp.Response
	}
	return rest.WithResponse(r, err)
}

// mapError turns a failure of the operation `what` into the gateway's
// in-band error.
func (p *Provider) mapError(what string, err error) *toolserver.Error { return p.errs.Map(what, err) }

// detail is the SDK's error text as one line. The SDK keeps Gitea's
// message; for a body that is not JSON (a proxy's HTML page) it quotes
// the whole body, so that says nothing.
func detail(err error) string {
	s := err.Error()
	if strings.HasPrefix(s, "unknown API error:") {
		return ""
	}
	return rest.OneLine(s)
}
