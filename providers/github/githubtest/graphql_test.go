package githubtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/providers/github/githubtest/graphqlschema"
)

// gqlFake is a checked fake with a pull request (two reviews, one with an
// inline comment; two conversation comments; three check runs, one still
// running) whose GraphQL queries report to a recordingT. It skips only
// where the schema is not installed and not required.
func gqlFake(t *testing.T, o Options) (*Server, *recordingT, int) {
	t.Helper()
	if _, err := graphqlschema.Load(); err == graphqlschema.ErrMissing && os.Getenv(graphqlschema.EnvRequire) != "1" {
		t.Skip(err)
	}
	s, rt := checkedFake(t, o)
	s.AddBranch("octocat/Hello-World", "feature")
	n := s.AddPull("octocat/Hello-World", Pull{Title: "Feature", Head: "feature"})
	s.Review("octocat/Hello-World", n, "hubot", "APPROVED", "LGTM")
	s.Review("octocat/Hello-World", n, "monalisa", "CHANGES_REQUESTED", "Not yet")
	s.Comment("octocat/Hello-World", n, "hubot", "first")
	s.Comment("octocat/Hello-World", n, "monalisa", "second")
	s.AddCheckRuns("octocat/Hello-World", n, CheckRun{Name: "a"}, CheckRun{Name: "b", Conclusion: "skipped"}, CheckRun{Name: "c", Status: "in_progress"})
	return s, rt, n
}

// query posts a GraphQL query to the fake and decodes its answer.
func query(t *testing.T, s *Server, q string, vars map[string]any, auth http.Header) (int, map[string]any) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": q, "variables": vars})
	status, _, out := raw(t, s, "POST", s.GraphQLURL(), "", string(body), auth)
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("answer %s: %v", out, err)
	}
	return status, m
}

func jsonOf(v any) string { b, _ := json.Marshal(v); return string(b) }

const pullAggregates = `query($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      number
      reviews(first: 1) { totalCount pageInfo { hasNextPage } nodes { state body author { login ... on User { __typename } } } }
      comments(last: 1) { totalCount nodes { body url } }
      commits(last: 1) { nodes { commit { oid statusCheckRollup { state contexts(first: 2) {
        checkRunCount checkRunCountsByState { state count } nodes { ... on CheckRun { name conclusion } }
      } } } } }
    }
  }
}`

// The fake answers a query from its state, in GitHub's wire shape, with
// the same URLs as its REST answers; the query passes the schema check.
func TestGraphQLAnswersFromState(t *testing.T) {
	s, rt, n := gqlFake(t, Options{})
	status, got := query(t, s, pullAggregates, map[string]any{"owner": "octocat", "name": "Hello-World", "number": n}, bearer(token))
	if status != 200 || got["errors"] != nil {
		t.Fatalf("status %d: %v", status, got)
	}
	pr := got["data"].(map[string]any)["repository"].(map[string]any)["pullRequest"]
	want := fmt.Sprintf(`{"comments":{"nodes":[{"body":"second","url":"https://github.com/octocat/Hello-World/pull/%d#issuecomment-%s"}],"totalCount":2},`+
		`"commits":{"nodes":[{"commit":{"oid":"%s","statusCheckRollup":{"contexts":{"checkRunCount":3,"checkRunCountsByState":[{"count":1,"state":"SUCCESS"},{"count":1,"state":"SKIPPED"},{"count":1,"state":"IN_PROGRESS"}],`+
		`"nodes":[{"conclusion":"SUCCESS","name":"a"},{"conclusion":"SKIPPED","name":"b"}]},"state":"PENDING"}}}]},"number":%d,`+
		`"reviews":{"nodes":[{"author":{"__typename":"User","login":"hubot"},"body":"LGTM","state":"APPROVED"}],"pageInfo":{"hasNextPage":true},"totalCount":2}}`,
		n, lastCommentID(t, s, n), s.Head("octocat/Hello-World", "feature"), n)
	if jsonOf(pr) != want {
		t.Errorf("pull request\n got %s\nwant %s", jsonOf(pr), want)
	}
	if errs := rt.finish(); len(errs) != 0 {
		t.Errorf("the query departs from the schema: %v", errs)
	}
	if r := s.Requests(); len(r) != 1 || r[0].Method+" "+r[0].Path != GraphQLRoute {
		t.Errorf("recorded %v; want one %s", r, GraphQLRoute)
	}
}

func lastCommentID(t *testing.T, s *Server, n int) string {
	t.Helper()
	s.Lock()
	defer s.Unlock()
	it := s.mustItem("octocat/Hello-World", n)
	return fmt.Sprint(it.Comments[len(it.Comments)-1].ID)
}

