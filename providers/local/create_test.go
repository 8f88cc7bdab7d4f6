package local_test

import (
	"context"
	"slices"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/toolserver"
)

// TestReplayedCreateUsesNoNumber: a create takes its number before it
// looks for an earlier one with its key, and a replay gives that number
// back, so numbers stay consecutive across replays of issues and pull
// requests; a refused pull request uses none either. Lists come back in
// the order given.
func TestReplayedCreateUsesNoNumber(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		keyed := toolserver.Call{Account: "alice", ClientRequestID: "k:1"}
		req := &gatewayv1.CreateIssueRequest{Repo: "acme/gaps", Title: "one", Labels: []string{"b", "a", "C"}, Assignees: []string{"zed", "amy"}}
		var numbers []uint64
		for range 3 {
			is, err := f.CreateIssue(ctx, keyed, req)
			if err != nil {
				t.Fatal(err)
			}
			numbers = append(numbers, is.GetNumber())
			if !slices.Equal(is.GetLabels(), req.Labels) || !slices.Equal(is.GetAssignees(), req.Assignees) {
				t.Fatalf("issue lists %v %v, want %v %v", is.GetLabels(), is.GetAssignees(), req.Labels, req.Assignees)
			}
		}
		branch(t, f, "acme/gaps", "h")
		pr := &gatewayv1.CreatePullRequestRequest{Repo: "acme/gaps", Title: "pr", HeadRef: "h"}
		pkeyed := toolserver.Call{Account: "alice", ClientRequestID: "k:2"}
		for range 2 {
			p, err := f.CreatePullRequest(ctx, pkeyed, pr)
			if err != nil {
				t.Fatal(err)
			}
			numbers = append(numbers, p.GetNumber())
		}
		// Open already: refused, after its number was taken.
		_, err := f.CreatePullRequest(ctx, toolserver.Call{Account: "alice", ClientRequestID: "k:3"}, pr)
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_ALREADY_EXISTS, "already open")
		is, err := f.CreateIssue(ctx, alice, &gatewayv1.CreateIssueRequest{Repo: "acme/gaps", Title: "next"})
		if err != nil {
			t.Fatal(err)
		}
		numbers = append(numbers, is.GetNumber())
		if want := []uint64{1, 1, 1, 2, 2, 3}; !slices.Equal(numbers, want) {
			t.Fatalf("numbers %v, want %v", numbers, want)
		}
		got, err := f.GetIssue(ctx, alice, &gatewayv1.GetIssueRequest{Repo: "acme/gaps", IssueNumber: 1})
		if err != nil || !slices.Equal(got.GetLabels(), req.Labels) || !slices.Equal(got.GetAssignees(), req.Assignees) {
			t.Fatalf("read back %v, %v; want labels %v, assignees %v", got, err, req.Labels, req.Assignees)
		}
	})
}

// TestReadsKeepEveryCharacter: the one-statement reads carry text through
// JSON on the database side; what a forge user wrote comes back exactly,
// quotes, backslashes, control characters, line and paragraph separators,
// astral characters and all, in an issue, its comments, a pull request's
// reviews and their inline comments, and a listing.
func TestReadsKeepEveryCharacter(t *testing.T) {
	texts := []string{`"quoted" \back\slash\ \u0041 {"a":[1]}`, "tab\tnew\nline\r\x01\x1f\x7f", "\u2028\u2029 \U0001F600 é ﬀ", "</script>&amp;'", " x "}
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		for _, text := range texts {
			is, err := f.CreateIssue(ctx, alice, &gatewayv1.CreateIssueRequest{Repo: "acme/text", Title: text, Body: text, Labels: []string{text}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.CommentOnIssue(ctx, alice, &gatewayv1.CommentOnIssueRequest{Repo: "acme/text", IssueNumber: is.GetNumber(), Body: text}); err != nil {
				t.Fatal(err)
			}
			got, err := f.GetIssue(ctx, alice, &gatewayv1.GetIssueRequest{Repo: "acme/text", IssueNumber: is.GetNumber()})
			if err != nil {
				t.Fatal(err)
			}
			if got.GetTitle() != text || got.GetBody() != text || !slices.Equal(got.GetLabels(), []string{text}) ||
				len(got.GetComments()) != 1 || got.GetComments()[0].GetBody() != text {
				t.Errorf("issue read back %q %q %q %v, want %q throughout", got.GetTitle(), got.GetBody(), got.GetLabels(), got.GetComments(), text)
			}
		}
		list, err := f.ListIssues(ctx, alice, &gatewayv1.ListIssuesRequest{Repo: "acme/text"})
		if err != nil || len(list.GetIssues()) != len(texts) {
			t.Fatalf("listed %v, %v", list, err)
		}
		for i, is := range list.GetIssues() { // newest first
			if want := texts[len(texts)-1-i]; !slices.Equal(is.GetLabels(), []string{want}) {
				t.Errorf("listed #%d with labels %q, want %q", is.GetNumber(), is.GetLabels(), want)
			}
		}
		branch(t, f, "acme/text", "h")
		pr, err := f.CreatePullRequest(ctx, alice, &gatewayv1.CreatePullRequestRequest{Repo: "acme/text", Title: "pr", HeadRef: "h"})
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range texts {
			if _, err := f.SubmitReview(ctx, alice, &gatewayv1.SubmitReviewRequest{Repo: "acme/text", PullNumber: pr.GetNumber(),
				Verdict: gatewayv1.Verdict_VERDICT_COMMENT, Body: text,
				Comments: []*gatewayv1.ReviewCommentInput{{Path: text, Line: 3, Side: gatewayv1.Side_SIDE_LEFT, Body: text}}}); err != nil {
				t.Fatal(err)
			}
		}
		got, err := f.GetPullRequest(ctx, alice, &gatewayv1.GetPullRequestRequest{Repo: "acme/text", PullNumber: pr.GetNumber()})
		if err != nil || len(got.GetReviews()) != len(texts) {
			t.Fatalf("pull request read back %v, %v", got, err)
		}
		for i, r := range got.GetReviews() {
			c := r.GetComments()
			if r.GetBody() != texts[i] || r.GetVerdict() != "comment" || len(c) != 1 || c[0].GetPath() != texts[i] ||
				c[0].GetBody() != texts[i] || c[0].GetLine() != 3 || c[0].GetSide() != "LEFT" || c[0].GetAuthor() != r.GetAuthor() {
				t.Errorf("review %d read back %v, want %q throughout", i, r, texts[i])
			}
		}
	})
}
