package gitlab_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/gitlab"
	"github.com/forgetools/forgetools/providers/gitlab/gitlabtest"
)

// inline submits a comment review of merge request n in repo with one
// inline comment per line of values.yaml.
func inline(t *testing.T, p *gitlab.Provider, repo string, n uint64, lines ...uint64) {
	t.Helper()
	var cs []*gatewayv1.ReviewCommentInput
	for _, l := range lines {
		cs = append(cs, &gatewayv1.ReviewCommentInput{Path: "charts/app/values.yaml", Line: l, Body: fmt.Sprintf("line %d?", l)})
	}
	if _, err := p.SubmitReview(context.Background(), noCall, &gatewayv1.SubmitReviewRequest{Repo: repo, PullNumber: n,
		Verdict: gatewayv1.Verdict_VERDICT_COMMENT, Body: "See inline.", Comments: cs}); err != nil {
		t.Fatal(err)
	}
}

// TestReviewThreads: a merge request's diff discussions are its threads
// (the overview's notes are not); a reply joins its discussion and a
// resolve sets its notes' state, each through the endpoint GitLab
// documents. A push that leaves a thread's line as it was leaves it
// current (GitLab moves its position onto the new diff); one that changes
// the line makes it outdated.
func TestReviewThreads(t *testing.T) {
	s := fake(t)
	p := provider(t, s, 0)
	ctx := context.Background()
	values := func(content string) {
		t.Helper()
		raw(t, s, "PUT", "repository/files/charts%2Fapp%2Fvalues.yaml",
			`{"branch":"feature","content":"`+content+`","commit_message":"Values"}`, &struct{}{})
	}
	values(`replicas: 2\nimage: app\n`)
	inline(t, p, proj, 1, 1, 2)
	if _, err := p.CommentOnPullRequest(ctx, noCall, &gatewayv1.CommentOnPullRequestRequest{Repo: proj, PullNumber: 1, Body: "Overview."}); err != nil {
		t.Fatal(err)
	}

	list, err := p.ListReviewThreads(ctx, noCall, &gatewayv1.ListReviewThreadsRequest{Repo: proj, PullNumber: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r := last(s); r.Method != "GET" || r.Path != escaped+"/merge_requests/1/discussions" || r.Query.Get("per_page") != "30" || r.Query.Get("page") != "1" {
		t.Errorf("list request = %s %s?%s", r.Method, r.Path, r.Query.Encode())
	}
	if len(list.GetThreads()) != 2 || list.GetNextCursor() != "" {
		t.Fatalf("threads = %v, want the two diff discussions on one page", list)
	}
	th := list.GetThreads()[0]
	if !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(th.GetThreadId()) || th.GetPath() != "charts/app/values.yaml" || th.GetLine() != 1 ||
		th.GetSide() != "RIGHT" || th.GetResolved() || th.GetOutdated() || len(th.GetComments()) != 1 ||
		th.GetComments()[0].GetBody() != "line 1?" || th.GetComments()[0].GetAuthor() != "forgetools-reviewer" {
		t.Fatalf("first thread = %v", th)
	}

	reply, err := p.ReplyToReviewThread(ctx, noCall, &gatewayv1.ReplyToReviewThreadRequest{Repo: proj, PullNumber: 1, ThreadId: th.GetThreadId(), Body: "Two is right."})
	if err != nil {
		t.Fatal(err)
	}
	if r := last(s); r.Method != "POST" || r.Path != escaped+"/merge_requests/1/discussions/"+th.GetThreadId()+"/notes" || !jsonHas(t, r.Body, "body", "Two is right.") {
		t.Errorf("reply request = %s %s %s", r.Method, r.Path, r.Body)
	}
	if reply.GetNumber() != 1 || !regexp.MustCompile(`/-/merge_requests/1#note_\d+$`).MatchString(reply.GetUrl()) {
		t.Errorf("reply ref = %v", reply)
	}
	res, err := p.ResolveReviewThread(ctx, noCall, &gatewayv1.ResolveReviewThreadRequest{Repo: proj, PullNumber: 1, ThreadId: th.GetThreadId()})
	if err != nil || res.GetState() != "resolved" || res.GetThreadId() != th.GetThreadId() {
		t.Fatalf("resolve = %v, %v", res, err)
	}
	if r := last(s); r.Method != "PUT" || r.Path != escaped+"/merge_requests/1/discussions/"+th.GetThreadId() || !jsonHas(t, r.Body, "resolved", true) {
		t.Errorf("resolve request = %s %s %s", r.Method, r.Path, r.Body)
	}

	// A push elsewhere moves the head; both threads stay current.
	if _, err := p.WriteFile(ctx, noCall, &gatewayv1.WriteFileRequest{Repo: proj, Branch: "feature", Path: "NOTES.md", Content: "x\n", Message: "More"}); err != nil {
		t.Fatal(err)
	}
	list, err = p.ListReviewThreads(ctx, noCall, &gatewayv1.ListReviewThreadsRequest{Repo: proj, PullNumber: 1})
	if err != nil || list.GetThreads()[0].GetOutdated() || list.GetThreads()[1].GetOutdated() {
		t.Fatalf("after a push to another file = %v, %v", list, err)
	}
	// A push that changes line 1 outdates its thread only.
	values(`replicas: 3\nimage: app\n`)
	list, err = p.ListReviewThreads(ctx, noCall, &gatewayv1.ListReviewThreadsRequest{Repo: proj, PullNumber: 1})
	if err != nil {
		t.Fatal(err)
	}
	got := list.GetThreads()[0]
	if !got.GetResolved() || !got.GetOutdated() || list.GetThreads()[1].GetOutdated() || list.GetThreads()[1].GetLine() != 2 || len(got.GetComments()) != 2 || got.GetComments()[1].GetBody() != "Two is right." ||
		got.GetComments()[1].GetUrl() != reply.GetUrl() || list.GetThreads()[1].GetResolved() {
		t.Fatalf("after reply, resolve and push = %v", list)
	}
	res, err = p.ResolveReviewThread(ctx, noCall, &gatewayv1.ResolveReviewThreadRequest{Repo: proj, PullNumber: 1, ThreadId: th.GetThreadId(), Unresolve: true})
	if err != nil || res.GetState() != "unresolved" || !jsonHas(t, last(s).Body, "resolved", false) {
		t.Fatalf("unresolve = %v, %v (request %s)", res, err, last(s).Body)
	}
}

// TestReviewThreadScope: a discussion of another merge request or project
// is not found through this one, nothing is written to it, and an id that
// is not a GitLab discussion id never reaches GitLab.
func TestReviewThreadScope(t *testing.T) {
	s := fake(t)
	s.AddProject("platform/other", "main", map[string]string{"charts/app/values.yaml": "replicas: 2\n"}, "feature")
	s.AddMergeRequest("platform/other", gitlabtest.MergeRequest{Title: "Other", Source: "feature"})
	s.AddMergeRequest(proj, gitlabtest.MergeRequest{Title: "Sibling", Source: "feature"})
	p := provider(t, s, 0)
	ctx := context.Background()
	inline(t, p, "platform/other", 1, 1)
	inline(t, p, proj, 2, 1)
	inline(t, p, proj, 1, 1)
	var foreign []string
	for _, at := range []struct {
		repo string
		n    uint64
	}{{"platform/other", 1}, {proj, 2}} {
		l, err := p.ListReviewThreads(ctx, noCall, &gatewayv1.ListReviewThreadsRequest{Repo: at.repo, PullNumber: at.n})
		if err != nil || len(l.GetThreads()) != 1 {
			t.Fatalf("%s!%d threads = %v, %v", at.repo, at.n, l, err)
		}
		foreign = append(foreign, l.GetThreads()[0].GetThreadId())
	}
	for _, id := range foreign {
		_, err := p.ReplyToReviewThread(ctx, noCall, &gatewayv1.ReplyToReviewThreadRequest{Repo: proj, PullNumber: 1, ThreadId: id, Body: "Hijack."})
		// ("review" itself is redacted here: the test's reviewer token
		// spells it.)
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "thread "+id+" not found on merge request !1 in "+proj)
		_, err = p.ResolveReviewThread(ctx, noCall, &gatewayv1.ResolveReviewThreadRequest{Repo: proj, PullNumber: 1, ThreadId: id})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "thread "+id+" not found")
	}
	for _, at := range []struct {
		repo string
		n    uint64
	}{{"platform/other", 1}, {proj, 2}} {
		l, _ := p.ListReviewThreads(ctx, noCall, &gatewayv1.ListReviewThreadsRequest{Repo: at.repo, PullNumber: at.n})
		if th := l.GetThreads()[0]; th.GetResolved() || len(th.GetComments()) != 1 {
			t.Errorf("%s!%d changed through another merge request: %v", at.repo, at.n, th)
		}
	}
	before := len(s.Requests())
	for _, id := range []string{"../../../projects/2", "1", "6A9C1750B37D513A43987B574953FCEB50B03CE7", foreign[0] + "0", "PRRT_kwDO"} {
		_, err := p.ReplyToReviewThread(ctx, noCall, &gatewayv1.ReplyToReviewThreadRequest{Repo: proj, PullNumber: 1, ThreadId: id, Body: "x"})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "is not a GitLab discussion id")
		_, err = p.ResolveReviewThread(ctx, noCall, &gatewayv1.ResolveReviewThreadRequest{Repo: proj, PullNumber: 1, ThreadId: id})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "is not a GitLab discussion id")
	}
	for _, c := range []string{"2", "page:1", "page:02", "page:x", "thread:5", "page:99999999999"} {
		_, err := p.ListReviewThreads(ctx, noCall, &gatewayv1.ListReviewThreadsRequest{Repo: proj, PullNumber: 1, Cursor: c})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "is not a next_cursor forge_list_review_threads gave")
	}
	if after := len(s.Requests()); after != before {
		t.Errorf("refused ids and cursors sent %d requests", after-before)
	}
}