// A query naming a field, argument or type GitHub's schema does not have
// fails the test that sent it, whatever the fake answered.
func TestGraphQLCheckFailsAQueryOffTheSchema(t *testing.T) {
	s, rt, n := gqlFake(t, Options{})
	vars := map[string]any{"owner": "octocat", "name": "Hello-World", "number": n}
	query(t, s, `query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { pullRequest(number: $number) { reviewz(first: 1) { totalCount } } } }`, vars, bearer(token))
	query(t, s, `query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { pullRequest(number: $number) { reviews(frist: 1) { totalCount } } } }`, vars, bearer(token))
	query(t, s, `query($owner: String!, $name: String!, $number: String!) { repository(owner: $owner, name: $name) { pullRequest(number: $number) { number } } }`, vars, bearer(token))
	s.Inject(GraphQLRoute, Response{Body: `{"data":{}}`})
	query(t, s, `query { viewer { loginn } }`, nil, bearer(token))
	wantFailures(t, rt.finish(),
		[]string{"departs from GitHub's schema", `Cannot query field "reviewz" on type "PullRequest"`},
		[]string{`Unknown argument "frist"`},
		[]string{"Variable \"$number\" of type \"String!\" used in position expecting type \"Int!\""},
		[]string{`Cannot query field "loginn" on type "User"`})
}

// What GitHub answers besides data: NOT_FOUND errors beside null, 401 for
// a bad credential, RATE_LIMITED (HTTP 200) once the login's GraphQL quota
// is used up, which leaves the REST quota alone; a field the fake does not
// model is an error, never a silent null.
func TestGraphQLErrorsInWireShape(t *testing.T) {
	s, _, n := gqlFake(t, Options{})
	_, got := query(t, s, `query { repository(owner: "octocat", name: "Nope") { nameWithOwner } }`, nil, bearer(token))
	if want := `{"data":{"repository":null},"errors":[{"locations":[{"column":9,"line":1}],"message":"Could not resolve to a Repository with the name 'octocat/Nope'.","path":["repository"],"type":"NOT_FOUND"}]}`; jsonOf(got) != want {
		t.Errorf("missing repository\n got %s\nwant %s", jsonOf(got), want)
	}
	_, got = query(t, s, `query { repository(owner: "octocat", name: "Hello-World") { pullRequest(number: 999) { number } } }`, nil, bearer(token))
	if e := jsonOf(got["errors"]); !strings.Contains(e, `"NOT_FOUND"`) || !strings.Contains(e, `"path":["repository","pullRequest"]`) {
		t.Errorf("missing pull request: %s", jsonOf(got))
	}
	if status, got := query(t, s, `query { viewer { login } }`, nil, bearer("nope")); status != 401 || got["message"] != "Bad credentials" {
		t.Errorf("bad credential: %d %v", status, got)
	}
	_, got = query(t, s, fmt.Sprintf(`query { repository(owner: "octocat", name: "Hello-World") { pullRequest(number: %d) { title } } }`, n), nil, bearer(token))
	if e := jsonOf(got["errors"]); !strings.Contains(e, "FAKE_UNMODELLED") || !strings.Contains(e, "title") {
		t.Errorf("unmodelled field: %s", jsonOf(got))
	}
	rest := s.Quota("forgetools-bot")
	s.SetGraphQLQuota("forgetools-bot", 0)
	status, got := query(t, s, `query { viewer { login } }`, nil, bearer(token))
	if e := jsonOf(got["errors"]); status != 200 || !strings.Contains(e, `"RATE_LIMITED"`) || got["data"] != nil {
		t.Errorf("quota used up: %d %s", status, jsonOf(got))
	}
	if s.Quota("forgetools-bot") != rest {
		t.Errorf("GraphQL queries cost the REST quota")
	}
}

// On Enterprise Server GraphQL is at /api/graphql, beside /api/v3, and is
// held to the same schema.
func TestGraphQLEnterpriseMount(t *testing.T) {
	s, rt, n := gqlFake(t, Options{Host: "ghe.example.com", PathPrefix: "/api/v3"})
	if !strings.HasSuffix(s.GraphQLURL(), "/api/graphql") {
		t.Fatalf("GraphQL URL %s", s.GraphQLURL())
	}
	_, got := query(t, s, pullAggregates, map[string]any{"owner": "octocat", "name": "Hello-World", "number": n}, bearer(token))
	if !strings.Contains(jsonOf(got), "https://ghe.example.com/octocat/Hello-World/pull/") {
		t.Errorf("answer %s names no Enterprise URL", jsonOf(got))
	}
	if errs := rt.finish(); len(errs) != 0 {
		t.Errorf("failures: %v", errs)
	}
}
