package gitlabtest

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	gl "gitlab.com/gitlab-org/api/client-go"
)

const (
	token      = "glpat-fakeTokenForGitlabtest0000000000"
	reviewer   = "glpat-fakeReviewerForGitlabtest0000000"
	deployPath = "/projects/platform%2Finfra%2Fdeploy"
)

func seeded(t *testing.T) *Server {
	s := New(Options{})
	t.Cleanup(s.Close)
	s.AddToken(token, "forgetools-bot")
	s.AddToken(reviewer, "forgetools-reviewer")
	s.AddProject("platform/infra/deploy", "main", map[string]string{"charts/app/values.yaml": "replicas: 2\n"}, "canary")
	s.AddMilestone("platform/infra/deploy", "v1.0")
	s.AddIssue("platform/infra/deploy", Issue{Title: "Rollout stalls", Labels: []string{"bug"}})
	s.AddMergeRequest("platform/infra/deploy", MergeRequest{Title: "Canary", Author: "forgetools-bot", Source: "canary", Pipeline: "success"})
	s.AddPipeline("platform/infra/deploy", Pipeline{Ref: "main", Status: "failed", Jobs: []Job{{Name: "deploy", Status: "failed", Trace: "Error\n"}}})
	return s
}

func do(t *testing.T, s *Server, method, path, body, auth string) (int, http.Header, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, s.URL+"/api/v4"+path, strings.NewReader(body))
	if auth != "" {
		req.Header.Set("PRIVATE-TOKEN", auth)
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

func members(t *testing.T, raw []byte) []string {
	t.Helper()
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil && len(list) > 0 {
		raw = list[0]
	}
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

// Every member the fake sends is one GitLab documents (the fixture has
// it).
func TestShapesMatchFixtures(t *testing.T) {
	s := seeded(t)
	_, _, note := do(t, s, "POST", deployPath+"/issues/1/notes", `{"body":"Seen."}`, token)
	_, _, mr := do(t, s, "GET", deployPath+"/merge_requests/1", "", token)
	var m gl.MergeRequest
	json.Unmarshal(mr, &m)
	refs := m.DiffRefs
	_, _, disc := do(t, s, "POST", deployPath+"/merge_requests/1/discussions",
		`{"body":"2?","position":{"base_sha":"`+refs.BaseSha+`","start_sha":"`+refs.StartSha+`","head_sha":"`+refs.HeadSha+`","position_type":"text","new_path":"charts/app/values.yaml","old_path":"charts/app/values.yaml","new_line":1}}`, reviewer)
	_, _, approvals := do(t, s, "POST", deployPath+"/merge_requests/1/approve", `{}`, reviewer)
	_, _, branch := do(t, s, "POST", deployPath+"/repository/branches", `{"branch":"b2","ref":"main"}`, token)
	_, _, commit := do(t, s, "POST", deployPath+"/repository/commits",
		`{"branch":"b2","commit_message":"m","actions":[{"action":"create","file_path":"n.txt","content":"bg==","encoding":"base64"},{"action":"delete","file_path":"README.md"}]}`, token)
	var d gl.Discussion
	if err := json.Unmarshal(disc, &d); err != nil || len(d.Notes) != 1 {
		t.Fatalf("discussion %s", disc)
	}
	diffNote, _ := json.Marshal(map[string]any{})
	_, _, notes := do(t, s, "GET", deployPath+"/merge_requests/1/notes", "", token)
	var list []json.RawMessage
	json.Unmarshal(notes, &list)
	diffNote = list[0]
	for _, c := range []struct {
		fixture, path string
		raw           []byte
	}{
		{"issue.json", deployPath + "/issues/1", nil},
		{"project.json", deployPath, nil},
		{"merge_request.json", "", mr},
		{"approvals.json", "", approvals},
		{"note.json", "", note},
		{"diff_note.json", "", diffNote},
		{"discussion.json", "", disc},
		{"branch.json", "", branch},
		{"branch.json", deployPath + "/repository/branches/b2", nil},
		{"commit.json", "", commit},
		{"file.json", deployPath + "/repository/files/charts%2Fapp%2Fvalues%2Eyaml?ref=main", nil},
		{"tree.json", deployPath + "/repository/tree?ref=main", nil},
		{"pipeline.json", deployPath + "/pipelines", nil},
		{"milestone.json", deployPath + "/milestones", nil},
		{"user.json", "/users?username=forgetools-bot", nil},
	} {
		raw := c.raw
		if raw == nil {
			status, _, b := do(t, s, "GET", c.path, "", token)
			if status != 200 {
				t.Fatalf("GET %s: %d %s", c.path, status, b)
			}
			raw = b
		}
		documented := members(t, []byte(Fixture(c.fixture)))
		for _, k := range members(t, raw) {
			if !slices.Contains(documented, k) {
				t.Errorf("%s: the fake sends %q, which GitLab does not", c.fixture, k)
			}
		}
	}
	var pls []gl.PipelineInfo
	_, _, b := do(t, s, "GET", deployPath+"/pipelines", "", token)
	json.Unmarshal(b, &pls)
	_, _, jobs := do(t, s, "GET", deployPath+"/pipelines/"+itoa(pls[0].ID)+"/jobs", "", token)
	documented := members(t, []byte(Fixture("job.json")))
	for _, k := range members(t, jobs) {
		if !slices.Contains(documented, k) {
			t.Errorf("job.json: the fake sends %q, which GitLab does not", k)
		}
	}
}

// The fixtures decode into the client's types with the values the fake's
// tests rely on.
func TestFixturesDecodeIntoClientTypes(t *testing.T) {
	var i gl.Issue
	var mr gl.MergeRequest
	var p gl.Project
	var f gl.File
	var n gl.Note
	var a gl.MergeRequestApprovals
	for name, v := range map[string]any{"issue.json": &i, "merge_request.json": &mr, "project.json": &p, "file.json": &f, "diff_note.json": &n, "approvals.json": &a} {
		if err := json.Unmarshal([]byte(Fixture(name)), v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if i.IID != 1 || mr.DiffRefs.BaseSha == "" || mr.HeadPipeline == nil || p.Permissions.ProjectAccess.AccessLevel != gl.OwnerPermissions ||
		f.BlobID == "" || n.Position == nil || n.Position.NewLine != 1 || len(a.ApprovedBy) != 1 || a.ApprovedBy[0].User.Username != "forgetools-reviewer" {
		t.Errorf("decoded %+v %+v %+v %+v %+v %+v", i, mr, p, f, n, a)
	}
}

func TestPagingAuthAndErrors(t *testing.T) {
	s := seeded(t)
	for range 3 {
		s.AddIssue("platform/infra/deploy", Issue{Title: "more"})
	}
	status, h, _ := do(t, s, "GET", deployPath+"/issues?per_page=3", "", token)
	if status != 200 || h.Get("X-Next-Page") != "2" || h.Get("X-Total") != "4" || h.Get("RateLimit-Limit") == "" {
		t.Errorf("paging %d %v", status, h)
	}
	if status, _, b := do(t, s, "GET", deployPath, "", "nope"); status != 401 || string(b) != Fixture("error_401.json") {
		t.Errorf("bad token: %d %s", status, b)
	}
	if status, _, b := do(t, s, "GET", "/projects/platform%2Fnothing", "", token); status != 404 || string(b) != Fixture("error_404.json") {
		t.Errorf("missing project: %d %s", status, b)
	}
	var m gl.MergeRequest
	_, _, b := do(t, s, "GET", deployPath+"/merge_requests/1", "", token)
	json.Unmarshal(b, &m)
	if status, _, b := do(t, s, "PUT", deployPath+"/merge_requests/1/merge", `{"sha":"0000"}`, token); status != 409 || !strings.Contains(string(b), "SHA does not match HEAD of source branch") {
		t.Errorf("stale merge: %d %s", status, b)
	}
	if status, _, _ := do(t, s, "POST", deployPath+"/merge_requests/1/approve", `{}`, token); status != 401 {
		t.Errorf("the author approved their own merge request: %d", status)
	}
	if status, _, b := do(t, s, "POST", deployPath+"/issues", `{"description":"x"}`, token); status != 400 || !strings.Contains(string(b), "title is missing") {
		t.Errorf("no title: %d %s", status, b)
	}
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
