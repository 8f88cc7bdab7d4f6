package github

import (
	"fmt"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/github/githubtest"
)

// forge_list_comments kind reviews pages a pull request's 45 reviews
// (past forge_get_pull_request's cap) oldest first with no gap or repeat,
// one GraphQL request a page held to GitHub's schema, each review with its
// verdict and without its inline comments; a pending review (a draft only
// its author sees) is left out; an issue's number is not_found in one
// request; a conversation cursor is refused.
func TestListReviewsPages(t *testing.T) {
	srv, p := stateful(t)
	const repo = "octocat/Hello-World"
	pull := srv.AddPull(repo, githubtest.Pull{Title: "Reviewed", Head: "feature"})
	issue := srv.AddIssue(repo, githubtest.Issue{Title: "Not a pull request"})
	states := []string{"COMMENTED", "CHANGES_REQUESTED", "APPROVED"}
	for i := range 45 {
		if i == 10 {
			srv.Review(repo, pull, "drafter", "PENDING", "a draft")
		}
		srv.Review(repo, pull, "someone", states[i%3], fmt.Sprint("review ", i), githubtest.Inline{Path: "README", Line: 1, Body: "inline"})
	}
	srv.Comment(repo, pull, "someone", "conversation")
	before := len(srv.Requests())
	limit := uint32(20)
	req := &gatewayv1.ListCommentsRequest{Repo: repo, Kind: gatewayv1.CommentsOf_COMMENTS_OF_REVIEWS, Number: uint64(pull), Limit: &limit}
	var got []string
	pages := 0
	for {
		list, err := p.ListComments(ctx, noCall, req)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if len(list.GetComments()) != 0 {
			t.Errorf("kind reviews showed conversation comments %v", list.GetComments())
		}
		for _, r := range list.GetReviews() {
			i := len(got)
			got = append(got, r.GetBody())
			want := []string{"comment", "request_changes", "approve"}[i%3]
			if r.GetVerdict() != want || r.GetAuthor() != "someone" || len(r.GetComments()) != 0 || r.GetUrl() == "" {
				t.Errorf("review %d: %v; want someone's %s with a url and no inline comments shown", i, r, want)
			}
		}
		if req.Cursor = list.GetNextCursor(); req.Cursor == "" {
			break
		}
	}
	if len(got) != 45 {
		t.Fatalf("read %d reviews, want 45", len(got))
	}
	for i, b := range got {
		if b != fmt.Sprint("review ", i) {
			t.Fatalf("review %d is %q (oldest first, no gap or repeat)", i, b)
		}
	}
	if sent := len(srv.Requests()) - before; pages != 3 || sent != 3 {
		t.Errorf("%d pages in %d requests, want 3 in 3", pages, sent)
	}
	before = len(srv.Requests())
	_, err := p.ListComments(ctx, noCall, &gatewayv1.ListCommentsRequest{Repo: repo, Kind: gatewayv1.CommentsOf_COMMENTS_OF_REVIEWS, Number: uint64(issue)})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "is an issue, not a pull request")
	if sent := len(srv.Requests()) - before; sent != 1 {
		t.Errorf("an issue's number cost %d requests, want 1", sent)
	}
	conv, err := p.ListComments(ctx, noCall, &gatewayv1.ListCommentsRequest{Repo: repo, Kind: gatewayv1.CommentsOf_COMMENTS_OF_REVIEWS, Number: uint64(pull), Limit: &limit})
	if err != nil || conv.GetNextCursor() == "" {
		t.Fatalf("first page: %v, %v", conv, err)
	}
	_, err = p.ListComments(ctx, noCall, &gatewayv1.ListCommentsRequest{Repo: repo, Kind: gatewayv1.CommentsOf_COMMENTS_OF_PULL_REQUEST, Number: uint64(pull), Limit: &limit, Cursor: conv.GetNextCursor()})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "cursor")
}

// GitHub's cursors are standard base64; a next_cursor holds + and / as -
// and _ and reads back exactly, and anything else is refused both ways.
func TestGraphQLCursorPositions(t *testing.T) {
	for _, c := range []string{"Y3Vyc29yOnYyOpHOAAAB", "Y3Vyc29y+n/yOpHO==", "ab+/"} {
		pos, ok := toPosition(c)
		if !ok {
			t.Fatalf("toPosition(%q) refused", c)
		}
		if back, err := fromPosition(pos); err != nil || back != c {
			t.Errorf("%q -> %q -> %q, %v", c, pos, back, err)
		}
	}
	for _, c := range []string{"", "a-b", "a_b", "a b", "a=b", "a:b"} {
		if _, ok := toPosition(c); ok {
			t.Errorf("toPosition(%q) accepted a cursor that is not standard base64", c)
		}
	}
	for _, pos := range []string{"a:b", "a=b", "="} {
		if _, err := fromPosition(pos); err == nil {
			t.Errorf("fromPosition(%q) accepted a position toPosition never writes", pos)
		}
	}
}

// A hostile or broken answer naming a next page no next_cursor can hold
// (not base64, or too long to pass back) is unavailable, never a cursor
// that would read back as another position; null nodes are skipped.
func TestListCommentsRefusesAnUnpageableCursor(t *testing.T) {
	srv, p := stateful(t)
	const repo = "octocat/Hello-World"
	issue := srv.AddIssue(repo, githubtest.Issue{Title: "Busy"})
	answer := func(cursor string) string {
		return `{"data":{"repository":{"issueOrPullRequest":{"__typename":"Issue","comments":{"pageInfo":{"hasNextPage":true,"endCursor":"` +
			cursor + `"},"nodes":[null,{"url":"https://github.com/octocat/Hello-World/issues/1#issuecomment-1","body":"hi","author":null}]}}}}}`
	}
	req := &gatewayv1.ListCommentsRequest{Repo: repo, Kind: gatewayv1.CommentsOf_COMMENTS_OF_ISSUE, Number: uint64(issue)}
	for _, c := range []string{"../../x", "Y3Vy c29y", strings.Repeat("QUJD", 20)} {
		srv.Inject(githubtest.GraphQLRoute, githubtest.Response{Body: answer(c)})
		_, err := p.ListComments(ctx, noCall, req)
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE)
	}
	srv.Inject(githubtest.GraphQLRoute, githubtest.Response{Body: answer("Y3Vyc29yOnYyOpHO+/8=")})
	list, err := p.ListComments(ctx, noCall, req)
	if err != nil || len(list.GetComments()) != 1 || list.GetComments()[0].GetAuthor() != "ghost" || !strings.HasSuffix(list.GetNextCursor(), ".Y3Vyc29yOnYyOpHO-_8=") {
		t.Fatalf("a page with a null node and a cursor holding + and /: %v, %v", list, err)
	}
}
