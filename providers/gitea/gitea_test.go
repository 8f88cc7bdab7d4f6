package gitea_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/discovery"
	"github.com/forgetools/forgetools/providers/gitea"
	"github.com/forgetools/forgetools/providers/gitea/giteatest"
	"github.com/forgetools/forgetools/providers/internal/providertest"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

const (
	token    = "gitea_Xq4mT9vK2pW7zR3nB8yL1cH6fD5sJ0aG4e"
	reviewer = "gitea_fakeReviewerToken0000000000000000"
	repo     = "acme/widgets"
)

var noCall = toolserver.Call{Account: "a", Session: "s"}

// fake is a seeded instance: acme/widgets with main and feature, labels
// bug and docs, issue #1, pull request #2 from feature, a failed run.
func fake(t testing.TB, forgejo bool) *giteatest.Server {
	t.Helper()
	s := giteatest.New(giteatest.Options{Forgejo: forgejo})
	t.Cleanup(s.Close)
	s.AddToken(token, "forgetools-bot")
	s.AddToken(reviewer, "forgetools-reviewer")
	s.AddRepo(repo, "main", map[string]string{"README.md": "# widgets\n", "src/main.go": "package main\n", ".gitea/workflows/ci.yml": "on: [push]\n"}, "feature")
	s.AddLabel(repo, "bug")
	s.AddLabel(repo, "docs")
	s.AddIssue(repo, giteatest.Issue{Title: "Jams", Body: "It jams.", Labels: []string{"bug"}})
	s.AddPull(repo, giteatest.Pull{Title: "Feature", Head: "feature", Status: "success"})
	s.AddRun(repo, giteatest.Run{Workflow: "ci.yml", Branch: "main", Status: "completed", Conclusion: "failure",
		Jobs: []giteatest.Job{{Name: "build", Conclusion: "success"}, {Name: "test", Conclusion: "failure", Log: "ok 1\nFAIL: TestJam\n"}}})
	return s
}

// newProvider is a Gitea provider on s with the test credentials.
func newProvider(s *giteatest.Server) (*gitea.Provider, error) {
	return gitea.New(gitea.Options{Options: kit.Options{Host: s.Host(), APIURL: s.APIURL(), Token: token, ReviewerToken: reviewer}})
}

