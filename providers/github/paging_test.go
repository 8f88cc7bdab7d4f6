package github

import (
	"fmt"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/github/githubtest"
)

// forge_list_comments pages a conversation of 45 comments with no gap or
// repeat, one request a page (the GraphQL query answers the kind beside
// the page), on an issue and on a pull request; the wrong kind is
// not_found, an empty conversation included, still in one request.
func TestListCommentsPagesTheConversation(t *testing.T) {
	srv, p := stateful(t)
	const repo = "octocat/Hello-World"
	issue := srv.AddIssue(repo, githubtest.Issue{Title: "Busy"})
	pull := srv.AddPull(repo, githubtest.Pull{Title: "Busy too", Head: "feature"})
	for i := range 45 {
		srv.Comment(repo, issue, "someone", fmt.Sprint("issue comment ", i))
		srv.Comment(repo, pull, "someone", fmt.Sprint("pull comment ", i))
	}
	for _, c := range []struct {
		kind gatewayv1.CommentsOf
		n    int
		word string
	}{{gatewayv1.CommentsOf_COMMENTS_OF_ISSUE, issue, "issue"}, {gatewayv1.CommentsOf_COMMENTS_OF_PULL_REQUEST, pull, "pull"}} {
		before := len(srv.Requests())
		limit := uint32(20)
		req := &gatewayv1.ListCommentsRequest{Repo: repo, Kind: c.kind, Number: uint64(c.n), Limit: &limit}
		var bodies []string
		pages := 0
		for {
			got, err := p.ListComments(ctx, noCall, req)
			if err != nil {
				t.Fatal(err)
			}
			pages++
			for _, cm := range got.GetComments() {
				bodies = append(bodies, cm.GetBody())
			}
			if got.GetNextCursor() == "" {
				break
			}
			req.Cursor = got.GetNextCursor()
		}
		var want []string
		for i := range 45 {
			want = append(want, fmt.Sprint(c.word, " comment ", i))
		}
		if strings.Join(bodies, "|") != strings.Join(want, "|") {
			t.Errorf("%s conversation read back as %q", c.word, bodies)
		}
		if sent := len(srv.Requests()) - before; pages != 3 || sent != 3 {
			t.Errorf("%s: %d pages in %d requests, want 3 in 3", c.word, pages, sent)
		}
	}
	_, err := p.ListComments(ctx, noCall, &gatewayv1.ListCommentsRequest{Repo: repo, Kind: gatewayv1.CommentsOf_COMMENTS_OF_ISSUE, Number: uint64(pull)})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "is a pull request, not an issue")
	quiet := srv.AddPull(repo, githubtest.Pull{Title: "Quiet", Head: "feature", Base: "main"})
	before := len(srv.Requests())
	_, err = p.ListComments(ctx, noCall, &gatewayv1.ListCommentsRequest{Repo: repo, Kind: gatewayv1.CommentsOf_COMMENTS_OF_ISSUE, Number: uint64(quiet)})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "is a pull request, not an issue")
	empty, err := p.ListComments(ctx, noCall, &gatewayv1.ListCommentsRequest{Repo: repo, Kind: gatewayv1.CommentsOf_COMMENTS_OF_PULL_REQUEST, Number: uint64(quiet)})
	if err != nil || len(empty.GetComments()) != 0 || empty.GetNextCursor() != "" {
		t.Errorf("an empty conversation: %v, %v; want an empty last page", empty, err)
	}
	if sent := len(srv.Requests()) - before; sent != 2 {
		t.Errorf("two calls on an empty conversation cost %d requests, want one each", sent)
	}
	_, err = p.ListComments(ctx, noCall, &gatewayv1.ListCommentsRequest{Repo: repo, Kind: gatewayv1.CommentsOf_COMMENTS_OF_ISSUE, Number: 999})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)
	_, err = p.ListComments(ctx, noCall, &gatewayv1.ListCommentsRequest{Repo: repo, Kind: gatewayv1.CommentsOf_COMMENTS_OF_PULL_REQUEST, Number: uint64(issue), Cursor: "x.2"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "cursor")
}

