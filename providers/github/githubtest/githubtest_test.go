package githubtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

const (
	token    = "ghp_fakeTokenForGithubtest000000000000"
	reviewer = "ghp_fakeReviewerForGithubtest0000000000"
)

// seeded is a fake with octocat/Hello-World: issue #1, pull request #2 from
// new-topic by octocat, and the tokens of forgetools-bot and a reviewer.
func seeded(t *testing.T, o Options) *Server {
	s := NewChecked(t, o)
	t.Cleanup(s.Close)
	s.AddToken(token, "forgetools-bot")
	s.AddToken(reviewer, "forgetools-reviewer")
	s.AddRepo("octocat/Hello-World", "main", "new-topic", "fix-crash")
	s.AddIssue("octocat/Hello-World", Issue{Title: "Found a bug", Body: "It crashes.", Labels: []string{"bug"}})
	s.AddPull("octocat/Hello-World", Pull{Title: "Amazing new feature", Head: "new-topic", Files: []Change{{Path: "a.go", Patch: aGoPatch}}})
	return s
}

// aGoPatch is pull request #2's change to a.go: its diff shows the new
// file's lines 1-3 (RIGHT) and the old file's 1-3 and 7 (LEFT).
const aGoPatch = "@@ -1,3 +1,3 @@\n package a\n-var x = 1\n+var x = 2\n func f() {}\n@@ -7,1 +6,0 @@\n-// gone"

// do sends one API request the way go-github does and returns the status,
// headers and decoded JSON body.
func do(t *testing.T, s *Server, auth, method, path, body string) (int, http.Header, any) {
	t.Helper()
	h := bearer(auth)
	h.Set("X-GitHub-Api-Version", APIVersion)
	status, header, raw := raw(t, s, method, s.APIURL()+strings.TrimPrefix(path, "/"), "", body, h)
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatalf("%s %s: answer is not JSON: %s", method, path, raw)
	}
	return status, header, v
}

// conforms reports every member of got that GitHub's documented example
// want does not have, or has with another JSON type. null matches anything:
// the examples show some members null that the fake fills, and vice versa.
func conforms(t *testing.T, where string, got, want any) {
	t.Helper()
	if got == nil || want == nil {
		return
	}
	switch g := got.(type) {
	case map[string]any:
		w, ok := want.(map[string]any)
		if !ok {
			t.Errorf("%s: object, the example has %T", where, want)
			return
		}
		for k, v := range g {
			wv, ok := w[k]
			if !ok {
				t.Errorf("%s.%s: not a member of the documented example", where, k)
				continue
			}
			conforms(t, where+"."+k, v, wv)
		}
	case []any:
		w, ok := want.([]any)
		if !ok {
			t.Errorf("%s: array, the example has %T", where, want)
			return
		}
		if len(g) > 0 && len(w) > 0 {
			conforms(t, where+"[0]", g[0], w[0])
		}
	default:
		if fmt.Sprintf("%T", got) != fmt.Sprintf("%T", want) {
			t.Errorf("%s: %T, the example has %T", where, got, want)
		}
	}
}

