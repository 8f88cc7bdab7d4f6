package githubtest

import (
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// hands is the seeded fake with files, a milestone, workflows and runs:
// what the agent-hands endpoints read and write.
func hands(t *testing.T, o Options) (*Server, ids) {
	s := seeded(t, o)
	const repo = "octocat/Hello-World"
	s.Commit(repo, "main", "Add sources",
		File{Path: "lib/hello.go", Content: "package lib\n"},
		File{Path: "lib/current", Symlink: "hello.go"},
		File{Path: "vendor/qunit", Submodule: "git://github.com/jquery/qunit.git"},
		File{Path: "data/big.csv", Content: strings.Repeat("x", maxJSONContent+1)},
	)
	s.AddMilestone(repo, "v1.0")
	s.AddWorkflow(repo, Workflow{Path: ".github/workflows/ci.yml", Name: "CI", Dispatch: true, Inputs: []string{"level"}})
	s.AddWorkflow(repo, Workflow{Path: ".github/workflows/nightly.yml", Name: "Nightly"})
	var x ids
	x.run = s.AddRun(repo, Run{Workflow: "ci.yml", Conclusion: "failure", Jobs: []Job{
		{Name: "lint", Conclusion: "success", Log: "lint ok\n"},
		{Name: "test", Conclusion: "failure", Log: Fixture("job_log.txt")},
	}})
	x.running = s.AddRun(repo, Run{Workflow: "ci.yml", Branch: "new-topic", Status: "in_progress", Jobs: []Job{{Name: "test"}}})
	x.job = x.run + 2 // ids are one sequence: the run, then its jobs
	return s, x
}

type ids struct{ run, running, job int64 }

// raw sends a request and returns the status, headers and body as text.
func raw(t *testing.T, s *Server, method, url, accept, body string, header http.Header) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	client := s.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func bearer(token string) http.Header { return http.Header{"Authorization": {"Bearer " + token}} }

// Every answer of the agent-hands endpoints has the members and types of
// GitHub's documented examples.
func TestHandsShapesMatchFixtures(t *testing.T) {
	s, x := hands(t, Options{})
	const repo = "/repos/octocat/Hello-World"
	readme := forgemodel.BlobSHA("# Hello-World\n")
	s.AddPull("octocat/Hello-World", Pull{Title: "Conflicts", Head: "fix-crash", Conflicts: true})
	head := s.Head("octocat/Hello-World", "new-topic")
	for _, step := range []struct {
		method, path, body, fixture string
		status                      int
	}{
		{"GET", repo + "/contents/README.md", "", "content_file.json", 200},
		{"GET", repo + "/contents/", "", "content_dir.json", 200},
		{"GET", repo + "/contents/lib", "", "content_dir.json", 200},
		{"GET", repo + "/contents/lib/current", "", "content_symlink.json", 200},
		{"GET", repo + "/contents/vendor/qunit", "", "content_submodule.json", 200},
		{"GET", repo + "/contents/data/big.csv", "", "content_large.json", 200},
		{"PUT", repo + "/contents/notes/hello.txt", `{"message":"m","content":"aGVsbG8K","branch":"fix-crash"}`, "file_committed.json", 201},
		{"PUT", repo + "/contents/README.md", `{"message":"m","content":"aGVsbG8K","sha":"` + readme + `"}`, "file_committed.json", 200},
		{"PUT", repo + "/contents/README.md", `{"message":"m","content":"aGVsbG8K","sha":"` + readme + `"}`, "error_409_stale_sha.json", 409},
		{"PUT", repo + "/contents/README.md", `{"message":"m","content":"aGVsbG8K"}`, "error_422_sha_missing.json", 422},
		{"POST", repo + "/git/refs", `{"ref":"refs/heads/featureA","sha":"` + head + `"}`, "ref_created.json", 201},
		{"POST", repo + "/git/refs", `{"ref":"refs/heads/featureA","sha":"` + head + `"}`, "error_422_ref_exists.json", 422},
		{"GET", repo + "/commits/no-such-ref", "", "error_422_no_commit.json", 422},
		{"GET", repo + "/pulls?state=all", "", "pulls.json", 200},
		{"PUT", repo + "/pulls/3/merge", `{"merge_method":"squash"}`, "error_405_not_mergeable.json", 405},
		{"PUT", repo + "/pulls/2/merge", `{"sha":"` + strings.Repeat("0", 40) + `"}`, "error_409_head_modified.json", 409},
		{"PUT", repo + "/pulls/2/merge", `{"sha":"` + head + `"}`, "merged.json", 200},
		{"PATCH", repo + "/issues/1", `{"state":"closed","state_reason":"not_planned","assignees":["octocat"],"milestone":1}`, "issue_closed.json", 200},
		{"GET", repo + "/actions/runs", "", "workflow_runs.json", 200},
		{"GET", repo + fmt.Sprintf("/actions/runs/%d", x.run), "", "workflow_run.json", 200},
		{"GET", repo + fmt.Sprintf("/actions/runs/%d/jobs", x.run), "", "workflow_jobs.json", 200},
		{"POST", repo + "/actions/workflows/ci.yml/dispatches", `{"ref":"main","return_run_details":true}`, "dispatch_details.json", 200},
		{"POST", repo + "/actions/workflows/nightly.yml/dispatches", `{"ref":"main"}`, "error_422_no_dispatch.json", 422},
		{"POST", repo + fmt.Sprintf("/actions/runs/%d/rerun", x.running), "", "error_403_already_running.json", 403},
	} {
		status, _, got := do(t, s, token, step.method, step.path, step.body)
		if status != step.status {
			t.Errorf("%s %s: status %d, want %d (%v)", step.method, step.path, status, step.status, got)
		}
		conforms(t, step.fixture, got, fixtureJSON(t, step.fixture))
	}
}

// A file written through the contents API reads back with its blob sha,
// which the next write must name; the fake's shas are git's.
func TestContentsRoundTrip(t *testing.T) {
	s, _ := hands(t, Options{})
	const repo = "/repos/octocat/Hello-World"
	status, _, got := do(t, s, token, "PUT", repo+"/contents/notes/a%20b.txt", `{"message":"Add notes","content":"`+base64.StdEncoding.EncodeToString([]byte("hello\n"))+`","branch":"fix-crash"}`)
	if status != 201 {
		t.Fatalf("create: %d %v", status, got)
	}
	blob := got.(map[string]any)["content"].(map[string]any)["sha"]
	if blob != "ce013625030ba8dba906f756967f9e9ca394464a" { // git hash-object of "hello\n"
		t.Errorf("blob sha %v, want git's", blob)
	}
	commit := got.(map[string]any)["commit"].(map[string]any)
	if commit["sha"] != s.Head("octocat/Hello-World", "fix-crash") || commit["message"] != "Add notes" {
		t.Errorf("commit %v, branch head %s", commit, s.Head("octocat/Hello-World", "fix-crash"))
	}
	if _, ok := s.FileAt("octocat/Hello-World", "main", "notes/a b.txt"); ok {
		t.Error("the write reached main")
	}
	status, _, got = do(t, s, token, "GET", repo+"/contents/notes/a%20b.txt?ref=fix-crash", "")
	m := got.(map[string]any)
	decoded, _ := base64.StdEncoding.DecodeString(strings.ReplaceAll(m["content"].(string), "\n", ""))
	if status != 200 || m["sha"] != blob || string(decoded) != "hello\n" {
		t.Errorf("read back: %d %v", status, m)
	}
	// Large files: the JSON form has no content; the raw media type does.
	status, _, body := raw(t, s, "GET", s.APIURL()+"repos/octocat/Hello-World/contents/data/big.csv", "application/vnd.github.raw+json", "", bearer(token))
	if status != 200 || len(body) != maxJSONContent+1 {
		t.Errorf("raw read: %d, %d bytes", status, len(body))
	}
	status, _, body = raw(t, s, "GET", s.APIURL()+"repos/octocat/Hello-World/commits/fix-crash", mediaSHA, "", bearer(token))
	if status != 200 || body != s.Head("octocat/Hello-World", "fix-crash") {
		t.Errorf("commit sha: %d %q", status, body)
	}
}

// A merge checks the head sha, commits the head's files onto the base and
// closes the pull request as merged; a disallowed method is 405.
func TestMerge(t *testing.T) {
	s, _ := hands(t, Options{})
	const full = "octocat/Hello-World"
	s.Configure(full, Settings{MergeMethods: []string{"squash"}})
	s.Commit(full, "new-topic", "Feature", File{Path: "feature.txt", Content: "new\n"})
	head := s.Head(full, "new-topic")
	status, _, got := do(t, s, token, "PUT", "/repos/"+full+"/pulls/2/merge", `{"sha":"`+head+`"}`)
	if status != 405 || got.(map[string]any)["message"] != "Merge commits are not allowed on this repository." {
		t.Errorf("disallowed method: %d %v", status, got)
	}
	status, _, got = do(t, s, token, "PUT", "/repos/"+full+"/pulls/2/merge", `{"sha":"`+head+`","merge_method":"squash"}`)
	if status != 200 || got.(map[string]any)["sha"] != s.Head(full, "main") {
		t.Fatalf("merge: %d %v", status, got)
	}
	if c, ok := s.FileAt(full, "main", "feature.txt"); !ok || c != "new\n" {
		t.Errorf("main after the merge: %q %v", c, ok)
	}
	_, _, got = do(t, s, token, "GET", "/repos/"+full+"/pulls/2", "")
	pr := got.(map[string]any)
	if pr["state"] != "closed" || pr["merged"] != true || pr["mergeable"] != nil || pr["head"].(map[string]any)["sha"] != head {
		t.Errorf("merged pull request: %v", pr)
	}
	if by, _ := pr["merged_by"].(map[string]any); by["login"] != "forgetools-bot" {
		t.Errorf("merged_by = %v, want the merging credential's login", pr["merged_by"])
	}
	status, _, _ = do(t, s, token, "PUT", "/repos/"+full+"/pulls/2/merge", `{"merge_method":"squash"}`)
	if status != 405 {
		t.Errorf("second merge: %d, want 405", status)
	}
}

// The logs endpoint redirects to the log store, another host, which
// serves ranges and refuses a request carrying GitHub's credential.
func TestJobLogsRedirectToTheLogStore(t *testing.T) {
	s, x := hands(t, Options{})
	status, h, _ := raw(t, s, "GET", s.APIURL()+fmt.Sprintf("repos/octocat/Hello-World/actions/jobs/%d/logs", x.job), "", "", bearer(token))
	loc := h.Get("Location")
	if status != 302 || !strings.HasPrefix(loc, "http://localhost:") || loc != s.LogURL(x.job) {
		t.Fatalf("logs: %d Location %q", status, loc)
	}
	status, h, body := raw(t, s, "GET", loc, "", "", http.Header{"Range": {"bytes=-60"}})
	if status != 206 || body != Fixture("job_log.txt")[len(Fixture("job_log.txt"))-60:] || !strings.HasPrefix(h.Get("Content-Range"), "bytes ") {
		t.Errorf("range: %d %v %q", status, h, body)
	}
	status, _, body = raw(t, s, "GET", loc, "", "", bearer(token))
	if status != 400 || !strings.Contains(body, "InvalidAuthenticationInfo") {
		t.Errorf("with a credential: %d %s", status, body)
	}
	status, _, _ = raw(t, s, "GET", strings.Replace(loc, "sig=", "sig=0", 1), "", "", nil)
	if status != 403 {
		t.Errorf("bad signature: %d", status)
	}
	last := s.Requests()[len(s.Requests())-1]
	if last.Path != fmt.Sprintf("/actions-results/job-logs/%d.txt", x.job) || !strings.HasPrefix(last.Host, "localhost:") {
		t.Errorf("log store request recorded as %s %s", last.Host, last.Path)
	}
}

// With TLS the log store is named 127.0.0.1 unless told otherwise, and
// LogHost puts any name in the redirect.
func TestLogHostName(t *testing.T) {
	s, x := hands(t, Options{TLS: true, LogHost: "productionresultssa0.blob.core.windows.net"})
	if got := s.LogURL(x.job); !strings.HasPrefix(got, "https://productionresultssa0.blob.core.windows.net:") {
		t.Errorf("LogURL = %s", got)
	}
	s2, _ := hands(t, Options{TLS: true})
	if status, _, body := raw(t, s2, "GET", s2.LogURL(x.job), "", "", nil); status != 200 || body != Fixture("job_log.txt") {
		t.Errorf("TLS log store: %d %q", status, body)
	}
}

// Dispatch starts a queued run on the ref, refuses undeclared inputs and
// unknown refs; a re-run of a completed run queues a new attempt.
func TestDispatchAndRerun(t *testing.T) {
	s, x := hands(t, Options{})
	const repo = "/repos/octocat/Hello-World"
	for _, tc := range []struct {
		body    string
		status  int
		message string
	}{
		{`{"ref":"main","inputs":{"level":"2","color":"red"}}`, 422, `Unexpected inputs provided: ["color"]`},
		{`{"ref":"gone"}`, 422, "No ref found for: gone"},
	} {
		status, _, got := do(t, s, token, "POST", repo+"/actions/workflows/ci.yml/dispatches", tc.body)
		if status != tc.status || got.(map[string]any)["message"] != tc.message {
			t.Errorf("%s: %d %v", tc.body, status, got)
		}
	}
	status, _, _ := raw(t, s, "POST", s.APIURL()+"repos/octocat/Hello-World/actions/workflows/ci.yml/dispatches", "", `{"ref":"new-topic","inputs":{"level":"2"}}`, bearer(token))
	if status != 204 {
		t.Errorf("dispatch without details: %d, want 204", status)
	}
	status, _, _ = raw(t, s, "POST", s.APIURL()+"repos/octocat/Hello-World/actions/workflows/missing.yml/dispatches", "", `{"ref":"main"}`, bearer(token))
	if status != 404 {
		t.Errorf("missing workflow: %d, want 404", status)
	}
	_, _, got := do(t, s, token, "GET", repo+"/actions/runs?branch=new-topic&status=queued", "")
	runs := got.(map[string]any)["workflow_runs"].([]any)
	if len(runs) != 1 || runs[0].(map[string]any)["event"] != "workflow_dispatch" {
		t.Errorf("queued runs on new-topic: %v", runs)
	}
	status, _, _ = do(t, s, token, "POST", repo+fmt.Sprintf("/actions/runs/%d/rerun-failed-jobs", x.run), "")
	if status != 201 {
		t.Fatalf("rerun: %d", status)
	}
	_, _, got = do(t, s, token, "GET", repo+fmt.Sprintf("/actions/runs/%d/jobs", x.run), "")
	var states []string
	for _, j := range got.(map[string]any)["jobs"].([]any) {
		m := j.(map[string]any)
		states = append(states, fmt.Sprint(m["name"], ":", m["status"], ":", m["run_attempt"]))
	}
	if strings.Join(states, " ") != "lint:completed:2 test:queued:2" {
		t.Errorf("jobs after re-running the failed ones: %v", states)
	}
}

// Issues filter by assignee and update time; an edit changes only what it
// sends, and a reopen says so.
func TestIssueEditsAndFilters(t *testing.T) {
	s, _ := hands(t, Options{})
	const repo = "/repos/octocat/Hello-World"
	n := s.AddIssue("octocat/Hello-World", Issue{Title: "Assigned", Assignees: []string{"hubot"}})
	_, _, got := do(t, s, token, "GET", repo+"/issues?assignee=hubot", "")
	if n := len(got.([]any)); n != 1 {
		t.Errorf("assignee=hubot: %d items", n)
	}
	_, _, got = do(t, s, token, "GET", fmt.Sprintf("%s/issues/%d", repo, n), "")
	since := got.(map[string]any)["updated_at"].(string)
	_, _, got = do(t, s, token, "GET", repo+"/issues?since="+since, "")
	if n := len(got.([]any)); n != 1 {
		t.Errorf("since %s: %d items, want the one issue created later", since, n)
	}
	do(t, s, token, "PATCH", repo+"/issues/1", `{"state":"closed"}`)
	_, _, got = do(t, s, token, "PATCH", repo+"/issues/1", `{"state":"open","title":"Found a bug again"}`)
	m := got.(map[string]any)
	if m["state"] != "open" || m["state_reason"] != "reopened" || m["title"] != "Found a bug again" || m["body"] != "It crashes." || m["closed_at"] != nil {
		t.Errorf("reopened: %v", m)
	}
	status, _, _ := do(t, s, token, "PATCH", repo+"/issues/1", `{"milestone":7}`)
	if status != 422 {
		t.Errorf("unknown milestone: %d", status)
	}
	_, _, got = do(t, s, token, "GET", repo, "")
	repoJSON := got.(map[string]any)
	if repoJSON["open_issues_count"] != float64(3) || repoJSON["permissions"].(map[string]any)["push"] != true || repoJSON["permissions"].(map[string]any)["admin"] != false {
		t.Errorf("repository: %v", repoJSON)
	}
}