// forge_list_issues pages 250 issues (among pull requests, which it
// drops) with no gap or repeat, each page one request.
func TestListIssuesPagesEveryIssue(t *testing.T) {
	srv, p := stateful(t)
	const repo = "octocat/Hello-World"
	want := map[int]bool{}
	for i := range 250 {
		want[srv.AddIssue(repo, githubtest.Issue{Title: fmt.Sprint("Issue ", i)})] = true
		if i%50 == 0 {
			srv.AddPull(repo, githubtest.Pull{Title: fmt.Sprint("Pull ", i), Head: "feature"})
		}
	}
	before := len(srv.Requests())
	limit := uint32(100)
	req := &gatewayv1.ListIssuesRequest{Repo: repo, Limit: &limit}
	seen := map[uint64]bool{}
	pages := 0
	for {
		got, err := p.ListIssues(ctx, noCall, req)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, i := range got.GetIssues() {
			if seen[i.GetNumber()] || !want[int(i.GetNumber())] {
				t.Errorf("issue #%d repeated or not an issue", i.GetNumber())
			}
			seen[i.GetNumber()] = true
		}
		if got.GetNextCursor() == "" {
			break
		}
		req.Cursor = got.GetNextCursor()
	}
	if len(seen) != 250 {
		t.Errorf("read %d of 250 issues", len(seen))
	}
	if sent := len(srv.Requests()) - before; sent != pages {
		t.Errorf("%d pages cost %d requests, want one each", pages, sent)
	}
}

// forge_list_pull_requests and forge_list_ci_runs page by the Link
// header too: 35 of each at limit 20 are two pages, no gap or repeat,
// one request each.
func TestListPullsAndRunsPage(t *testing.T) {
	srv, p := stateful(t)
	const repo = "octocat/Hello-World"
	srv.AddWorkflow(repo, githubtest.Workflow{Name: "CI", Path: ".github/workflows/ci.yml"})
	for i := range 35 {
		srv.AddPull(repo, githubtest.Pull{Title: fmt.Sprint("Pull ", i), Head: "feature"})
		srv.AddRun(repo, githubtest.Run{Workflow: "ci.yml", Conclusion: "success"})
	}
	limit := uint32(20)
	before := len(srv.Requests())
	pulls, runs := map[uint64]bool{}, map[string]bool{}
	pages := 0
	for req := (&gatewayv1.ListPullRequestsRequest{Repo: repo, Limit: &limit}); ; pages++ {
		got, err := p.ListPullRequests(ctx, noCall, req)
		if err != nil {
			t.Fatal(err)
		}
		for _, pr := range got.GetPullRequests() {
			if pulls[pr.GetNumber()] {
				t.Errorf("pull request #%d listed twice", pr.GetNumber())
			}
			pulls[pr.GetNumber()] = true
		}
		if req.Cursor = got.GetNextCursor(); req.Cursor == "" {
			break
		}
	}
	for req := (&gatewayv1.ListCIRunsRequest{Repo: repo, Limit: &limit}); ; pages++ {
		got, err := p.ListCiRuns(ctx, noCall, req)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range got.GetRuns() {
			if runs[r.GetRunId()] {
				t.Errorf("run %s listed twice", r.GetRunId())
			}
			runs[r.GetRunId()] = true
		}
		if req.Cursor = got.GetNextCursor(); req.Cursor == "" {
			break
		}
	}
	if len(pulls) != 35 || len(runs) != 35 {
		t.Errorf("%d pull requests and %d runs listed, want 35 of each", len(pulls), len(runs))
	}
	if sent := len(srv.Requests()) - before; sent != pages+2 || pages != 2 {
		t.Errorf("%d requests for %d+2 pages, want 4 pages, one request each", sent, pages)
	}
}
