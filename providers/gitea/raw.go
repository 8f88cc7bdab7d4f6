package gitea

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/forgetools/forgetools/providers/internal/rest"
)

// maxAnswer bounds an answer read by send.
const maxAnswer = 8 << 20

// send is one request to the v1 API that the SDK cannot make as Gitea
// needs it (a field it does not model, an answer body it discards):
// method on path below /api/v1 (already escaped), in as the JSON body
// when not nil, a 2xx answer decoded into out when not nil. A failure is
// shaped as an SDK one (the status with Gitea's message), so mapError
// words both alike. It goes through the same pinned HTTP client.
func (p *Provider) send(ctx context.Context, token, method, path string, in, out any) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(p.root, "/")+"/api/v1"+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "token "+token)
	req.Header.Set("User-Agent", p.ua)
	req.Header.Set("Accept", "application/json")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := p.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return resp, rest.WithResponse(resp, err)
	}
	if resp.StatusCode/100 != 2 {
		return resp, rest.WithResponse(resp, errors.New(message(resp.StatusCode, raw)))
	}
	if out != nil && len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			return resp, err
		}
	}
	return resp, nil
}

// message is Gitea's {"message": ...} of a failed answer, or the status
// text when the body is something else (a proxy's page).
func message(status int, raw []byte) string {
	var m struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &m) == nil && strings.TrimSpace(m.Message) != "" {
		return rest.OneLine(m.Message)
	}
	return http.StatusText(status)
}

// repoPath is /repos/OWNER/NAME followed by the parts given, each escaped.
func repoPath(repo repoName, parts ...any) string {
	var b strings.Builder
	b.WriteString("/repos/" + url.PathEscape(repo.owner) + "/" + url.PathEscape(repo.name))
	for _, p := range parts {
		b.WriteString("/" + url.PathEscape(fmt.Sprint(p)))
	}
	return b.String()
}
