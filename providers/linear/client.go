package linear

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/forgetools/forgetools/providers/internal/rest"
	"github.com/forgetools/forgetools/toolserver"
)

// maxResponse bounds what one answer may make the gateway hold in memory.
// The largest legitimate answer (100 issues with full descriptions) is far
// below it.
const maxResponse = rest.MaxResponseBytes

// gqlRequest is the body of every call: Linear's POST JSON {query, variables}.
type gqlRequest struct {
	Query     string `json:"query"`
	Variables any    `json:"variables"`
}

// gqlResponse is the GraphQL response envelope.
type gqlResponse struct {
	Data   json.RawMessage `json:"data"`
	Errors []gqlError      `json:"errors"`
}

// gqlError is one entry of errors[]. Linear puts its classification in
// extensions: code (RATELIMITED, AUTHENTICATION_ERROR, INPUT_ERROR, ...) and
// type ("ratelimited", "authentication error", "invalid input", ...), plus a
// message meant for people.
type gqlError struct {
	Message    string `json:"message"`
	Extensions struct {
		Code                   string `json:"code"`
		Type                   string `json:"type"`
		UserPresentableMessage string `json:"userPresentableMessage"`
	} `json:"extensions"`
}

// do runs one GraphQL operation and decodes its data into out. Every
// failure comes back as a *toolserver.Error whose message is safe to show:
// it never carries the credential.
func (p *Provider) do(ctx context.Context, op, query string, vars, out any) error {
	body, err := json.Marshal(gqlRequest{Query: query, Variables: vars})
	if err != nil {
		return toolserver.Internal("linear %s: encode request: %v", op, err)
	}
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.endpoint, bytes.NewReader(body))
	if err != nil {
		return toolserver.Internal("linear %s: build request: %v", op, err)
	}
	req.Header.Set("Authorization", p.auth)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", p.agent)

	start := p.now()
	resp, err := p.client.Do(req)
	if err != nil {
		return p.transportError(ctx, op, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	var large *rest.TooLargeError
	if errors.As(err, &large) || len(raw) > maxResponse {
		// The pinned client's cap (rest.MaxResponseBytes) cuts the body
		// where this check would.
		return toolserver.Internal("linear %s: response larger than %d bytes", op, maxResponse)
	}
	if err != nil {
		return p.transportError(ctx, op, err)
	}
	p.log.DebugContext(ctx, "linear request", "op", op, "status", resp.StatusCode,
		"duration_ms", p.now().Sub(start).Milliseconds(), "requests_remaining", resp.Header.Get("X-RateLimit-Requests-Remaining"))
	return p.interpret(op, resp.StatusCode, resp.Header, raw, out)
}

// interpret turns one HTTP answer into out or a classified error. It is
// separate from do so the fuzzer can feed it arbitrary answers.
func (p *Provider) interpret(op string, status int, h http.Header, raw []byte, out any) error {
	var env gqlResponse
	decodeErr := json.Unmarshal(raw, &env)
	if e := p.classify(op, status, h, env.Errors); e != nil {
		return e
	}
	if decodeErr != nil || len(env.Data) == 0 || string(env.Data) == "null" {
		return toolserver.Internal("linear %s: unreadable response (HTTP %d, %d bytes)", op, status, len(raw))
	}
	if err := json.Unmarshal(env.Data, out); err != nil {
		return toolserver.Internal("linear %s: response does not match the expected shape: %s", op, p.redact(err.Error()))
	}
	return nil
}

// transportError maps a failure to reach Linear or to read its answer. A
// timeout on a write leaves its outcome unknown; the create arms say so in
// their own message (see CreateIssue).
func (p *Provider) transportError(ctx context.Context, op string, err error) *toolserver.Error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return toolserver.Unavailable("linear %s: Linear did not answer within %s (timeout)", op, p.timeout)
	case errors.Is(ctx.Err(), context.Canceled):
		return toolserver.Unavailable("linear %s: request canceled", op)
	}
	return toolserver.Unavailable("linear %s: could not reach Linear: %s", op, p.redact(err.Error()))
}