// TestReviewThreadPages: 35 diff discussions read in two pages of GitLab's
// own, each page one request for the discussions.
func TestReviewThreadPages(t *testing.T) {
	s := fake(t)
	p := provider(t, s, 0)
	ctx := context.Background()
	var lines []uint64
	for l := uint64(1); l <= 35; l++ {
		lines = append(lines, l)
	}
	inline(t, p, proj, 1, lines...)
	var seen []uint64
	cursor := ""
	for page := 0; page < 3; page++ {
		l, err := p.ListReviewThreads(ctx, noCall, &gatewayv1.ListReviewThreadsRequest{Repo: proj, PullNumber: 1, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		for _, th := range l.GetThreads() {
			seen = append(seen, th.GetLine())
		}
		if cursor = l.GetNextCursor(); cursor == "" {
			break
		}
		if cursor != "page:2" {
			t.Fatalf("next_cursor = %q, want page:2", cursor)
		}
	}
	if fmt.Sprint(seen) != fmt.Sprint(lines) || cursor != "" {
		t.Fatalf("read lines %v (cursor %q), want 1..35 in order", seen, cursor)
	}
}

// jsonHas reports whether the JSON object body sets key to want.
func jsonHas(t *testing.T, body []byte, key string, want any) bool {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Errorf("request body %q is not a JSON object: %v", body, err)
		return false
	}
	return m[key] == want
}

// TestReviewThreadsFromAHostileForge: discussions GitLab (or whatever
// answers at its address) sends with nulls, empty notes, system notes and
// overview notes are skipped, not dereferenced; the one diff discussion is
// read, with its null note left out.
func TestReviewThreadsFromAHostileForge(t *testing.T) {
	s := fake(t)
	hex := strings.Repeat("ab", 20)
	s.Inject("GET "+escaped+"/merge_requests/1/discussions", gitlabtest.Response{Status: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: `[null,{"id":"a","notes":[]},{"id":"b","notes":[null]},{"id":"c","notes":[{"id":1,"system":true,"position":{"new_path":"x","new_line":1}}]},` +
			`{"id":"d","notes":[{"id":2,"body":"overview"}]},` +
			`{"id":"` + hex + `","notes":[{"id":3,"body":"ok","author":{"username":"ada"},"position":{"new_path":"a.go","old_path":"a.go","old_line":4}},null]}]`})
	l, err := provider(t, s, 0).ListReviewThreads(context.Background(), noCall, &gatewayv1.ListReviewThreadsRequest{Repo: proj, PullNumber: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.GetThreads()) != 1 {
		t.Fatalf("threads = %v, want the one diff discussion", l)
	}
	if th := l.GetThreads()[0]; th.GetThreadId() != hex || th.GetPath() != "a.go" || th.GetLine() != 4 || th.GetSide() != "LEFT" || len(th.GetComments()) != 1 {
		t.Errorf("thread = %v", th)
	}
}
