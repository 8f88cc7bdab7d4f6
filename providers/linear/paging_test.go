package linear

import (
	"context"
	"errors"
	"fmt"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/providers/linear/lineartest"
	"github.com/forgetools/forgetools/toolserver"
)

func u32(n uint32) *uint32 { return &n }

// pagingFake is the GraphQL fake with team ENG and a provider on it.
func pagingFake(t *testing.T) (*lineartest.Server, *Provider) {
	t.Helper()
	srv := lineartest.New(lineartest.Options{})
	t.Cleanup(srv.Close)
	srv.AddKey(testKey, lineartest.User{Name: "bot", DisplayName: "bot"})
	srv.AddTeam("ENG", "Engineering")
	p, err := New(Options{Options: kit.Options{APIURL: srv.APIURL(), Token: testKey, UserAgent: testAgent}})
	if err != nil {
		t.Fatal(err)
	}
	return srv, p
}

// TestListIssuesPagesByLinearCursor pages a team's issues through
// Linear's after cursor, one query a page, the first included (the team
// is named by key in the filter, on a fresh provider), newest first with
// no gap or repeat; a cursor for other arguments never reaches Linear.
func TestListIssuesPagesByLinearCursor(t *testing.T) {
	srv, p := pagingFake(t)
	ctx := context.Background()
	call := toolserver.Call{Account: "a", Session: "s"}
	for i := range 23 {
		srv.AddIssue("ENG", lineartest.Issue{Title: fmt.Sprint("issue ", i)})
	}
	req := &gatewayv1.ListIssuesRequest{Repo: "ENG", Limit: u32(10)}
	var numbers []uint64
	pages := 0
	for ; pages < 5; pages++ {
		before := len(srv.Requests())
		list, err := p.ListIssues(ctx, call, req)
		if err != nil {
			t.Fatal(err)
		}
		if sent := len(srv.Requests()) - before; sent != 1 {
			t.Errorf("page %d cost %d requests, want 1", pages+1, sent)
		}
		for _, i := range list.GetIssues() {
			numbers = append(numbers, i.GetNumber())
		}
		if list.GetNextCursor() == "" {
			break
		}
		req.Cursor = list.GetNextCursor()
	}
	if pages != 2 || len(numbers) != 23 {
		t.Fatalf("%d pages, issues %v; want 3 pages of 23", pages+1, numbers)
	}
	for i, n := range numbers {
		if n != uint64(23-i) {
			t.Fatalf("issues %v, want 23 down to 1", numbers)
		}
	}
	first, err := p.ListIssues(ctx, call, &gatewayv1.ListIssuesRequest{Repo: "ENG", Limit: u32(10)})
	if err != nil {
		t.Fatal(err)
	}
	before := len(srv.Requests())
	_, err = p.ListIssues(ctx, call, &gatewayv1.ListIssuesRequest{Repo: "ENG", Limit: u32(10), Labels: []string{"Bug"}, Cursor: first.GetNextCursor()})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT)
	_, err = p.ListIssues(ctx, call, &gatewayv1.ListIssuesRequest{Repo: "ENG", Limit: u32(10), Cursor: `x.{"a":1}`})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT)
	if len(srv.Requests()) != before {
		t.Error("a refused cursor reached Linear")
	}
}

// TestListCommentsPagesByLinearCursor pages an issue's 45 comments,
// oldest first, one query a page; pull requests are not Linear's.
func TestListCommentsPagesByLinearCursor(t *testing.T) {
	srv, p := pagingFake(t)
	ctx := context.Background()
	call := toolserver.Call{Account: "a", Session: "s"}
	srv.AddIssue("ENG", lineartest.Issue{Title: "Busy"})
	for i := range 45 {
		if _, err := p.CommentOnIssue(ctx, call, &gatewayv1.CommentOnIssueRequest{Repo: "ENG", IssueNumber: 1, Body: fmt.Sprint("c", i)}); err != nil {
			t.Fatal(err)
		}
	}
	req := &gatewayv1.ListCommentsRequest{Repo: "ENG", Kind: gatewayv1.CommentsOf_COMMENTS_OF_ISSUE, Number: 1, Limit: u32(20)}
	var bodies []string
	for range 5 {
		before := len(srv.Requests())
		list, err := p.ListComments(ctx, call, req)
		if err != nil {
			t.Fatal(err)
		}
		if sent := len(srv.Requests()) - before; sent != 1 {
			t.Errorf("a page cost %d requests, want 1", sent)
		}
		for _, c := range list.GetComments() {
			bodies = append(bodies, c.GetBody())
		}
		if list.GetNextCursor() == "" {
			break
		}
		req.Cursor = list.GetNextCursor()
	}
	if len(bodies) != 45 {
		t.Fatalf("read %d comments, want 45", len(bodies))
	}
	for i, b := range bodies {
		if b != fmt.Sprint("c", i) {
			t.Fatalf("comment %d is %q, want c%d", i, b, i)
		}
	}
	for _, kind := range []gatewayv1.CommentsOf{gatewayv1.CommentsOf_COMMENTS_OF_PULL_REQUEST, gatewayv1.CommentsOf_COMMENTS_OF_REVIEWS} {
		_, err := p.ListComments(ctx, call, &gatewayv1.ListCommentsRequest{Repo: "ENG", Kind: kind, Number: 1})
		var un *toolserver.UnimplementedError
		if !errors.As(err, &un) || un.Capability != "pull_requests" {
			t.Errorf("%v on Linear: %v, want unimplemented (no pull requests)", kind, err)
		}
	}
	_, err := p.ListComments(ctx, call, &gatewayv1.ListCommentsRequest{Repo: "ENG", Kind: gatewayv1.CommentsOf_COMMENTS_OF_ISSUE, Number: 99})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)
}
