package giteatest

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	sdk "code.gitea.io/sdk/gitea"
)

const token = "gitea_fakeTokenForGiteatest000000000000"

func seeded(t *testing.T) *Server {
	s := New(Options{})
	t.Cleanup(s.Close)
	s.AddToken(token, "forgetools-bot")
	s.AddToken("reviewer-token-0000000000000", "forgetools-reviewer")
	s.AddRepo("acme/gadgets", "main", map[string]string{"src/gadget.go": "package gadget\n"}, "feature")
	s.AddLabel("acme/gadgets", "bug")
	s.AddIssue("acme/gadgets", Issue{Title: "Gadget jams", Labels: []string{"bug"}})
	s.AddPull("acme/gadgets", Pull{Title: "Feature", Head: "feature", Status: "success"})
	s.AddRun("acme/gadgets", Run{Workflow: "ci.yml", Branch: "main", Status: "completed", Conclusion: "failure", Jobs: []Job{{Name: "test", Conclusion: "failure", Log: "FAIL\n"}}})
	return s
}

func get(t *testing.T, s *Server, method, path, body, auth string) (int, http.Header, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, s.APIURL()+strings.TrimPrefix(path, "/"), strings.NewReader(body))
	if auth != "" {
		req.Header.Set("Authorization", "token "+auth)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

// keys are an object's member names.
func keys(t *testing.T, raw []byte) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("not an object: %s", raw)
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func first(t *testing.T, raw []byte, member string) []byte {
	t.Helper()
	if member == "" {
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) == nil {
			return list[0]
		}
		return raw
	}
	var m map[string]json.RawMessage
	var list []json.RawMessage
	if json.Unmarshal(raw, &m) != nil || json.Unmarshal(m[member], &list) != nil || len(list) == 0 {
		t.Fatalf("no %s in %s", member, raw)
	}
	return list[0]
}

// Every member the fake sends is one Gitea documents (the fixture has
// it), and the members forgetools reads are all there.
func TestShapesMatchFixtures(t *testing.T) {
	s := seeded(t)
	_, _, content := get(t, s, "GET", "/repos/acme/gadgets/contents/src/gadget.go?ref=main", "", token)
	_, _, written := get(t, s, "POST", "/repos/acme/gadgets/contents/NEW.md", `{"content":"eA==","message":"m","branch":"feature"}`, token)
	_, _, review := get(t, s, "POST", "/repos/acme/gadgets/pulls/2/reviews", `{"event":"COMMENT","body":"b","comments":[{"path":"src/gadget.go","body":"x","new_position":1}]}`, "reviewer-token-0000000000000")
	var rv sdk.PullReview
	json.Unmarshal(review, &rv)
	_, _, branch := get(t, s, "POST", "/repos/acme/gadgets/branches", `{"new_branch_name":"b2"}`, token)
	for _, c := range []struct {
		fixture, method, path, member string
		raw                           []byte
	}{
		{"issue.json", "GET", "/repos/acme/gadgets/issues/1", "", nil},
		{"pull.json", "GET", "/repos/acme/gadgets/pulls/2", "", nil},
		{"repo.json", "GET", "/repos/acme/gadgets", "", nil},
		{"combined_status.json", "GET", "/repos/acme/gadgets/commits/" + s.Head("acme/gadgets", "feature") + "/status", "", nil},
		{"runs.json", "GET", "/repos/acme/gadgets/actions/runs", "", nil},
		{"jobs.json", "GET", "/repos/acme/gadgets/actions/runs/" + "0/jobs", "", nil},
		{"content.json", "", "", "", content},
		{"file_response.json", "", "", "", written},
		{"review.json", "", "", "", review},
		{"branch.json", "", "", "", branch},
		{"review_comment.json", "GET", "/repos/acme/gadgets/pulls/2/reviews/" + itoa(rv.ID) + "/comments", "", nil},
	} {
		raw := c.raw
		if raw == nil {
			path := c.path
			if strings.Contains(path, "runs/0/jobs") {
				var runs sdk.ActionWorkflowRunsResponse
				_, _, b := get(t, s, "GET", "/repos/acme/gadgets/actions/runs", "", token)
				json.Unmarshal(b, &runs)
				path = "/repos/acme/gadgets/actions/runs/" + itoa(runs.WorkflowRuns[0].ID) + "/jobs"
			}
			status, _, b := get(t, s, c.method, path, "", token)
			if status != 200 {
				t.Fatalf("%s %s: %d %s", c.method, path, status, b)
			}
			raw = b
		}
		obj := first(t, raw, "")
		want := first(t, []byte(Fixture(c.fixture)), "")
		if c.fixture == "runs.json" {
			obj, want = first(t, raw, "workflow_runs"), first(t, []byte(Fixture(c.fixture)), "workflow_runs")
		}
		if c.fixture == "jobs.json" {
			obj, want = first(t, raw, "jobs"), first(t, []byte(Fixture(c.fixture)), "jobs")
		}
		documented := keys(t, want)
		for _, k := range keys(t, obj) {
			if !slices.Contains(documented, k) {
				t.Errorf("%s: the fake sends %q, which Gitea does not", c.fixture, k)
			}
		}
	}
}

// The fixtures decode into the SDK's types with the values the fake's
// tests rely on: they are the shapes the client reads.
func TestFixturesDecodeIntoSDKTypes(t *testing.T) {
	var i sdk.Issue
	var pr sdk.PullRequest
	var r sdk.Repository
	var fr sdk.FileResponse
	var runs sdk.ActionWorkflowRunsResponse
	for name, v := range map[string]any{"issue.json": &i, "pull.json": &pr, "repo.json": &r, "file_response.json": &fr, "runs.json": &runs} {
		if err := json.Unmarshal([]byte(Fixture(name)), v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if i.Index != 1 || i.Labels[0].Name != "bug" || pr.Head.Sha == "" || !pr.Mergeable || r.Permissions == nil || !r.Permissions.Admin ||
		fr.Commit.SHA == "" || fr.Content.SHA == "" || runs.WorkflowRuns[0].Conclusion != "failure" {
		t.Errorf("decoded %+v %+v %+v %+v %+v", i, pr, r, fr, runs)
	}
}

func TestErrorsAndAuth(t *testing.T) {
	s := seeded(t)
	status, _, body := get(t, s, "GET", "/repos/acme/gadgets/issues/1", "", "wrong")
	if status != 401 || !strings.Contains(string(body), `"message":"invalid username, password or token"`) {
		t.Errorf("bad token: %d %s", status, body)
	}
	status, _, body = get(t, s, "GET", "/repos/acme/nothing", "", token)
	if status != 404 || keys(t, body)[1] != "message" {
		t.Errorf("missing repo: %d %s", status, body)
	}
	if status, h, _ := get(t, s, "GET", "/repos/acme/gadgets/issues?limit=1&type=issues&state=all", "", token); status != 200 || h.Get("X-Total-Count") != "1" {
		t.Errorf("paging headers %v", h)
	}
	forgejo := New(Options{Forgejo: true})
	defer forgejo.Close()
	forgejo.AddToken(token, "x")
	forgejo.AddRepo("acme/gadgets", "main", nil)
	if status, _, _ := get(t, forgejo, "GET", "/repos/acme/gadgets/actions/runs", "", token); status != 404 {
		t.Errorf("Forgejo serves Gitea's run API: %d", status)
	}
	if _, _, b := get(t, forgejo, "GET", "/version", "", ""); !strings.Contains(string(b), "+gitea-") {
		t.Errorf("Forgejo version %s", b)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
