package gitlab_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/discovery"
	"github.com/forgetools/forgetools/providers/gitlab"
	"github.com/forgetools/forgetools/providers/gitlab/gitlabtest"
	"github.com/forgetools/forgetools/providers/internal/providertest"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

const (
	token    = "glpat-Vn7kQ2xM9pT4wZ1rL8cB3yH6fG5dJ0sA2"
	reviewer = "glpat-fakeReviewerToken000000000000000"
	proj     = "platform/infra/deploy"
	escaped  = "/projects/platform%2Finfra%2Fdeploy"
)

var noCall = toolserver.Call{Account: "a", Session: "s"}

// fake is a seeded instance: platform/infra/deploy (a project in a
// subgroup) with main and feature, issue #1, merge request !1 from
// feature, a failed pipeline, milestone 1 and the user ada.
func fake(t testing.TB) *gitlabtest.Server {
	t.Helper()
	s := gitlabtest.New(gitlabtest.Options{})
	t.Cleanup(s.Close)
	s.AddToken(token, "forgetools-bot")
	s.AddToken(reviewer, "forgetools-reviewer")
	s.AddUser("ada")
	s.AddProject(proj, "main", map[string]string{"README.md": "# deploy\n", "charts/app/values.yaml": "replicas: 2\n"}, "feature")
	s.AddMilestone(proj, "v1.0")
	s.AddIssue(proj, gitlabtest.Issue{Title: "Rollout stalls", Description: "It stalls.", Labels: []string{"bug"}})
	s.AddMergeRequest(proj, gitlabtest.MergeRequest{Title: "Bump replicas", Source: "feature", Pipeline: "success"})
	s.AddPipeline(proj, gitlabtest.Pipeline{Ref: "main", Status: "failed", Jobs: []gitlabtest.Job{
		{Name: "lint", Status: "success"}, {Name: "deploy", Status: "failed", Trace: "$ helm upgrade\nError: timed out\n"}}})
	return s
}