func fixtureJSON(t *testing.T, name string) any {
	var v any
	if err := json.Unmarshal([]byte(Fixture(name)), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// Every answer the fake builds has the members and types of GitHub's own.
func TestShapesMatchFixtures(t *testing.T) {
	s := seeded(t, Options{})
	const repo = "/repos/octocat/Hello-World"
	for _, step := range []struct {
		method, path, body, fixture string
		status                      int
	}{
		{"GET", repo, "", "repo.json", 200},
		{"GET", repo + "/issues/1", "", "issue.json", 200},
		{"GET", repo + "/issues/2", "", "issue_is_pull.json", 200},
		{"POST", repo + "/issues", `{"title":"t","labels":["bug"]}`, "issue_created.json", 201},
		{"POST", repo + "/issues/1/comments", `{"body":"b"}`, "comment_created.json", 201},
		{"GET", repo + "/issues/1/comments", "", "issue_comments.json", 200},
		{"GET", repo + "/pulls/2", "", "pull.json", 200},
		{"POST", repo + "/pulls", `{"title":"t","head":"fix-crash","base":"main"}`, "pull_created.json", 201},
		{"POST", repo + "/pulls/2/reviews", `{"event":"REQUEST_CHANGES","body":"b","comments":[{"path":"a.go","line":3,"body":"c"}]}`, "review_created.json", 200},
		{"GET", repo + "/pulls/2/reviews", "", "pull_reviews.json", 200},
		{"GET", repo + "/pulls/2/comments", "", "pull_review_comments.json", 200},
		{"GET", repo + "/pulls/2/files", "", "pull_files.json", 200},
		{"POST", repo + "/pulls/2/reviews", `{"event":"COMMENT","body":"b","comments":[{"path":"a.go","line":9,"body":"c"}]}`, "error_422_line_unresolved.json", 422},
		{"GET", repo + "/commits/abc/status", "", "combined_status_empty.json", 200},
		{"GET", repo + "/commits/abc/check-runs", "", "check_runs_none.json", 200},
		{"GET", repo + "/issues/99", "", "error_404.json", 404},
		{"POST", repo + "/pulls", `{"title":"t","head":"nope","base":"gone"}`, "error_422_fields.json", 422},
		{"POST", repo + "/pulls", `{"title":"t","head":"new-topic","base":"main"}`, "error_422_pull_exists.json", 422},
	} {
		status, _, got := do(t, s, reviewer, step.method, step.path, step.body)
		if status != step.status {
			t.Errorf("%s %s: status %d, want %d (%v)", step.method, step.path, status, step.status, got)
		}
		conforms(t, step.fixture, got, fixtureJSON(t, step.fixture))
	}
}

// The issues endpoint lists pull requests too, filtered and paged the way
// GitHub's is.
func TestListIssuesMixesPullRequestsAndPages(t *testing.T) {
	s := seeded(t, Options{})
	for i := range 3 {
		s.AddIssue("octocat/Hello-World", Issue{Title: fmt.Sprint("more ", i), Labels: []string{"bug", "ui"}})
	}
	s.AddIssue("octocat/Hello-World", Issue{Title: "closed", State: "closed", Labels: []string{"bug"}})
	status, h, got := do(t, s, token, "GET", "/repos/octocat/Hello-World/issues?state=open&labels=bug&per_page=2", "")
	if status != 200 {
		t.Fatalf("status %d", status)
	}
	var numbers []any
	for _, it := range got.([]any) {
		numbers = append(numbers, it.(map[string]any)["number"])
	}
	if fmt.Sprint(numbers) != "[5 4]" {
		t.Errorf("page 1 = %v, want [5 4] (open, labelled bug, newest first)", numbers)
	}
	link := h.Get("Link")
	next := "<" + s.URL + "/repos/octocat/Hello-World/issues?labels=bug&page=2&per_page=2&state=open>"
	if link != next+`; rel="next", `+next+`; rel="last"` {
		t.Errorf("Link = %q", link)
	}
	_, _, got = do(t, s, token, "GET", "/repos/octocat/Hello-World/issues?state=all&direction=desc", "")
	var pulls []any
	for _, it := range got.([]any) {
		if m := it.(map[string]any); m["pull_request"] != nil {
			pulls = append(pulls, m["number"])
		}
	}
	if fmt.Sprint(pulls) != "[2]" {
		t.Errorf("pull requests in the listing = %v, want [2]", pulls)
	}
}

func TestAuthenticationAndVersion(t *testing.T) {
	s := seeded(t, Options{})
	status, _, got := do(t, s, "ghp_revoked", "GET", "/repos/octocat/Hello-World/issues/1", "")
	if status != 401 || got.(map[string]any)["message"] != "Bad credentials" {
		t.Errorf("unknown token: %d %v", status, got)
	}
	req, _ := http.NewRequest("GET", s.APIURL()+"repos/octocat/Hello-World", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("X-GitHub-Api-Version", "2099-01-01")
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Errorf("unsupported API version: status %d, want 400", resp.StatusCode)
	}
}

// GitHub refuses a verdict from the pull request's author; a comment is
// fine, and inline comments belong to their review.
func TestReviewsByAuthorAndReviewer(t *testing.T) {
	s := seeded(t, Options{})
	s.AddToken("ghp_octocat", "octocat")
	status, _, got := do(t, s, "ghp_octocat", "POST", "/repos/octocat/Hello-World/pulls/2/reviews", `{"event":"APPROVE"}`)
	if status != 422 || !strings.Contains(fmt.Sprint(got), "Can not approve your own pull request") {
		t.Errorf("own approval: %d %v", status, got)
	}
	status, _, got = do(t, s, reviewer, "POST", "/repos/octocat/Hello-World/pulls/2/reviews",
		`{"event":"APPROVE","comments":[{"path":"a.go","line":7,"side":"LEFT","body":"nit"}]}`)
	if status != 200 || got.(map[string]any)["state"] != "APPROVED" {
		t.Fatalf("approval: %d %v", status, got)
	}
	id := got.(map[string]any)["id"]
	_, _, got = do(t, s, token, "GET", "/repos/octocat/Hello-World/pulls/2/comments", "")
	c := got.([]any)[0].(map[string]any)
	if c["pull_request_review_id"] != id || c["side"] != "LEFT" || c["line"] != float64(7) || c["user"].(map[string]any)["login"] != "forgetools-reviewer" {
		t.Errorf("inline comment = %v", c)
	}
}

// An inline comment must name a line the pull request's diff shows, on
// the side given, in a file it changes; GitHub refuses the whole review
// otherwise, without saying which comment.
func TestReviewCommentsOutsideTheDiff(t *testing.T) {
	s := seeded(t, Options{})
	for _, c := range []struct{ comment, want string }{
		{`{"path":"a.go","line":4,"body":"c"}`, "Line could not be resolved"},
		{`{"path":"a.go","line":7,"side":"RIGHT","body":"c"}`, "Line could not be resolved"},
		{`{"path":"b.go","line":1,"body":"c"}`, "Path could not be resolved"},
	} {
		status, _, got := do(t, s, reviewer, "POST", "/repos/octocat/Hello-World/pulls/2/reviews",
			`{"event":"COMMENT","body":"b","comments":[{"path":"a.go","line":2,"body":"fine"},`+c.comment+`]}`)
		if status != 422 || !strings.Contains(fmt.Sprint(got), c.want) {
			t.Errorf("%s: %d %v, want 422 %q", c.comment, status, got, c.want)
		}
	}
	if _, _, got := do(t, s, token, "GET", "/repos/octocat/Hello-World/pulls/2/reviews", ""); len(got.([]any)) != 0 {
		t.Errorf("a refused review was kept: %v", got)
	}
}

// A login with read access only gets its new issue filed without the
// labels it asked for, and a 201 all the same.
func TestLabelsDroppedWithoutPush(t *testing.T) {
	s := seeded(t, Options{})
	s.ReadOnly("octocat/Hello-World", "forgetools-bot")
	status, _, got := do(t, s, token, "POST", "/repos/octocat/Hello-World/issues", `{"title":"t","labels":["bug"]}`)
	if status != 201 || len(got.(map[string]any)["labels"].([]any)) != 0 {
		t.Errorf("create by a reader: %d %v, want 201 with no labels", status, got)
	}
	status, _, got = do(t, s, reviewer, "POST", "/repos/octocat/Hello-World/issues", `{"title":"t","labels":["bug"]}`)
	if status != 201 || len(got.(map[string]any)["labels"].([]any)) != 1 {
		t.Errorf("create by a writer: %d %v, want the label", status, got)
	}
}

// A renamed repository answers its old name with a 301 to its id, which
// serves it, as GitHub does.
func TestRenamedRepositoryRedirects(t *testing.T) {
	s := seeded(t, Options{PathPrefix: "/api/v3", Host: "ghe.example.com"})
	s.Rename("octocat/Hello-World", "octocat/Hello-Universe")
	status, h, _ := do(t, s, token, "POST", "/repos/octocat/Hello-World/issues", `{"title":"t"}`)
	loc := h.Get("Location")
	if status != 301 || !strings.HasPrefix(loc, s.URL+"/api/v3/repositories/") || !strings.HasSuffix(loc, "/issues") {
		t.Fatalf("old name: %d Location %q", status, loc)
	}
	status, _, got := do(t, s, token, "GET", strings.TrimPrefix(loc, s.APIURL())+"/1", "")
	if status != 200 || got.(map[string]any)["html_url"] != "https://ghe.example.com/octocat/Hello-Universe/issues/1" {
		t.Errorf("by id: %d %v", status, got)
	}
	// The redirect keeps the query, as GitHub's does.
	_, h, _ = do(t, s, token, "GET", "/repos/octocat/Hello-World/issues/1/comments?per_page=100", "")
	if loc := h.Get("Location"); !strings.HasSuffix(loc, "/issues/1/comments?per_page=100") {
		t.Errorf("read redirect Location %q", loc)
	}
	if n := len(s.Requests()); n != 3 {
		t.Errorf("%d requests recorded, want 3", n)
	}
}

// An injected answer replaces the state for the next matching request
// only, and the request is still recorded.
func TestInjectAndRecord(t *testing.T) {
	s := seeded(t, Options{})
	s.Inject("GET /repos/octocat/Hello-World/issues/1", Response{Status: 502, Body: `{"message":"Server Error"}`, Header: http.Header{"Retry-After": {"3"}}})
	s.Inject("POST /repos/octocat/Hello-World/issues", Response{Status: 500})
	status, h, _ := do(t, s, token, "GET", "/repos/octocat/Hello-World/issues/1", "")
	if status != 502 || h.Get("Retry-After") != "3" || h.Get("X-RateLimit-Limit") != "5000" {
		t.Errorf("injected: %d %v", status, h)
	}
	if status, _, _ = do(t, s, token, "GET", "/repos/octocat/Hello-World/issues/1", ""); status != 200 {
		t.Errorf("after the injection: %d", status)
	}
	if p := s.Pending(); len(p) != 1 || p[0] != "POST /repos/octocat/Hello-World/issues" {
		t.Errorf("pending = %v", p)
	}
	reqs := s.Requests()
	if len(reqs) != 2 || !reqs[0].Injected || reqs[1].Injected || reqs[0].Header.Get("Authorization") != "Bearer "+token {
		t.Errorf("requests = %+v", reqs)
	}
}

// get sends a GET with optional If-None-Match and returns the status, the
// headers and the raw body.
func get(t *testing.T, s *Server, path, ifNoneMatch string) (int, http.Header, []byte) {
	t.Helper()
	h := bearer(token)
	if ifNoneMatch != "" {
		h.Set("If-None-Match", ifNoneMatch)
	}
	status, header, body := raw(t, s, http.MethodGet, s.APIURL()+strings.TrimPrefix(path, "/"), "", "", h)
	return status, header, []byte(body)
}

// A conditional GET of an unchanged resource is 304 with no body and costs
// no quota; a change moves the ETag; a used-up quota is GitHub's 403.
func TestConditionalRequestsAndQuota(t *testing.T) {
	s := seeded(t, Options{})
	const issue = "/repos/octocat/Hello-World/issues/1"
	status, h, _ := get(t, s, issue, "")
	tag := h.Get("ETag")
	if status != 200 || !strings.HasPrefix(tag, `W/"`) || h.Get("X-RateLimit-Remaining") != "4999" || s.Quota("forgetools-bot") != 4999 {
		t.Fatalf("first GET: %d ETag %q remaining %q", status, tag, h.Get("X-RateLimit-Remaining"))
	}
	for _, inm := range []string{tag, strings.TrimPrefix(tag, "W/"), `"other", ` + tag, "*"} {
		status, h, body := get(t, s, issue, inm)
		if status != 304 || len(body) != 0 || h.Get("ETag") != tag || h.Get("X-RateLimit-Remaining") != "4999" {
			t.Fatalf("If-None-Match %s: %d body %q ETag %q remaining %q", inm, status, body, h.Get("ETag"), h.Get("X-RateLimit-Remaining"))
		}
	}
	if s.Quota("forgetools-bot") != 4999 {
		t.Fatalf("304s were counted: %d left", s.Quota("forgetools-bot"))
	}
	s.Comment("octocat/Hello-World", 1, "hubot", "Me too.")
	status, h, body := get(t, s, issue, tag)
	if status != 200 || h.Get("ETag") == tag || !strings.Contains(string(body), `"comments":1`) {
		t.Fatalf("after a comment: %d ETag %q (was %q) body %s", status, h.Get("ETag"), tag, body)
	}

	s.SetQuota("forgetools-bot", 0)
	status, h, body = get(t, s, issue, "")
	if status != 403 || h.Get("X-RateLimit-Remaining") != "0" || !strings.Contains(string(body), "API rate limit exceeded") {
		t.Fatalf("quota used up: %d remaining %q %s", status, h.Get("X-RateLimit-Remaining"), body)
	}
}

// What happens to a pull request while nobody looks moves its updated_at,
// except check runs, which belong to the commit.
func TestChangesMoveUpdatedAt(t *testing.T) {
	s := seeded(t, Options{})
	const pull = "/repos/octocat/Hello-World/pulls/2"
	_, h, _ := get(t, s, pull, "")
	tag := h.Get("ETag")
	s.SetCheckRun("octocat/Hello-World", 2, "build", "in_progress", "")
	if status, _, _ := get(t, s, pull, tag); status != 304 {
		t.Fatalf("a check run changed the pull request's ETag: %d", status)
	}
	_, _, body := get(t, s, "/repos/octocat/Hello-World/commits/"+s.headOf(t, 2)+"/check-runs", "")
	if !strings.Contains(string(body), `"status":"in_progress"`) || !strings.Contains(string(body), `"total_count":1`) {
		t.Fatalf("check runs: %s", body)
	}
	for name, change := range map[string]func(){
		"review": func() {
			s.Review("octocat/Hello-World", 2, "hubot", "APPROVED", "", Inline{Path: "a.go", Line: 1, Body: "nit"})
		},
		"labels": func() { s.SetLabels("octocat/Hello-World", 2, "ready") },
		"push":   func() { s.Push("octocat/Hello-World", 2) },
		"merge":  func() { s.Merge("octocat/Hello-World", 2) },
	} {
		change()
		status, h, _ := get(t, s, pull, tag)
		if status != 200 {
			t.Fatalf("%s: the ETag did not move (%d)", name, status)
		}
		tag = h.Get("ETag")
	}
	_, _, body = get(t, s, pull, "")
	for _, want := range []string{`"merged":true`, `"state":"closed"`, `"name":"ready"`, `"review_comments":1`} {
		if !strings.Contains(string(body), want) {
			t.Fatalf("pull request lacks %s: %s", want, body)
		}
	}
	// since keeps what was updated at or after it.
	_, _, body = get(t, s, "/repos/octocat/Hello-World/pulls/2/comments?since=2099-01-01T00:00:00Z", "")
	if strings.TrimSpace(string(body)) != "[]" {
		t.Fatalf("since in the future: %s", body)
	}
}

// headOf is a pull request's head sha as the fake serves it.
func (s *Server) headOf(t *testing.T, n int) string {
	t.Helper()
	s.Lock()
	defer s.Unlock()
	return s.mustRepo("octocat/Hello-World").PullHead(s.mustItem("octocat/Hello-World", n).Pull)
}

// Changes made through the API reach the hooks as GitHub sends them: a
// PATCH that closes and relabels an issue is issues closed, labeled and
// unlabeled; a merge is pull_request closed, with merged true; each is
// sent by the caller.
func TestAPIChangesReachHooks(t *testing.T) {
	s := seeded(t, Options{})
	receiver := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	t.Cleanup(receiver.Close)
	s.AddHook("octocat/Hello-World", receiver.URL, "secret")
	if status, _, got := do(t, s, token, "PATCH", "/repos/octocat/Hello-World/issues/1", `{"state":"closed","labels":["wontfix"]}`); status != 200 {
		t.Fatalf("close: %d %v", status, got)
	}
	if status, _, got := do(t, s, token, "PUT", "/repos/octocat/Hello-World/pulls/2/merge", `{"merge_method":"squash"}`); status != 200 {
		t.Fatalf("merge: %d %v", status, got)
	}
	var got []string
	for _, d := range s.Deliveries()[1:] { // after the ping
		var p struct {
			Action      string
			Sender      struct{ Login string }
			Label       struct{ Name string }
			PullRequest struct{ Merged bool } `json:"pull_request"`
		}
		if err := json.Unmarshal(d.Body, &p); err != nil || d.Status != 200 {
			t.Fatalf("delivery %s: %v (answered %d)", d.Body, err, d.Status)
		}
		got = append(got, fmt.Sprintf("%s %s %s by %s merged=%v", d.Event, p.Action, p.Label.Name, p.Sender.Login, p.PullRequest.Merged))
	}
	want := []string{"issues closed  by forgetools-bot merged=false", "issues labeled wontfix by forgetools-bot merged=false",
		"issues unlabeled bug by forgetools-bot merged=false", "pull_request closed  by forgetools-bot merged=true"}
	if !slices.Equal(got, want) {
		t.Fatalf("hooks heard\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A pull request's single read counts its patches' added and deleted
// lines and files, and names no merger until merged.
func TestPullCounts(t *testing.T) {
	s := seeded(t, Options{})
	_, _, got := do(t, s, token, "GET", "/repos/octocat/Hello-World/pulls/2", "")
	pr := got.(map[string]any)
	// aGoPatch adds one line and deletes two, in one file.
	if pr["additions"] != 1.0 || pr["deletions"] != 2.0 || pr["changed_files"] != 1.0 || pr["merged_by"] != nil {
		t.Errorf("additions %v deletions %v changed_files %v merged_by %v", pr["additions"], pr["deletions"], pr["changed_files"], pr["merged_by"])
	}
}
