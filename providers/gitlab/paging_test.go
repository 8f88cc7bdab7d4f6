package gitlab_test

import (
	"context"
	"fmt"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/gitlab/gitlabtest"
)

func u32(n uint32) *uint32 { return &n }

// TestListIssuesPages pages through issues one GitLab request per page
// (page and per_page as GitLab takes them, the next page from
// X-Next-Page), with no gap or repeat, and refuses a cursor passed with
// other arguments or made up.
func TestListIssuesPages(t *testing.T) {
	s := fake(t)
	p := provider(t, s, 0)
	ctx := context.Background()
	for i := range 24 {
		s.AddIssue(proj, gitlabtest.Issue{Title: fmt.Sprintf("issue %d", i+2)})
	}
	req := &gatewayv1.ListIssuesRequest{Repo: proj, Limit: u32(10)}
	var numbers []uint64
	for page := 1; ; page++ {
		before := len(s.Requests())
		list, err := p.ListIssues(ctx, noCall, req)
		if err != nil {
			t.Fatal(err)
		}
		if sent := s.Requests()[before:]; len(sent) != 1 || sent[0].Path != escaped+"/issues" ||
			sent[0].Query.Get("page") != fmt.Sprint(page) || sent[0].Query.Get("per_page") != "10" {
			t.Fatalf("page %d sent %v, want one GET of page %d at per_page 10", page, sent, page)
		}
		for _, i := range list.GetIssues() {
			numbers = append(numbers, i.GetNumber())
		}
		if list.GetNextCursor() == "" {
			if page != 3 {
				t.Errorf("the last page is page %d, want 3", page)
			}
			break
		}
		req.Cursor = list.GetNextCursor()
	}
	if len(numbers) != 25 {
		t.Fatalf("read %v, want issues 25 down to 1", numbers)
	}
	for i, n := range numbers {
		if n != uint64(25-i) {
			t.Fatalf("read %v, want issues 25 down to 1", numbers)
		}
	}
	first, err := p.ListIssues(ctx, noCall, &gatewayv1.ListIssuesRequest{Repo: proj, Limit: u32(10)})
	if err != nil {
		t.Fatal(err)
	}
	for _, other := range []*gatewayv1.ListIssuesRequest{
		{Repo: proj, Limit: u32(20), Cursor: first.GetNextCursor()}, // a page number means nothing at another size
		{Repo: proj, Limit: u32(10), State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL, Cursor: first.GetNextCursor()},
		{Repo: proj, Limit: u32(10), Cursor: "2"},
		{Repo: proj, Limit: u32(10), Cursor: first.GetNextCursor() + "x"},
	} {
		before := len(s.Requests())
		_, err := p.ListIssues(ctx, noCall, other)
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "cursor")
		if len(s.Requests()) != before {
			t.Errorf("a refused cursor %q reached GitLab", other.GetCursor())
		}
	}
}

// TestListCommentsPages pages a merge request's and an issue's notes,
// oldest first, from GitLab's notes endpoints.
func TestListCommentsPages(t *testing.T) {
	s := fake(t)
	p := provider(t, s, 0)
	ctx := context.Background()
	for i := range 7 {
		if _, err := p.CommentOnPullRequest(ctx, noCall, &gatewayv1.CommentOnPullRequestRequest{Repo: proj, PullNumber: 1, Body: fmt.Sprintf("c%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	req := &gatewayv1.ListCommentsRequest{Repo: proj, Kind: gatewayv1.CommentsOf_COMMENTS_OF_PULL_REQUEST, Number: 1, Limit: u32(3)}
	var bodies string
	for range 5 {
		list, err := p.ListComments(ctx, noCall, req)
		if err != nil {
			t.Fatal(err)
		}
		if r := last(s); r.Path != escaped+"/merge_requests/1/notes" || r.Query.Get("sort") != "asc" || r.Query.Get("per_page") != "3" {
			t.Errorf("sent %s %v", r.Path, r.Query)
		}
		for _, c := range list.GetComments() {
			bodies += c.GetBody() + " "
		}
		if list.GetNextCursor() == "" {
			break
		}
		req.Cursor = list.GetNextCursor()
	}
	if bodies != "c0 c1 c2 c3 c4 c5 c6 " {
		t.Errorf("read %q, want c0 to c6 in order", bodies)
	}
	list, err := p.ListComments(ctx, noCall, &gatewayv1.ListCommentsRequest{Repo: proj, Kind: gatewayv1.CommentsOf_COMMENTS_OF_ISSUE, Number: 1})
	if err != nil || len(list.GetComments()) != 0 || list.GetNextCursor() != "" || last(s).Path != escaped+"/issues/1/notes" {
		t.Errorf("issue without comments: %v, %v (sent %s)", list, err, last(s).Path)
	}
	_, err = p.ListComments(ctx, noCall, &gatewayv1.ListCommentsRequest{Repo: proj, Kind: gatewayv1.CommentsOf_COMMENTS_OF_ISSUE, Number: 99})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)
	// GitLab keeps no reviews: kind reviews says so without asking GitLab.
	before := len(s.Requests())
	_, err = p.ListComments(ctx, noCall, &gatewayv1.ListCommentsRequest{Repo: proj, Kind: gatewayv1.CommentsOf_COMMENTS_OF_REVIEWS, Number: 1})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED, "GitLab keeps no reviews", "forge_list_review_threads")
	if len(s.Requests()) != before {
		t.Errorf("kind reviews sent GitLab %d requests", len(s.Requests())-before)
	}
}