func provider(t *testing.T, s *gitlabtest.Server, timeout time.Duration) *gitlab.Provider {
	t.Helper()
	p, err := gitlab.New(gitlab.Options{Options: kit.Options{Host: s.Host(), APIURL: s.APIURL(), Token: token, ReviewerToken: reviewer, Timeout: timeout}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var wantCode = providertest.WantCode

func last(s *gitlabtest.Server) gitlabtest.Request { r := s.Requests(); return r[len(r)-1] }

func TestNewRefusesBadOptions(t *testing.T) {
	for _, o := range []gitlab.Options{
		{Options: kit.Options{Token: ""}},
		{Options: kit.Options{Token: "t", Host: "gitlab.com/x"}},
		{Options: kit.Options{Token: "t", APIURL: "http://gitlab.example.com/api/v4"}},
		{Options: kit.Options{Token: "t", APIURL: "https://gitlab.example.com/api/v3"}},
	} {
		if _, err := gitlab.New(o); err == nil {
			t.Errorf("New(%+v) accepted it", o)
		}
	}
}

func TestDownForgeIsUnavailable(t *testing.T) {
	s := gitlabtest.New(gitlabtest.Options{})
	url := s.APIURL()
	s.Close()
	p, err := gitlab.New(gitlab.Options{Options: kit.Options{APIURL: url, Token: token, Timeout: 5 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.GetIssue(context.Background(), noCall, &gatewayv1.GetIssueRequest{Repo: proj, IssueNumber: 1})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, "GitLab unreachable")
}

// The project path goes to GitLab URL-encoded whole, nested groups and all.
func TestNestedProjectPath(t *testing.T) {
	s := fake(t)
	p := provider(t, s, 0)
	i, err := p.GetIssue(context.Background(), noCall, &gatewayv1.GetIssueRequest{Repo: proj, IssueNumber: 1})
	if err != nil {
		t.Fatal(err)
	}
	if i.GetRepo() != proj || i.GetUrl() != "https://gitlab.example.com/platform/infra/deploy/-/issues/1" || i.GetState() != "open" {
		t.Errorf("issue = %v", i)
	}
	if got := s.Requests()[0]; got.Path != escaped+"/issues/1" || got.Header.Get("PRIVATE-TOKEN") != token || got.Header.Get("User-Agent") != "forgetools" {
		t.Errorf("sent %s %v", got.Path, got.Header)
	}
	for _, bad := range []string{"deploy", "a//b", "a/b.git", "-a/b", strings.Repeat("g/", 21) + "p"} {
		_, err := p.GetIssue(context.Background(), noCall, &gatewayv1.GetIssueRequest{Repo: bad, IssueNumber: 1})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "not a GitLab project path")
	}
}

func TestIssues(t *testing.T) {
	s := fake(t)
	p := provider(t, s, 0)
	ctx := context.Background()
	ms := uint64(1)
	i, err := p.CreateIssue(ctx, noCall, &gatewayv1.CreateIssueRequest{Repo: proj, Title: "New", Body: "b", Labels: []string{"bug", "ops"}, Assignees: []string{"ada"}, Milestone: &ms})
	if err != nil {
		t.Fatal(err)
	}
	if i.GetNumber() != 2 || strings.Join(i.GetAssignees(), ",") != "ada" || i.GetMilestone() != "v1.0" || strings.Join(i.GetLabels(), ",") != "bug,ops" {
		t.Errorf("created %v", i)
	}
	if b := string(last(s).Body); !strings.Contains(b, `"labels":"bug,ops"`) || !strings.Contains(b, `"assignee_ids":[`) {
		t.Errorf("create sent %s", b)
	}
	_, err = p.CreateIssue(ctx, noCall, &gatewayv1.CreateIssueRequest{Repo: proj, Title: "x", Assignees: []string{"nobody"}})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, `no user "nobody"`)
	c, err := p.CommentOnIssue(ctx, noCall, &gatewayv1.CommentOnIssueRequest{Repo: proj, IssueNumber: 1, Body: "Seen."})
	if err != nil || !strings.HasPrefix(c.GetUrl(), "https://gitlab.example.com/platform/infra/deploy/-/issues/1#note_") {
		t.Fatalf("comment = %v, %v", c, err)
	}
	got, err := p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: proj, IssueNumber: 1})
	if err != nil || len(got.GetComments()) != 1 || got.GetComments()[0].GetBody() != "Seen." {
		t.Fatalf("read back = %v, %v", got, err)
	}
	u, err := p.UpdateIssue(ctx, noCall, &gatewayv1.UpdateIssueRequest{Repo: proj, IssueNumber: 1, State: gatewayv1.IssueState_ISSUE_STATE_CLOSED, Labels: []string{"done"}})
	if err != nil || u.GetState() != "closed" || strings.Join(u.GetLabels(), ",") != "done" {
		t.Fatalf("update = %v, %v", u, err)
	}
	list, err := p.ListIssues(ctx, noCall, &gatewayv1.ListIssuesRequest{Repo: proj, State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL})
	if err != nil || len(list.GetIssues()) != 2 || list.GetIssues()[0].GetNumber() != 2 {
		t.Fatalf("list = %v, %v", list, err)
	}
	if q := last(s).Query; q.Get("state") != "all" || q.Get("order_by") != "created_at" || q.Get("sort") != "desc" {
		t.Errorf("list query %v", q)
	}
}

func TestReviewsAndMerge(t *testing.T) {
	s := fake(t)
	p := provider(t, s, 0)
	ctx := context.Background()
	r, err := p.SubmitReview(ctx, noCall, &gatewayv1.SubmitReviewRequest{Repo: proj, PullNumber: 1, Verdict: gatewayv1.Verdict_VERDICT_APPROVE, Body: "LGTM",
		Comments: []*gatewayv1.ReviewCommentInput{{Path: "charts/app/values.yaml", Line: 1, Body: "Three?"}}})
	if err != nil || r.GetVerdict() != "approve" || !strings.Contains(r.GetUrl(), "/-/merge_requests/1#note_") {
		t.Fatalf("approve = %v, %v", r, err)
	}
	if got := s.Approvers(proj, 1); len(got) != 1 || got[0] != "forgetools-reviewer" {
		t.Errorf("approvers = %v", got)
	}
	// request_changes: comments only, and the ack says so.
	r, err = p.SubmitReview(ctx, noCall, &gatewayv1.SubmitReviewRequest{Repo: proj, PullNumber: 1, Verdict: gatewayv1.Verdict_VERDICT_REQUEST_CHANGES, Body: "Wait."})
	if err != nil || r.GetVerdict() != "comment" {
		t.Fatalf("request_changes = %v, %v", r, err)
	}
	pr, err := p.GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: proj, PullNumber: 1})
	if err != nil {
		t.Fatal(err)
	}
	if pr.GetChecksState() != "success" || pr.GetMergeable() != "true" || len(pr.GetReviews()) != 2 ||
		pr.GetReviews()[0].GetVerdict() != "approve" || pr.GetReviews()[1].GetComments()[0].GetPath() != "charts/app/values.yaml" ||
		len(pr.GetComments()) != 2 {
		t.Errorf("merge request = %v", pr)
	}
	_, err = p.MergePullRequest(ctx, noCall, &gatewayv1.MergePullRequestRequest{Repo: proj, PullNumber: 1, ExpectedHeadSha: "1234567"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "moved since you read it")
	_, err = p.MergePullRequest(ctx, noCall, &gatewayv1.MergePullRequestRequest{Repo: proj, PullNumber: 1, ExpectedHeadSha: pr.GetHeadSha(), Method: gatewayv1.MergeMethod_MERGE_METHOD_REBASE})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "rebase cannot be chosen")
	m, err := p.MergePullRequest(ctx, noCall, &gatewayv1.MergePullRequestRequest{Repo: proj, PullNumber: 1, ExpectedHeadSha: pr.GetHeadSha()[:10], Method: gatewayv1.MergeMethod_MERGE_METHOD_SQUASH})
	if err != nil || m.GetMethod() != "squash" || m.GetSha() == "" {
		t.Fatalf("merge = %v, %v", m, err)
	}
	if b := string(last(s).Body); !strings.Contains(b, `"squash":true`) || !strings.Contains(b, `"sha":"`+pr.GetHeadSha()+`"`) {
		t.Errorf("merge sent %s", b)
	}
	closed, err := p.ListPullRequests(ctx, noCall, &gatewayv1.ListPullRequestsRequest{Repo: proj, State: gatewayv1.PullRequestStateFilter_PULL_REQUEST_STATE_FILTER_CLOSED})
	if err != nil || len(closed.GetPullRequests()) != 1 || closed.GetPullRequests()[0].GetState() != "merged" {
		t.Fatalf("closed lists the merged one: %v, %v", closed, err)
	}
	mr, err := p.CreatePullRequest(ctx, noCall, &gatewayv1.CreatePullRequestRequest{Repo: proj, Title: "Again", HeadRef: "feature", Draft: true})
	if err != nil || !mr.GetDraft() || mr.GetTitle() != "Draft: Again" || mr.GetBaseRef() != "main" {
		t.Fatalf("create = %v, %v", mr, err)
	}
	_, err = p.CreatePullRequest(ctx, noCall, &gatewayv1.CreatePullRequestRequest{Repo: proj, Title: "Again", HeadRef: "feature", BaseRef: "main"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_ALREADY_EXISTS, "Another open merge request already exists")
}