func provider(t *testing.T, s *giteatest.Server, forgejo bool, timeout time.Duration) *gitea.Provider {
	t.Helper()
	flavor := gitea.Gitea
	if forgejo {
		flavor = gitea.Forgejo
	}
	p, err := gitea.New(gitea.Options{Flavor: flavor, Options: kit.Options{Host: s.Host(), APIURL: s.APIURL(), Token: token, ReviewerToken: reviewer, Timeout: timeout}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var wantCode = providertest.WantCode

func TestNewRefusesBadOptions(t *testing.T) {
	for _, o := range []gitea.Options{
		{Options: kit.Options{Token: ""}},
		{Options: kit.Options{Token: "t", Host: "https://x"}},
		{Options: kit.Options{Token: "t", APIURL: "http://example.com/api/v1"}},
		{Options: kit.Options{Token: "t", APIURL: "https://example.com/api/v3"}},
		{Flavor: "gogs", Options: kit.Options{Token: "t"}},
	} {
		if _, err := gitea.New(o); err == nil {
			t.Errorf("New(%+v) accepted it", o)
		}
	}
	p, err := gitea.New(gitea.Options{Flavor: gitea.Forgejo, Options: kit.Options{Token: "t"}})
	if err != nil || p.Ref().GetHost() != "codeberg.org" || p.Ref().GetProvider().String() != "FORGE_PROVIDER_FORGEJO" {
		t.Fatalf("Forgejo default = %v, %v", p.Ref(), err)
	}
}

// New sends nothing: a forge that is down does not stop the gateway, and
// a call to it answers unavailable.
func TestDownForgeIsUnavailable(t *testing.T) {
	s := giteatest.New(giteatest.Options{})
	url := s.APIURL()
	s.Close()
	p, err := gitea.New(gitea.Options{Options: kit.Options{APIURL: url, Token: token, Timeout: 5 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.GetIssue(context.Background(), noCall, &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: 1})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, "Gitea unreachable")
}

func TestIssues(t *testing.T) {
	s := fake(t, false)
	p := provider(t, s, false, 0)
	ctx := context.Background()
	i, err := p.CreateIssue(ctx, noCall, &gatewayv1.CreateIssueRequest{Repo: repo, Title: "New", Body: "b", Labels: []string{"BUG", "docs"}})
	if err != nil {
		t.Fatal(err)
	}
	if i.GetNumber() != 3 || strings.Join(i.GetLabels(), ",") != "bug,docs" || i.GetUrl() != "https://gitea.example.com/acme/widgets/issues/3" {
		t.Errorf("created %v", i)
	}
	last := s.Requests()[len(s.Requests())-1]
	if last.Method != "POST" || last.Path != "/repos/acme/widgets/issues" || !strings.Contains(string(last.Body), `"labels":[`) {
		t.Errorf("create sent %s %s %s", last.Method, last.Path, last.Body)
	}
	if last.Header.Get("Authorization") != "token "+token || last.Header.Get("User-Agent") != "forgetools" {
		t.Errorf("headers %v", last.Header)
	}
	_, err = p.CreateIssue(ctx, noCall, &gatewayv1.CreateIssueRequest{Repo: repo, Title: "x", Labels: []string{"bug", "nope"}})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, `no label "nope"`, "by id", "nothing was written")

	_, err = p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: 2})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "is a pull request")

	list, err := p.ListIssues(ctx, noCall, &gatewayv1.ListIssuesRequest{Repo: repo, Labels: []string{"bug"}})
	if err != nil || len(list.GetIssues()) != 2 || list.GetIssues()[0].GetNumber() != 3 {
		t.Fatalf("list = %v, %v", list, err)
	}
	closed := gatewayv1.IssueState_ISSUE_STATE_CLOSED
	u, err := p.UpdateIssue(ctx, noCall, &gatewayv1.UpdateIssueRequest{Repo: repo, IssueNumber: 1, State: closed, Labels: []string{"docs"}})
	if err != nil || u.GetState() != "closed" || strings.Join(u.GetLabels(), ",") != "docs" || u.GetClosedAt() == "" {
		t.Fatalf("update = %v, %v", u, err)
	}
	_, err = p.UpdateIssue(ctx, noCall, &gatewayv1.UpdateIssueRequest{Repo: repo, IssueNumber: 1, State: closed, StateReason: gatewayv1.StateReason_STATE_REASON_NOT_PLANNED})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "no reason")
	_, err = p.UpdateIssue(ctx, noCall, &gatewayv1.UpdateIssueRequest{Repo: repo, IssueNumber: 2, State: closed})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "pull request", "nothing was written")
}

func TestPullsReviewsAndMerge(t *testing.T) {
	s := fake(t, false)
	p := provider(t, s, false, 0)
	ctx := context.Background()
	r, err := p.SubmitReview(ctx, noCall, &gatewayv1.SubmitReviewRequest{Repo: repo, PullNumber: 2, Verdict: gatewayv1.Verdict_VERDICT_REQUEST_CHANGES,
		Body: "Needs tests.", Comments: []*gatewayv1.ReviewCommentInput{
			{Path: "src/main.go", Line: 1, Body: "Why?"}, {Path: "README.md", Line: 1, Side: gatewayv1.Side_SIDE_LEFT, Body: "Keep."}}})
	if err != nil || r.GetVerdict() != "request_changes" {
		t.Fatalf("review = %v, %v", r, err)
	}
	last := s.Requests()[len(s.Requests())-1]
	if last.Header.Get("Authorization") != "token "+reviewer || !strings.Contains(string(last.Body), `"event":"REQUEST_CHANGES"`) ||
		!strings.Contains(string(last.Body), `"new_position":1`) || !strings.Contains(string(last.Body), `"old_position":1`) {
		t.Errorf("review sent %s with %s", last.Body, last.Header.Get("Authorization"))
	}
	pr, err := p.GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: repo, PullNumber: 2})
	if err != nil {
		t.Fatal(err)
	}
	if pr.GetChecksState() != "success" || pr.GetMergeable() != "true" || len(pr.GetReviews()) != 1 ||
		len(pr.GetReviews()[0].GetComments()) != 2 || pr.GetReviews()[0].GetComments()[1].GetSide() != "LEFT" {
		t.Errorf("pull request = %v", pr)
	}
	_, err = p.MergePullRequest(ctx, noCall, &gatewayv1.MergePullRequestRequest{Repo: repo, PullNumber: 2, ExpectedHeadSha: "0000000"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "moved since you read it")
	m, err := p.MergePullRequest(ctx, noCall, &gatewayv1.MergePullRequestRequest{Repo: repo, PullNumber: 2, ExpectedHeadSha: pr.GetHeadSha()[:7],
		Method: gatewayv1.MergeMethod_MERGE_METHOD_SQUASH})
	if err != nil || m.GetMethod() != "squash" || m.GetSha() != s.Head(repo, "main") {
		t.Fatalf("merge = %v, %v", m, err)
	}
	list, err := p.ListPullRequests(ctx, noCall, &gatewayv1.ListPullRequestsRequest{Repo: repo, State: gatewayv1.PullRequestStateFilter_PULL_REQUEST_STATE_FILTER_ALL, Head: "feature"})
	if err != nil || len(list.GetPullRequests()) != 1 || list.GetPullRequests()[0].GetState() != "merged" {
		t.Fatalf("list = %v, %v", list, err)
	}
}

