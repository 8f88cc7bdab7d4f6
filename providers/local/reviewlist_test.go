package local_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/toolserver"
)

// TestListReviewsPages pages a pull request's 45 reviews oldest first with
// no gap or repeat, past forge_get_pull_request's cap, each with its
// verdict and no inline comments (forge_list_review_threads pages those);
// an issue's number is not found, and a conversation cursor is refused.
func TestListReviewsPages(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		pr := createPull(t, f, "acme/app", "topic")
		bob := toolserver.Call{Account: "bob", Session: "b"}
		verdicts := []gatewayv1.Verdict{gatewayv1.Verdict_VERDICT_COMMENT, gatewayv1.Verdict_VERDICT_REQUEST_CHANGES, gatewayv1.Verdict_VERDICT_APPROVE}
		for i := range 45 {
			in := &gatewayv1.SubmitReviewRequest{Repo: "acme/app", PullNumber: pr, Verdict: verdicts[i%3], Body: fmt.Sprint("r", i)}
			if i == 0 {
				in.Comments = []*gatewayv1.ReviewCommentInput{{Path: "README.md", Line: 1, Body: "inline"}}
			}
			if _, err := f.SubmitReview(ctx, bob, in); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := f.CommentOnPullRequest(ctx, alice, &gatewayv1.CommentOnPullRequestRequest{Repo: "acme/app", PullNumber: pr, Body: "talk"}); err != nil {
			t.Fatal(err)
		}
		req := &gatewayv1.ListCommentsRequest{Repo: "acme/app", Kind: gatewayv1.CommentsOf_COMMENTS_OF_REVIEWS, Number: pr, Limit: ptrU32(20)}
		var bodies []string
		pages := 0
		for ; pages < 5; pages++ {
			list, err := f.ListComments(ctx, alice, req)
			if err != nil {
				t.Fatal(err)
			}
			if len(list.GetComments()) != 0 {
				t.Fatalf("kind reviews showed conversation comments: %v", list.GetComments())
			}
			for _, r := range list.GetReviews() {
				i := len(bodies)
				bodies = append(bodies, r.GetBody())
				if r.GetAuthor() != "bob" || len(r.GetComments()) != 0 || !strings.Contains(r.GetUrl(), "#pullrequestreview-") {
					t.Errorf("review %d: author %q, %d inline comments, url %q; want bob's, none shown, a review url", i, r.GetAuthor(), len(r.GetComments()), r.GetUrl())
				}
				if want := []string{"comment", "request_changes", "approve"}[i%3]; r.GetVerdict() != want {
					t.Errorf("review %d verdict %q, want %q", i, r.GetVerdict(), want)
				}
			}
			if list.GetNextCursor() == "" {
				break
			}
			req.Cursor = list.GetNextCursor()
		}
		if len(bodies) != 45 || pages != 2 {
			t.Fatalf("read %d reviews in %d pages, want 45 in 3", len(bodies), pages+1)
		}
		for i, b := range bodies {
			if b != fmt.Sprint("r", i) {
				t.Fatalf("review %d is %q, want r%d (oldest first, no gap or repeat)", i, b, i)
			}
		}
		quiet := createPull(t, f, "acme/app", "quiet")
		empty, err := f.ListComments(ctx, alice, &gatewayv1.ListCommentsRequest{Repo: "acme/app", Kind: gatewayv1.CommentsOf_COMMENTS_OF_REVIEWS, Number: quiet})
		if err != nil || len(empty.GetReviews()) != 0 || empty.GetNextCursor() != "" {
			t.Errorf("a pull request without reviews: %v, %v; want an empty last page", empty, err)
		}
		n := createIssue(t, f, "acme/app", "an issue")
		_, err = f.ListComments(ctx, alice, &gatewayv1.ListCommentsRequest{Repo: "acme/app", Kind: gatewayv1.CommentsOf_COMMENTS_OF_REVIEWS, Number: n})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "is an issue")
		_, err = f.ListComments(ctx, alice, &gatewayv1.ListCommentsRequest{Repo: "acme/app", Kind: gatewayv1.CommentsOf_COMMENTS_OF_REVIEWS, Number: 999})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "pull request #999")
		// A cursor of the pull request's conversation names a comment id,
		// not a review's: it is refused, not read as a position.
		conv, err := f.ListComments(ctx, alice, &gatewayv1.ListCommentsRequest{Repo: "acme/app", Kind: gatewayv1.CommentsOf_COMMENTS_OF_PULL_REQUEST, Number: pr, Limit: ptrU32(1)})
		if err != nil {
			t.Fatal(err)
		}
		first, err := f.ListComments(ctx, alice, &gatewayv1.ListCommentsRequest{Repo: "acme/app", Kind: gatewayv1.CommentsOf_COMMENTS_OF_REVIEWS, Number: pr, Limit: ptrU32(1)})
		if err != nil || first.GetNextCursor() == "" {
			t.Fatalf("first review page: %v, %v; want a next_cursor", first, err)
		}
		if conv.GetNextCursor() != "" {
			t.Fatalf("one conversation comment gave a next_cursor %q", conv.GetNextCursor())
		}
		_, err = f.ListComments(ctx, alice, &gatewayv1.ListCommentsRequest{Repo: "acme/app", Kind: gatewayv1.CommentsOf_COMMENTS_OF_PULL_REQUEST, Number: pr, Limit: ptrU32(1), Cursor: first.GetNextCursor()})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "cursor")
	})
}