func TestRepositoryAndPush(t *testing.T) {
	s := fake(t)
	p := provider(t, s, 0)
	ctx := context.Background()
	f, err := p.ReadFile(ctx, noCall, &gatewayv1.ReadFileRequest{Repo: proj, Path: "charts/app/values.yaml"})
	if err != nil || f.GetContent() != "replicas: 2\n" || f.GetRef() != "main" || len(f.GetSha()) != 40 {
		t.Fatalf("read = %v, %v", f, err)
	}
	if got := last(s).Path; got != escaped+"/repository/files/charts%2Fapp%2Fvalues%2Eyaml" {
		t.Errorf("file path sent as %s", got)
	}
	d, err := p.ListDir(ctx, noCall, &gatewayv1.ListDirRequest{Repo: proj, Path: "charts"})
	if err != nil || len(d.GetEntries()) != 1 || d.GetEntries()[0].GetType() != "dir" {
		t.Fatalf("list = %v, %v", d, err)
	}
	_, err = p.ListDir(ctx, noCall, &gatewayv1.ListDirRequest{Repo: proj, Path: "nothing"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "not a directory")
	_, err = p.WriteFile(ctx, noCall, &gatewayv1.WriteFileRequest{Repo: proj, Branch: "main", Path: "x", Content: "y", Message: "m"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "default branch")
	b, err := p.CreateBranch(ctx, noCall, &gatewayv1.CreateBranchRequest{Repo: proj, Branch: "scale"})
	if err != nil || b.GetSha() != s.Head(proj, "main") {
		t.Fatalf("branch = %v, %v", b, err)
	}
	_, err = p.CreateBranch(ctx, noCall, &gatewayv1.CreateBranchRequest{Repo: proj, Branch: "scale"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_ALREADY_EXISTS)
	_, err = p.WriteFile(ctx, noCall, &gatewayv1.WriteFileRequest{Repo: proj, Branch: "scale", Path: "charts/app/values.yaml", Content: "x", Message: "m", ExpectedSha: "abcdef0"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "changed since you read it")
	w, err := p.WriteFile(ctx, noCall, &gatewayv1.WriteFileRequest{Repo: proj, Branch: "scale", Path: "charts/app/values.yaml", Content: "replicas: 3\n", Message: "Scale", ExpectedSha: f.GetSha()[:12]})
	if err != nil || w.GetCommitSha() != s.Head(proj, "scale") || w.GetBlobSha() == f.GetSha() || len(w.GetBlobSha()) != 40 {
		t.Fatalf("write = %v, %v", w, err)
	}
	if got, _ := s.File(proj, "scale", "charts/app/values.yaml"); got != "replicas: 3\n" {
		t.Errorf("file = %q", got)
	}
	g, err := p.GetRepo(ctx, noCall, &gatewayv1.GetRepoRequest{Repo: proj})
	if err != nil || g.GetPermission() != "admin" || g.GetVisibility() != "private" || g.GetOpenIssues() != 1 {
		t.Fatalf("repo = %v, %v", g, err)
	}
	s.SetAccess(proj, 30)
	var found []discovery.Repository
	if err := p.Repositories(ctx, func(r discovery.Repository) error { found = append(found, r); return nil }); err != nil ||
		len(found) != 1 || found[0] != (discovery.Repository{Repo: proj, Permission: "write"}) {
		t.Fatalf("repositories = %v, %v", found, err)
	}
	if q := last(s).Query; q.Get("membership") != "true" || q.Get("per_page") != "100" {
		t.Errorf("projects query %v", q)
	}
}

func TestPipelines(t *testing.T) {
	s := fake(t)
	p := provider(t, s, 0)
	ctx := context.Background()
	runs, err := p.ListCiRuns(ctx, noCall, &gatewayv1.ListCIRunsRequest{Repo: proj, Status: gatewayv1.CIStatusFilter_CI_STATUS_FILTER_FAILURE})
	if err != nil || len(runs.GetRuns()) != 1 || runs.GetRuns()[0].GetConclusion() != "failure" || runs.GetRuns()[0].GetStatus() != "completed" {
		t.Fatalf("runs = %v, %v", runs, err)
	}
	id := runs.GetRuns()[0].GetRunId()
	run, err := p.GetCiRun(ctx, noCall, &gatewayv1.GetCIRunRequest{Repo: proj, RunId: id})
	if err != nil || len(run.GetJobs()) != 2 || run.GetJobs()[1].GetLogTail() != "$ helm upgrade\nError: timed out" {
		t.Fatalf("run = %v, %v", run, err)
	}
	_, err = p.RerunCi(ctx, noCall, &gatewayv1.RerunCIRequest{Repo: proj, RunId: id})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "failed_only")
	rerun, err := p.RerunCi(ctx, noCall, &gatewayv1.RerunCIRequest{Repo: proj, RunId: id, FailedOnly: true})
	if err != nil || rerun.GetStatus() != "queued" {
		t.Fatalf("retry = %v, %v", rerun, err)
	}
	trig, err := p.TriggerCi(ctx, noCall, &gatewayv1.TriggerCIRequest{Repo: proj, Workflow: "ignored", Ref: "feature", Inputs: []*gatewayv1.CIInput{{Name: "ENV", Value: "staging"}}})
	if err != nil || trig.GetRunId() == "" || trig.GetWorkflow() != "pipeline" {
		t.Fatalf("trigger = %v, %v", trig, err)
	}
	if b := string(last(s).Body); b != `{"ref":"feature","variables":[{"key":"ENV","value":"staging"}]}` {
		t.Errorf("trigger sent %s", b)
	}
}

func TestFailuresInBand(t *testing.T) {
	get := &gatewayv1.GetIssueRequest{Repo: proj, IssueNumber: 1}
	route := "GET " + escaped + "/issues/1"
	for _, tc := range []struct {
		name  string
		resp  gitlabtest.Response
		code  gatewayv1.ErrorCode
		parts []string
		wait  time.Duration
	}{
		{"401", gitlabtest.Response{Status: 401, Body: `{"message":"401 Unauthorized"}`},
			gatewayv1.ErrorCode_ERROR_CODE_UNAUTHENTICATED, []string{"GitLab answered 401 Unauthorized", "expired or revoked"}, 0},
		{"403", gitlabtest.Response{Status: 403, Body: `{"message":"403 Forbidden - Your account has been blocked."}`},
			gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, []string{"account has been blocked"}, 0},
		{"404", gitlabtest.Response{Status: 404, Body: `{"message":"404 Project Not Found"}`},
			gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, []string{"GitLab answered 404 Not Found", "cannot see it"}, 0},
		{"429 Retry-After", gitlabtest.Response{Status: 429, Header: http.Header{"Retry-After": {"42"}, "RateLimit-Name": {"throttle_authenticated_api"}}, Body: "Retry later\n"},
			gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED, []string{"GitLab rate limit throttle_authenticated_api"}, 42 * time.Second},
		{"429 reset", gitlabtest.Response{Status: 429, Header: http.Header{"RateLimit-Remaining": {"0"}}, Body: "Retry later\n"},
			gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED, []string{"GitLab rate limit"}, -1},
		{"400 fields", gitlabtest.Response{Status: 400, Body: `{"message":{"title":["can't be blank"]}}`},
			gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, []string{"{title: [can't be blank]}"}, 0},
		{"503", gitlabtest.Response{Status: 503, Header: http.Header{"Content-Type": {"text/html"}}, Body: "<html>maintenance</html>"},
			gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, []string{"GitLab answered 503 Service Unavailable"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := fake(t)
			s.Inject(route, tc.resp)
			_, err := provider(t, s, 0).GetIssue(context.Background(), noCall, get)
			wantCode(t, err, tc.code, tc.parts...)
			e, _ := toolserver.AsError(err)
			switch {
			case tc.wait >= 0 && e.RetryAfter != tc.wait:
				t.Errorf("retry after %v, want %v", e.RetryAfter, tc.wait)
			case tc.wait < 0 && (e.RetryAfter < time.Second || e.RetryAfter > time.Minute):
				t.Errorf("retry after %v, want the time to RateLimit-Reset", e.RetryAfter)
			}
			if strings.Contains(err.Error(), "<html>") || len(s.Requests()) != 1 {
				t.Errorf("message %q after %d requests (no retries)", err, len(s.Requests()))
			}
		})
	}
	t.Run("timeout", func(t *testing.T) {
		s := fake(t)
		s.Inject(route, gitlabtest.Response{Hold: true})
		_, err := provider(t, s, 300*time.Millisecond).GetIssue(context.Background(), noCall, get)
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, "did not answer within 300ms")
	})
	t.Run("redirect on a write", func(t *testing.T) {
		s := fake(t)
		s.Inject("POST "+escaped+"/issues", gitlabtest.Response{Status: 308, Header: http.Header{"Location": {"/api/v4/projects/1/issues"}}})
		_, err := provider(t, s, 0).CreateIssue(context.Background(), noCall, &gatewayv1.CreateIssueRequest{Repo: proj, Title: "x"})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "POST", "nothing was written")
		if n := len(s.Requests()); n != 1 {
			t.Errorf("%d requests, want only the POST", n)
		}
	})
}