func TestRepositoryAndPush(t *testing.T) {
	s := fake(t, false)
	p := provider(t, s, false, 0)
	ctx := context.Background()
	f, err := p.ReadFile(ctx, noCall, &gatewayv1.ReadFileRequest{Repo: repo, Path: "src/main.go"})
	if err != nil || f.GetContent() != "package main\n" || f.GetRef() != "main" || len(f.GetSha()) != 40 {
		t.Fatalf("read = %v, %v", f, err)
	}
	d, err := p.ListDir(ctx, noCall, &gatewayv1.ListDirRequest{Repo: repo})
	if err != nil || len(d.GetEntries()) != 3 || d.GetEntries()[0].GetType() != "dir" {
		t.Fatalf("list = %v, %v", d, err)
	}
	_, err = p.WriteFile(ctx, noCall, &gatewayv1.WriteFileRequest{Repo: repo, Branch: "main", Path: "x", Content: "y", Message: "m"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "default branch", "nothing was written")
	b, err := p.CreateBranch(ctx, noCall, &gatewayv1.CreateBranchRequest{Repo: repo, Branch: "fix"})
	if err != nil || b.GetSha() != s.Head(repo, "main") {
		t.Fatalf("branch = %v, %v", b, err)
	}
	_, err = p.CreateBranch(ctx, noCall, &gatewayv1.CreateBranchRequest{Repo: repo, Branch: "fix"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_ALREADY_EXISTS)
	_, err = p.WriteFile(ctx, noCall, &gatewayv1.WriteFileRequest{Repo: repo, Branch: "fix", Path: "src/main.go", Content: "x", Message: "m", ExpectedSha: "abcdef0"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "changed since you read it")
	w, err := p.WriteFile(ctx, noCall, &gatewayv1.WriteFileRequest{Repo: repo, Branch: "fix", Path: "src/main.go", Content: "package main // fixed\n", Message: "Fix", ExpectedSha: f.GetSha()[:8]})
	if err != nil || w.GetCommitSha() != s.Head(repo, "fix") || w.GetBlobSha() == f.GetSha() {
		t.Fatalf("write = %v, %v", w, err)
	}
	if got, _ := s.File(repo, "fix", "src/main.go"); got != "package main // fixed\n" {
		t.Errorf("file = %q", got)
	}
	_, err = p.WriteFile(ctx, noCall, &gatewayv1.WriteFileRequest{Repo: repo, Branch: "fix", Path: "README.md", Content: "x", Message: "m"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "already exists", "expected_sha")
	allowed := noCall
	allowed.PushToDefaultBranch = true
	if _, err := p.WriteFile(ctx, allowed, &gatewayv1.WriteFileRequest{Repo: repo, Branch: "main", Path: "NEW.md", Content: "n", Message: "m"}); err != nil {
		t.Fatalf("approved push to main: %v", err)
	}
	g, err := p.GetRepo(ctx, noCall, &gatewayv1.GetRepoRequest{Repo: repo})
	if err != nil || g.GetPermission() != "admin" || g.GetDefaultBranch() != "main" || g.GetOpenIssues() != 1 {
		t.Fatalf("repo = %v, %v", g, err)
	}
	var found []discovery.Repository
	if err := p.Repositories(ctx, func(r discovery.Repository) error { found = append(found, r); return nil }); err != nil ||
		len(found) != 1 || found[0] != (discovery.Repository{Repo: repo, Permission: "admin"}) {
		t.Fatalf("repositories = %v, %v", found, err)
	}
}

func TestCI(t *testing.T) {
	s := fake(t, false)
	p := provider(t, s, false, 0)
	ctx := context.Background()
	runs, err := p.ListCiRuns(ctx, noCall, &gatewayv1.ListCIRunsRequest{Repo: repo, Status: gatewayv1.CIStatusFilter_CI_STATUS_FILTER_COMPLETED})
	if err != nil || len(runs.GetRuns()) != 1 || runs.GetRuns()[0].GetConclusion() != "failure" || runs.GetRuns()[0].GetName() != "ci.yml" {
		t.Fatalf("runs = %v, %v", runs, err)
	}
	id := runs.GetRuns()[0].GetRunId()
	run, err := p.GetCiRun(ctx, noCall, &gatewayv1.GetCIRunRequest{Repo: repo, RunId: id})
	if err != nil || len(run.GetJobs()) != 2 || run.GetJobs()[1].GetLogTail() != "ok 1\nFAIL: TestJam" || run.GetJobs()[0].GetLogTail() != "" {
		t.Fatalf("run = %v, %v", run, err)
	}
	rerun, err := p.RerunCi(ctx, noCall, &gatewayv1.RerunCIRequest{Repo: repo, RunId: id, FailedOnly: true})
	if err != nil || rerun.GetStatus() != "queued" {
		t.Fatalf("rerun = %v, %v", rerun, err)
	}
	trig, err := p.TriggerCi(ctx, noCall, &gatewayv1.TriggerCIRequest{Repo: repo, Workflow: "ci.yml", Ref: "feature", Inputs: []*gatewayv1.CIInput{{Name: "level", Value: "full"}}})
	if err != nil || trig.GetRunId() != "" || trig.GetWorkflow() != "ci.yml" {
		t.Fatalf("trigger = %v, %v", trig, err)
	}
	last := s.Requests()[len(s.Requests())-1]
	if last.Path != "/repos/acme/widgets/actions/workflows/ci.yml/dispatches" || string(last.Body) != `{"ref":"feature","inputs":{"level":"full"}}` {
		t.Errorf("dispatch sent %s %s", last.Path, last.Body)
	}
	_, err = p.GetCiRun(ctx, noCall, &gatewayv1.GetCIRunRequest{Repo: repo, RunId: "abc"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "not a Gitea Actions run id")
	// A Gitea without the run API: 404 on a repository that exists.
	s.Inject("GET /repos/acme/widgets/actions/runs", giteatest.Response{Status: 404, Body: `{"message":"Not Found"}`})
	_, err = p.ListCiRuns(ctx, noCall, &gatewayv1.ListCIRunsRequest{Repo: repo})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED, "serves no Actions run API")
}

// Forgejo: the same API for everything but CI runs, which the provider
// refuses in Forgejo's words without asking; workflow dispatch works.
func TestForgejo(t *testing.T) {
	s := fake(t, true)
	p := provider(t, s, true, 0)
	ctx := context.Background()
	before := len(s.Requests())
	_, err := p.ListCiRuns(ctx, noCall, &gatewayv1.ListCIRunsRequest{Repo: repo})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED, "Forgejo", "forge_trigger_ci works")
	_, err = p.RerunCi(ctx, noCall, &gatewayv1.RerunCIRequest{Repo: repo, RunId: "1"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED, "Forgejo")
	if len(s.Requests()) != before {
		t.Errorf("the refused CI arms reached Forgejo")
	}
	if _, err := p.TriggerCi(ctx, noCall, &gatewayv1.TriggerCIRequest{Repo: repo, Workflow: "ci.yml", Ref: "main"}); err != nil {
		t.Fatal(err)
	}
	i, err := p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: 1})
	if err != nil || i.GetForge().GetProvider().String() != "FORGE_PROVIDER_FORGEJO" || i.GetUrl() != "https://codeberg.example.com/acme/widgets/issues/1" {
		t.Fatalf("issue = %v, %v", i, err)
	}
	_, err = p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: "a/b/c", IssueNumber: 1})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "not a Forgejo repository")
}

