package lineartest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

const key = "lin_api_lineartestKEY0000"

var clock = time.UnixMilli(1767225600000) // 2026-01-01T00:00:00Z

// seeded is a fake with team ENG (labels Bug, workspace-wide, and Backend),
// issues ENG-1 (open, Bug) and ENG-2 (completed), and a key for "builder".
func seeded(t *testing.T) *Server {
	s := New(Options{Clock: clock})
	t.Cleanup(s.Close)
	s.AddKey(key, User{Name: "Builder Bot", DisplayName: "builder"})
	s.AddTeam("ENG", "Engineering")
	s.AddTeam("OPS", "Operations")
	s.AddLabel("", "Bug")
	s.AddLabel("ENG", "Backend")
	s.AddIssue("ENG", Issue{Title: "Crash on save", Description: "Steps.", State: "started", Labels: []string{"Bug"}, Creator: &User{Name: "Ada Lovelace", DisplayName: "ada"}})
	s.AddIssue("ENG", Issue{Title: "Old bug", State: "completed", Labels: []string{"Bug", "Backend"}})
	return s
}

// post sends one GraphQL request and returns the status and raw answer.
func post(t *testing.T, s *Server, auth, query string, vars map[string]any) (int, string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest("POST", s.APIURL(), bytes.NewReader(body))
	req.Header.Set("Authorization", auth)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(raw))
}

// The answer carries exactly the fields selected, through aliases,
// fragments and nested connections.
func TestAnswersTheSelection(t *testing.T) {
	s := seeded(t)
	status, got := post(t, s, key, `query Q($id: String!) {
  it: issue(id: $id) { ...F comments(first: 5) { nodes { body } } }
}
fragment F on Issue { identifier number state { type } creator { displayName } labels(first: 50) { nodes { name } } }`,
		map[string]any{"id": "eng-1"})
	want := `{"data":{"it":{"comments":{"nodes":[]},"creator":{"displayName":"ada"},"identifier":"ENG-1","labels":{"nodes":[{"name":"Bug"}]},"number":1,"state":{"type":"started"}}}}`
	if status != 200 || got != want {
		t.Errorf("got %d %s\nwant %s", status, got, want)
	}
	status, got = post(t, s, key, `query { issue(id: "ENG-1") { nope } }`, nil)
	if status != 400 || !strings.Contains(got, `Cannot query field \"nope\" on type \"Issue\".`) || !strings.Contains(got, "GRAPHQL_VALIDATION_FAILED") {
		t.Errorf("unknown field: %d %s", status, got)
	}
}

// Filters as the provider sends them: team by id, state types, every label.
func TestIssueFilters(t *testing.T) {
	s := seeded(t)
	eng := newID("team", "ENG")
	for _, tc := range []struct {
		filter map[string]any
		want   string
	}{
		{map[string]any{"team": map[string]any{"id": map[string]any{"eq": eng}}}, `"ENG-2"},{"identifier":"ENG-1"`},
		{map[string]any{"state": map[string]any{"type": map[string]any{"nin": []any{"started"}}}}, `"ENG-2"`},
		{map[string]any{"and": []any{
			map[string]any{"labels": map[string]any{"some": map[string]any{"name": map[string]any{"eq": "Bug"}}}},
			map[string]any{"labels": map[string]any{"some": map[string]any{"name": map[string]any{"eq": "Backend"}}}},
		}}, `"ENG-2"`},
	} {
		_, got := post(t, s, key, `query I($filter: IssueFilter!, $first: Int!) { issues(filter: $filter, first: $first, orderBy: createdAt) { nodes { identifier } } }`,
			map[string]any{"filter": tc.filter, "first": 10})
		if want := `{"data":{"issues":{"nodes":[{"identifier":` + tc.want + `}]}}}`; got != want {
			t.Errorf("filter %v:\n got %s\nwant %s", tc.filter, got, want)
		}
	}
	_, got := post(t, s, key, `query { issues(filter: { color: { eq: "x" } }) { nodes { id } } }`, nil)
	if !strings.Contains(got, "GRAPHQL_VALIDATION_FAILED") {
		t.Errorf("unknown filter field: %s", got)
	}
}

