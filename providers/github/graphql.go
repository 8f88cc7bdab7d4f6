package github

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

	gh "github.com/google/go-github/v84/github"

	"github.com/forgetools/forgetools/providers/internal/rest"
	"github.com/forgetools/forgetools/toolserver"
)

// GitHub's GraphQL API, for the reads REST would need many requests for (a
// pull request's reviews, conversation and check roll-up: graphql_pull.go).
//
// The client is a small typed query over the go-github client's own HTTP
// client, not a GraphQL library: the request goes through the same
// credential, host pin, rate gate, 16 MiB answer cap and timeouts as every
// REST call, and the provider sends a handful of fixed queries whose
// answers decode into plain structs. githubv4 would bring its own
// reflection-built queries and error type for that, and another
// dependency to keep in step with go-github. A POST is never conditional,
// so the ETag cache (rest.PinnedClient) passes it through.
//
// Each query is held to GitHub's published GraphQL schema in the tests
// (githubtest's GraphQL endpoint, package githubtest/graphqlschema).

// graphQLURL is the GraphQL endpoint beside the REST root base:
// https://api.github.com/graphql (and GHE.com's api host), and on
// Enterprise Server https://HOST/api/graphql beside /api/v3/.
func graphQLURL(base *url.URL) *url.URL {
	u := *base
	if p, ok := strings.CutSuffix(u.Path, "/api/v3/"); ok {
		u.Path = p + "/api/graphql"
	} else {
		u.Path = strings.TrimSuffix(u.Path, "/") + "/graphql"
	}
	return &u
}

// gqlError is one entry of a GraphQL answer's errors list.
type gqlError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
	Path    []any  `json:"path"`
}

// under reports whether the error's path starts with prefix (field names;
// list indexes in the path are skipped).
func (e gqlError) under(prefix ...string) bool {
	i := 0
	for _, p := range e.Path {
		s, ok := p.(string)
		if !ok {
			continue
		}
		if i == len(prefix) {
			return true
		}
		if s != prefix[i] {
			return false
		}
		i++
	}
	return i == len(prefix)
}

// graphQL sends query with vars for the operation what, with client c's
// credential, and decodes the answer's data into data. It returns the
// answer's errors (GitHub answers partial data with errors beside it) for
// the caller to judge with gqlFailure; a failure of the exchange itself (no
// answer, an HTTP error, an answer that is not GraphQL's JSON) is the error.
func (p *Provider) graphQL(ctx context.Context, c *gh.Client, what, query string, vars map[string]any, data any) ([]gqlError, *http.Response, error) {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return nil, nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, graphQLURL(c.BaseURL).String(), bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", p.userAgent)
	resp, err := c.Client().Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		// GitHub's REST error shape (a bad credential, a secondary rate
		// limit, an outage): go-github reads it as it reads REST's.
		return nil, resp, gh.CheckResponse(resp)
	}
	errs, err := decodeGraphQL(what, resp.Body, data)
	return errs, resp, err
}

// decodeGraphQL reads a GraphQL answer: its data into data, and its
// errors.
func decodeGraphQL(what string, r io.Reader, data any) ([]gqlError, error) {
	var answer struct {
		Data   json.RawMessage `json:"data"`
		Errors []gqlError      `json:"errors"`
	}
	if err := json.NewDecoder(r).Decode(&answer); err != nil {
		return nil, notGraphQL(what, err)
	}
	if len(answer.Data) > 0 && !bytes.Equal(answer.Data, []byte("null")) {
		if err := json.Unmarshal(answer.Data, data); err != nil {
			return nil, notGraphQL(what, err)
		}
	}
	return answer.Errors, nil
}

// notGraphQL is an answer that is not GraphQL's JSON, or is cut off; an
// answer past the cap stays a *rest.TooLargeError (rest.Map words it).
func notGraphQL(what string, err error) error {
	var large *rest.TooLargeError
	if errors.As(err, &large) {
		return err
	}
	return toolserver.Unavailable("%s: GitHub's GraphQL answer is not the JSON its API documents (%v)", what, err)
}

// maxGraphQLErrors bounds how many of an answer's errors a message quotes.
const maxGraphQLErrors = 3

// gqlFailure is the in-band error for a GraphQL answer's errors, or nil
// when there are none: the codes a REST answer of the same meaning maps
// to (NOT_FOUND -> not_found, FORBIDDEN and INSUFFICIENT_SCOPES ->
// permission_denied, RATE_LIMITED -> resource_exhausted with GitHub's
// wait, a timeout or outage -> unavailable). An error without a type is a
// query GitHub refused (the schema check in the tests keeps those out):
// internal, as it is no caller's mistake.
func (p *Provider) gqlFailure(what string, errs []gqlError, resp *http.Response) error {
	if len(errs) == 0 {
		return nil
	}
	msgs := make([]string, 0, min(len(errs), maxGraphQLErrors))
	for _, e := range errs[:min(len(errs), maxGraphQLErrors)] {
		msgs = append(msgs, rest.OneLine(e.Message))
	}
	if len(errs) > maxGraphQLErrors {
		msgs = append(msgs, fmt.Sprintf("and %d more", len(errs)-maxGraphQLErrors))
	}
	said := strings.Join(msgs, "; ")
	for _, e := range errs {
		if e.Type == "RATE_LIMITED" {
			wait, _ := headerWait(resp, p.now())
			return limited(fmt.Sprintf("%s: GitHub GraphQL rate limit exhausted: %s", what, said), wait)
		}
	}
	switch t := strings.ToUpper(errs[0].Type); t {
	case "NOT_FOUND":
		return toolserver.NotFound("%s: GitHub answered NOT_FOUND: %s (it does not exist, or the credential cannot see it)", what, said)
	case "FORBIDDEN", "INSUFFICIENT_SCOPES":
		return toolserver.PermissionDenied("%s: GitHub answered %s: %s", what, t, said)
	case "SERVICE_UNAVAILABLE", "TIMEOUT", "INTERNAL":
		return toolserver.Unavailable("%s: GitHub answered %s: %s", what, t, said)
	case "":
		if strings.Contains(strings.ToLower(said), "timeout") {
			return toolserver.Unavailable("%s: GitHub could not finish the query: %s", what, said)
		}
		return toolserver.Internal("%s: GitHub refused the query: %s", what, said)
	default:
		return toolserver.Internal("%s: GitHub answered %s: %s", what, t, said)
	}
}
