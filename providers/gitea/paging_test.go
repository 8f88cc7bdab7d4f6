package gitea_test

import (
	"context"
	"fmt"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/gitea/giteatest"
)

func u32(n uint32) *uint32 { return &n }

// TestListIssuesPages pages through issues one Gitea request per page
// (page and limit, at most Gitea's 50 a page; the next page from the Link
// header), with no gap or repeat, and refuses a cursor passed with other
// arguments, or made up, before anything is sent.
func TestListIssuesPages(t *testing.T) {
	s := fake(t, false)
	p := provider(t, s, false, 0)
	ctx := context.Background()
	for i := range 58 {
		s.AddIssue(repo, giteatest.Issue{Title: fmt.Sprintf("issue %d", i)})
	}
	// #1 and #3..#60 are issues (#2 is the pull request): 59, read as 50
	// and 9, since a page of more than 50 is two pages.
	req := &gatewayv1.ListIssuesRequest{Repo: repo, Limit: u32(100)}
	seen := map[uint64]bool{}
	pages := 0
	for {
		before := len(s.Requests())
		list, err := p.ListIssues(ctx, noCall, req)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if sent := s.Requests()[before:]; len(sent) != 1 || sent[0].Query.Get("page") != fmt.Sprint(pages) || sent[0].Query.Get("limit") != "50" {
			t.Fatalf("page %d sent %v, want one GET of page %d at limit 50", pages, sent, pages)
		}
		for _, i := range list.GetIssues() {
			if seen[i.GetNumber()] {
				t.Fatalf("issue #%d shown twice", i.GetNumber())
			}
			seen[i.GetNumber()] = true
		}
		if list.GetNextCursor() == "" {
			break
		}
		req.Cursor = list.GetNextCursor()
	}
	if pages != 2 || len(seen) != 59 || seen[2] {
		t.Errorf("%d pages showing %d issues (the pull request #2: %v), want 2 pages of the 59 issues", pages, len(seen), seen[2])
	}
	first, err := p.ListIssues(ctx, noCall, &gatewayv1.ListIssuesRequest{Repo: repo, Limit: u32(10)})
	if err != nil || first.GetNextCursor() == "" {
		t.Fatalf("first page %v, %v", first, err)
	}
	for _, other := range []*gatewayv1.ListIssuesRequest{
		{Repo: repo, Limit: u32(20), Cursor: first.GetNextCursor()},
		{Repo: repo, Limit: u32(10), Assignee: "ada", Cursor: first.GetNextCursor()},
		{Repo: repo, Limit: u32(10), Cursor: "page:2"},
	} {
		before := len(s.Requests())
		_, err := p.ListIssues(ctx, noCall, other)
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "cursor")
		if len(s.Requests()) != before {
			t.Errorf("a refused cursor %q reached Gitea", other.GetCursor())
		}
	}
}

// TestListCommentsPages pages a pull request's conversation oldest first,
// one request a page (Gitea answers the whole conversation, which the
// provider cuts at the cursor's offset): the comments say whether they
// are a pull request's; only an empty conversation looks at the number.
func TestListCommentsPages(t *testing.T) {
	s := fake(t, false)
	p := provider(t, s, false, 0)
	ctx := context.Background()
	for i := range 7 {
		if _, err := p.CommentOnPullRequest(ctx, noCall, &gatewayv1.CommentOnPullRequestRequest{Repo: repo, PullNumber: 2, Body: fmt.Sprintf("c%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	req := &gatewayv1.ListCommentsRequest{Repo: repo, Kind: gatewayv1.CommentsOf_COMMENTS_OF_PULL_REQUEST, Number: 2, Limit: u32(3)}
	var bodies string
	for page := 1; page <= 5; page++ {
		before := len(s.Requests())
		list, err := p.ListComments(ctx, noCall, req)
		if err != nil {
			t.Fatal(err)
		}
		if sent := s.Requests()[before:]; len(sent) != 1 ||
			sent[0].Path != "/repos/acme/widgets/issues/2/comments" {
			t.Errorf("page %d sent %v", page, sent)
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
	_, err := p.ListComments(ctx, noCall, &gatewayv1.ListCommentsRequest{Repo: repo, Kind: gatewayv1.CommentsOf_COMMENTS_OF_ISSUE, Number: 2})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "is a pull request, not an issue")
	// Issue #1 has no comments: its kind is looked up.
	_, err = p.ListComments(ctx, noCall, &gatewayv1.ListCommentsRequest{Repo: repo, Kind: gatewayv1.CommentsOf_COMMENTS_OF_PULL_REQUEST, Number: 1})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "is an issue, not a pull request")
	if r := s.Requests(); r[len(r)-1].Path != "/repos/acme/widgets/issues/1" {
		t.Errorf("an empty page's kind was not looked up: last sent %s", r[len(r)-1].Path)
	}
}