func TestFailuresInBand(t *testing.T) {
	get := &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: 1}
	route := "GET /repos/acme/widgets/issues/1"
	for _, tc := range []struct {
		name  string
		resp  giteatest.Response
		code  gatewayv1.ErrorCode
		parts []string
		wait  time.Duration
	}{
		{"401", giteatest.Response{Status: 401, Body: `{"message":"invalid username, password or token","url":"https://gitea.example.com/api/swagger"}`},
			gatewayv1.ErrorCode_ERROR_CODE_UNAUTHENTICATED, []string{"Gitea answered 401 Unauthorized: invalid username, password or token", "expired or revoked"}, 0},
		{"403", giteatest.Response{Status: 403, Body: `{"message":"token does not have at least one of required scope(s): [read:issue]","url":"x"}`},
			gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, []string{"required scope"}, 0},
		{"404", giteatest.Response{Status: 404, Body: `{"errors":[],"message":"The target couldn't be found.","url":"x"}`},
			gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, []string{"couldn't be found", "cannot see it"}, 0},
		{"429", giteatest.Response{Status: 429, Header: http.Header{"Retry-After": {"17"}}, Body: `{"message":"rate limit exceeded"}`},
			gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED, []string{"Gitea rate limit"}, 17 * time.Second},
		{"403 with a wait", giteatest.Response{Status: 403, Header: http.Header{"Retry-After": {"5"}}, Body: `{"message":"Forbidden"}`},
			gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED, nil, 5 * time.Second},
		{"502 from a proxy", giteatest.Response{Status: 502, Header: http.Header{"Content-Type": {"text/html"}}, Body: "<html>bad gateway</html>"},
			gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, []string{"Gitea answered 502 Bad Gateway"}, 0},
		{"not JSON", giteatest.Response{Status: 200, Body: "<html>login</html>"},
			gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, []string{"not the JSON"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := fake(t, false)
			s.Inject(route, tc.resp)
			_, err := provider(t, s, false, 0).GetIssue(context.Background(), noCall, get)
			wantCode(t, err, tc.code, tc.parts...)
			if e, _ := toolserver.AsError(err); e.RetryAfter != tc.wait {
				t.Errorf("retry after %v, want %v", e.RetryAfter, tc.wait)
			}
			if strings.Contains(err.Error(), "<html>") {
				t.Errorf("a proxy page leaks into the message: %v", err)
			}
		})
	}
	t.Run("timeout", func(t *testing.T) {
		s := fake(t, false)
		s.Inject(route, giteatest.Response{Hold: true})
		_, err := provider(t, s, false, 300*time.Millisecond).GetIssue(context.Background(), noCall, get)
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, "did not answer within 300ms")
	})
	t.Run("redirect on a write", func(t *testing.T) {
		s := fake(t, false)
		s.Inject("POST /repos/acme/widgets/issues", giteatest.Response{Status: 301, Header: http.Header{"Location": {"/api/v1/repos/acme/gadgets/issues"}}})
		_, err := provider(t, s, false, 0).CreateIssue(context.Background(), noCall, &gatewayv1.CreateIssueRequest{Repo: repo, Title: "x"})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "POST", "not followed on writes", "nothing was written")
		if n := len(s.Requests()); n != 1 {
			t.Errorf("%d requests, want only the POST", n)
		}
	})
	t.Run("redirect off the host", func(t *testing.T) {
		s := fake(t, false)
		s.Inject(route, giteatest.Response{Status: 302, Header: http.Header{"Location": {"https://elsewhere.example.com/x"}}})
		_, err := provider(t, s, false, 0).GetIssue(context.Background(), noCall, get)
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "pinned to")
	})
}