// A client-chosen id files once; the second create is refused with
// Linear's input error, and the issue reads back by that id.
func TestCreateWithClientID(t *testing.T) {
	s := seeded(t)
	const id = "9b328554-33f6-4a26-b439-c471805bf04f"
	create := `mutation C($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { id identifier creator { name } state { type } url } } }`
	vars := map[string]any{"input": map[string]any{"id": id, "teamId": newID("team", "ENG"), "title": "Flaky test"}}
	status, got := post(t, s, key, create, vars)
	want := `{"data":{"issueCreate":{"issue":{"creator":{"name":"Builder Bot"},"id":"` + id + `","identifier":"ENG-3","state":{"type":"triage"},"url":"https://linear.app/acme/issue/ENG-3/flaky-test"},"success":true}}}`
	if status != 200 || got != want {
		t.Fatalf("create: %d %s\nwant %s", status, got, want)
	}
	status, got = post(t, s, key, create, vars)
	if status != 400 || !strings.Contains(got, "An entity with this id already exists.") || !strings.Contains(got, `"path":["issueCreate"]`) {
		t.Errorf("second create: %d %s", status, got)
	}
	_, got = post(t, s, key, `query { issue(id: "`+id+`") { identifier } }`, nil)
	if got != `{"data":{"issue":{"identifier":"ENG-3"}}}` {
		t.Errorf("read back by id: %s", got)
	}
	_, got = post(t, s, key, create, map[string]any{"input": map[string]any{"teamId": newID("team", "OPS"), "title": "x", "labelIds": []any{newID("label", "ENG", "Backend")}}})
	if !strings.Contains(got, "Entity not found: IssueLabel") {
		t.Errorf("another team's label: %s", got)
	}
}

func TestAuthenticationAndInjection(t *testing.T) {
	s := seeded(t)
	status, got := post(t, s, "lin_api_revoked", `query { teams { nodes { key } } }`, nil)
	if status != 401 || !strings.Contains(got, "AUTHENTICATION_ERROR") {
		t.Errorf("unknown key: %d %s", status, got)
	}
	s.Inject("issueCreate", Response{Status: 400, Body: Fixture("error_ratelimited.json"), Header: http.Header{"X-Ratelimit-Requests-Remaining": {"0"}}})
	if _, got = post(t, s, key, `query { teams(filter: { key: { eq: "ENG" } }) { nodes { key } } }`, nil); got != `{"data":{"teams":{"nodes":[{"key":"ENG"}]}}}` {
		t.Errorf("teams: %s", got)
	}
	status, got = post(t, s, key, `mutation { issueCreate(input: {teamId: "x", title: "t"}) { success } }`, nil)
	if status != 400 || !strings.Contains(got, "RATELIMITED") || len(s.Pending()) != 0 {
		t.Errorf("injected: %d %s (pending %v)", status, got, s.Pending())
	}
	reqs := s.Requests()
	if len(reqs) != 3 || !reqs[2].Injected || reqs[2].Fields[0] != "issueCreate" || reqs[1].Operation != "" || reqs[0].Header.Get("Authorization") != "lin_api_revoked" {
		t.Errorf("requests = %+v", reqs)
	}
}

// Linear documents client-chosen ids as "UUID v4 format"; the fake refuses
// any other version, for issues and comments alike.
func TestClientIDMustBeVersion4(t *testing.T) {
	s := seeded(t)
	const v5 = "9b328554-33f6-5a26-b439-c471805bf04f"
	create := `mutation C($input: IssueCreateInput!) { issueCreate(input: $input) { success } }`
	status, got := post(t, s, key, create, map[string]any{"input": map[string]any{"id": v5, "teamId": newID("team", "ENG"), "title": "x"}})
	if status != 400 || !strings.Contains(got, "id must be a UUID") || !strings.Contains(got, `"code":"INVALID_INPUT"`) {
		t.Errorf("issueCreate with a v5 id: %d %s", status, got)
	}
	comment := `mutation C($input: CommentCreateInput!) { commentCreate(input: $input) { success } }`
	status, got = post(t, s, key, comment, map[string]any{"input": map[string]any{"id": v5, "issueId": newID("issue", "ENG", 1), "body": "b"}})
	if status != 400 || !strings.Contains(got, "id must be a UUID") {
		t.Errorf("commentCreate with a v5 id: %d %s", status, got)
	}
	// Linear's own ids are version 4 too, and so are the fake's.
	for _, id := range []string{s.IssueID("ENG-1"), newID("team", "ENG"), newID("comment", 0)} {
		if u := uuid.MustParse(id); u.Version() != 4 || u.Variant() != uuid.RFC4122 {
			t.Errorf("the fake minted %s, a version %d id", id, u.Version())
		}
	}
}
