package gitea_test

import (
	"context"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/gitea/giteatest"
	"github.com/forgetools/forgetools/toolserver"
)

// What a real Gitea does that the fake now models too (tests/giteareal
// holds the provider to the server itself): each answer here is the
// provider's fix for one of issue 22's findings.

const (
	invalid      = gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT
	denied       = gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED
	notFound     = gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND
	precondition = gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION
)

func TestLabelFilterNeverWidens(t *testing.T) {
	s := fake(t, false)
	p := provider(t, s, false, 0)
	ctx := context.Background()
	s.AddIssue(repo, giteatest.Issue{Title: "Plain"})
	_, err := p.ListIssues(ctx, noCall, &gatewayv1.ListIssuesRequest{Repo: repo, Labels: []string{"bug", "nope"}})
	wantCode(t, err, invalid, `has no label "nope"`)
	list, err := p.ListIssues(ctx, noCall, &gatewayv1.ListIssuesRequest{Repo: repo, Labels: []string{"BUG"}})
	if err != nil || len(list.GetIssues()) != 1 || list.GetIssues()[0].GetTitle() != "Jams" {
		t.Fatalf("labels [BUG] = %v, %v", list, err)
	}
	_, err = p.ListIssues(ctx, noCall, &gatewayv1.ListIssuesRequest{Repo: repo, Assignee: "nobody"})
	wantCode(t, err, invalid, "no user nobody")
}

func TestTriageFieldsNeedWrite(t *testing.T) {
	s := fake(t, false)
	p := provider(t, s, false, 0)
	ctx := context.Background()
	_, err := p.CreateIssue(ctx, noCall, &gatewayv1.CreateIssueRequest{Repo: repo, Title: "x", Milestone: ptr(uint64(4242))})
	wantCode(t, err, invalid, "no milestone 4242", "nothing was written")
	m := s.AddMilestone(repo, "v1")
	i, err := p.CreateIssue(ctx, noCall, &gatewayv1.CreateIssueRequest{Repo: repo, Title: "x", Milestone: ptr(uint64(m))})
	if err != nil || i.GetMilestone() != "v1" {
		t.Fatalf("create with milestone = %v, %v", i, err)
	}
	s.SetPermission(repo, "read", false)
	n := len(s.Requests())
	_, err = p.CreateIssue(ctx, noCall, &gatewayv1.CreateIssueRequest{Repo: repo, Title: "x", Labels: []string{"bug"}})
	wantCode(t, err, denied, "cannot write", "nothing was written")
	_, err = p.UpdateIssue(ctx, noCall, &gatewayv1.UpdateIssueRequest{Repo: repo, IssueNumber: 1, Title: ptr("Renamed"), Labels: []string{"bug"}})
	wantCode(t, err, denied, "cannot write", "nothing was written")
	for _, r := range s.Requests()[n:] {
		if r.Method != "GET" {
			t.Errorf("a refused triage sent %s %s", r.Method, r.Path)
		}
	}
}

func TestBranchesPathsAndComments(t *testing.T) {
	s := fake(t, false)
	p := provider(t, s, false, 0)
	ctx := context.Background()
	head := s.Head(repo, "feature")
	b, err := p.CreateBranch(ctx, noCall, &gatewayv1.CreateBranchRequest{Repo: repo, Branch: "at-sha", FromRef: head})
	if err != nil || b.GetSha() != head {
		t.Fatalf("branch from a sha = %v, %v", b, err)
	}
	_, err = p.CreateBranch(ctx, noCall, &gatewayv1.CreateBranchRequest{Repo: repo, Branch: "x", FromRef: "no-such-ref"})
	wantCode(t, err, notFound, "no branch, tag or commit no-such-ref")
	_, err = p.CreateBranch(ctx, noCall, &gatewayv1.CreateBranchRequest{Repo: repo, Branch: strings.Repeat("b", 101)})
	wantCode(t, err, invalid, "at most 100")
	n := len(s.Requests())
	_, err = p.WriteFile(ctx, toolserver.Call{}, &gatewayv1.WriteFileRequest{Repo: repo, Branch: "at-sha", Path: "docs/../../escape.txt", Content: "x", Message: "m"})
	wantCode(t, err, invalid, "not a path inside the repository")
	if len(s.Requests()) != n {
		t.Error("a path that climbs out reached Gitea")
	}
	_, err = p.CommentOnPullRequest(ctx, noCall, &gatewayv1.CommentOnPullRequestRequest{Repo: repo, PullNumber: 1, Body: "x"})
	wantCode(t, err, notFound, "is an issue, not a pull request", "nothing was posted")
	_, err = p.CommentOnIssue(ctx, noCall, &gatewayv1.CommentOnIssueRequest{Repo: repo, IssueNumber: 2, Body: "x"})
	wantCode(t, err, notFound, "is a pull request, not an issue", "nothing was posted")
}

func TestCommitNamesOwnerAndAgent(t *testing.T) {
	s := fake(t, false)
	p := provider(t, s, false, 0)
	_, err := p.WriteFile(context.Background(), toolserver.Call{AgentHandle: "release-bot", OwnerHandle: "alice"},
		&gatewayv1.WriteFileRequest{Repo: repo, Branch: "feature", Path: "NOTES.md", Content: "x", Message: "m"})
	if err != nil {
		t.Fatal(err)
	}
	last := string(s.Requests()[len(s.Requests())-1].Body)
	if !strings.Contains(last, `"author":{"name":"alice","email":"alice@noreply.`) || !strings.Contains(last, `"committer":{"name":"release-bot",`) {
		t.Errorf("write sent %s", last)
	}
}

func TestRunsAsGiteaAnswers(t *testing.T) {
	s := fake(t, false)
	p := provider(t, s, false, 0)
	ctx := context.Background()
	_, err := p.GetCiRun(ctx, noCall, &gatewayv1.GetCIRunRequest{Repo: repo, RunId: "999"})
	wantCode(t, err, notFound, "has no Actions run 999")
	if _, err := p.TriggerCi(ctx, noCall, &gatewayv1.TriggerCIRequest{Repo: repo, Workflow: "ci.yml", Ref: "main"}); err != nil {
		t.Fatal(err)
	}
	list, err := p.ListCiRuns(ctx, noCall, &gatewayv1.ListCIRunsRequest{Repo: repo})
	if err != nil || len(list.GetRuns()) != 2 {
		t.Fatalf("runs = %v, %v", list, err)
	}
	queued := list.GetRuns()[0]
	if queued.GetCreatedAt() != "" {
		t.Errorf("a queued run (Gitea sends the epoch as its start) has created_at %q", queued.GetCreatedAt())
	}
	_, err = p.RerunCi(ctx, noCall, &gatewayv1.RerunCIRequest{Repo: repo, RunId: queued.GetRunId()})
	wantCode(t, err, precondition, "is not done", "nothing was re-run")
}

func TestWIPMergeKeepsGiteasReason(t *testing.T) {
	s := fake(t, false)
	p := provider(t, s, false, 0)
	ctx := context.Background()
	n := s.AddPull(repo, giteatest.Pull{Title: "WIP: later", Head: "feature", Base: "main"})
	_, err := p.MergePullRequest(ctx, noCall, &gatewayv1.MergePullRequestRequest{Repo: repo, PullNumber: uint64(n), ExpectedHeadSha: s.Head(repo, "feature")})
	wantCode(t, err, precondition, "Work in progress PRs cannot be merged", "nothing was merged")
}

func ptr[T any](v T) *T { return &v }
