package githubtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path"
	"sync"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/forgetools/forgetools/providers/github/githubtest/graphqlschema"
	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

// GitHub's GraphQL API: POST /graphql on api.github.com (and GHE.com's
// api host), POST /api/graphql on Enterprise Server, whose REST API is
// under /api/v3. A query is answered from the fake's state (graphql_state.go
// says what is modelled) in GraphQL's wire shape, {"data":...} with an
// "errors" list beside it when something could not be resolved, as GitHub
// answers: HTTP 200 even for a missing repository or an exhausted quota
// (type RATE_LIMITED), 401 for a bad credential, 400 for a body that is not
// JSON. Requests are recorded under the route "POST /graphql" whatever the
// mount, and answers can be injected for it like any other route.

// GraphQLRoute is the route GraphQL requests are recorded and injected
// under.
const GraphQLRoute = "POST /graphql"

// graphQLPath is where the GraphQL endpoint is mounted: beside the REST
// root on Enterprise Server (/api/v3 -> /api/graphql).
func (s *Server) graphQLPath() string {
	if s.prefix == "" {
		return "/graphql"
	}
	return path.Dir(s.prefix) + "/graphql"
}

// GraphQLURL is the GraphQL endpoint's URL.
func (s *Server) GraphQLURL() string { return s.URL + s.graphQLPath() }

// graphQLQuota prefixes a login's GraphQL quota, which GitHub keeps apart
// from the REST one (by points; the fake counts a query as one).
const graphQLQuota = "graphql:"

// GraphQLQuota is how many GraphQL queries login has left this hour.
func (s *Server) GraphQLQuota(login string) int { return s.Quota(graphQLQuota + login) }

// SetGraphQLQuota gives login remaining GraphQL queries this hour.
func (s *Server) SetGraphQLQuota(login string, remaining int) {
	s.SetQuota(graphQLQuota+login, remaining)
}

// gqlRequest is the body GitHub's GraphQL endpoint takes.
type gqlRequest struct {
	Query         string         `json:"query"`
	Variables     map[string]any `json:"variables"`
	OperationName string         `json:"operationName"`
}

// gqlChecker holds the queries of a checked fake (NewChecked) to GitHub's
// published GraphQL schema, keeping what departs from it.
type gqlChecker struct {
	schema *ast.Schema
	mu     sync.Mutex
	errs   []error
}

// checkGraphQL holds s's GraphQL queries to GitHub's schema, failing t at
// its end for each that departs from it; without the schema installed it
// checks nothing and says so, unless it is required (see graphqlschema).
func (s *Server) checkGraphQL(t testing.TB) {
	t.Helper()
	schema, err := graphqlschema.Load()
	switch {
	case err == graphqlschema.ErrMissing:
		t.Logf("githubtest: GraphQL queries not checked against GitHub's schema: %v", err)
		return
	case err != nil:
		t.Fatalf("githubtest: %v", err)
	}
	c := &gqlChecker{schema: schema}
	s.gql = c
	t.Cleanup(func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, e := range c.errs {
			t.Errorf("githubtest: a GraphQL query departs from GitHub's schema (@octokit/graphql-schema@%s): %v", graphqlschema.Version, e)
		}
		c.errs = nil
	})
}

// checkQuery holds a GraphQL request's query to GitHub's schema
// (NewChecked), whatever answers it: an injected answer scripts GitHub,
// the query is still the provider's.
func (s *Server) checkQuery(body []byte) {
	var in gqlRequest
	if s.gql == nil || json.Unmarshal(body, &in) != nil {
		return
	}
	if _, err := graphqlschema.Check(s.gql.schema, in.Query, in.Variables); err != nil {
		s.gql.mu.Lock()
		s.gql.errs = append(s.gql.errs, err)
		s.gql.mu.Unlock()
	}
}

// answerGraphQL answers one query from the state (the engine's mount);
// the engine's lock is held.
func (s *Server) answerGraphQL(c *forgefake.Call) answer {
	const doc = "https://docs.github.com/graphql"
	r := c.R
	var in gqlRequest
	jsonErr := json.Unmarshal(c.Body, &in)
	if r.Method != http.MethodPost {
		return errorAnswer(http.StatusNotFound, "Not Found", doc, nil)
	}
	login, ok := s.login(r.Header.Get("Authorization"))
	if !ok {
		return errorAnswer(http.StatusUnauthorized, "Bad credentials", doc, nil)
	}
	if jsonErr != nil {
		return errorAnswer(http.StatusBadRequest, "Problems parsing JSON", doc, nil)
	}
	q := s.quota(graphQLQuota + login)
	header := func() http.Header {
		h := s.rateHeaders(q)
		h.Set("X-RateLimit-Resource", "graphql")
		return h
	}
	if q.used >= q.limit {
		a := gqlAnswer(nil, []*gqlError{{Type: "RATE_LIMITED", Message: fmt.Sprintf("API rate limit already exceeded for user ID %d.", s.User(login))}})
		a.Header = header()
		return a
	}
	q.used++
	var (
		qd  *ast.QueryDocument
		err error
	)
	if s.gql != nil {
		qd, err = graphqlschema.Check(s.gql.schema, in.Query, in.Variables)
	} else {
		qd, err = parser.ParseQuery(&ast.Source{Input: in.Query})
	}
	var op *ast.OperationDefinition
	if err == nil {
		if op = qd.Operations.ForName(in.OperationName); op == nil || op.Operation == ast.Subscription {
			err = fmt.Errorf("the fake answers one query or mutation operation (no subscriptions)")
		}
	}
	if err != nil {
		a := gqlAnswer(nil, []*gqlError{{Message: err.Error()}})
		a.Header = header()
		return a
	}
	e := &gqlExec{doc: qd, vars: in.Variables}
	root := s.gqlRoot(login)
	if op.Operation == ast.Mutation {
		root = s.gqlMutationRoot(login)
	}
	data := e.object(root, op.SelectionSet, nil)
	a := gqlAnswer(data, e.errs)
	a.Header = header()
	return a
}

// gqlAnswer is GitHub's GraphQL answer, always 200: data (omitted when
// the query never ran) and errors when there are any.
func gqlAnswer(data map[string]any, errs []*gqlError) answer {
	out := map[string]any{}
	if data != nil {
		out["data"] = data
	}
	if len(errs) > 0 {
		out["errors"] = errs
	}
	return jsonAnswer(http.StatusOK, out)
}
