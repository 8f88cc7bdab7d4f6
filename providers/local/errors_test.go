package local_test

import (
	"context"
	"math"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
)

const (
	notFound     = gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND
	invalid      = gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT
	exists       = gatewayv1.ErrorCode_ERROR_CODE_ALREADY_EXISTS
	precondition = gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION
)

func TestErrors(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, db := newForge(t, d, local.Options{})
		const repo = "acme/app"
		createIssue(t, f, repo, "issue")        // #1
		createPull(t, f, repo, "feat")          // #2, open
		closed := createPull(t, f, repo, "old") // #3
		if err := f.SetState(ctx, repo, closed, "closed"); err != nil {
			t.Fatal(err)
		}
		merged := createPull(t, f, repo, "done") // #4
		if err := f.SetState(ctx, repo, merged, "merged"); err != nil {
			t.Fatal(err)
		}
		approve := gatewayv1.Verdict_VERDICT_APPROVE
		issueKind := gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_ISSUE
		pullKind := gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_PULL_REQUEST

		cases := []struct {
			name      string
			call      func() error
			code      gatewayv1.ErrorCode
			fragments []string
		}{
			{"get missing issue", func() error {
				_, err := f.GetIssue(ctx, alice, &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: 7})
				return err
			}, notFound, []string{"issue #7 not found in acme/app"}},
			{"get issue in unknown repo", func() error {
				_, err := f.GetIssue(ctx, alice, &gatewayv1.GetIssueRequest{Repo: "acme/none", IssueNumber: 1})
				return err
			}, notFound, []string{"issue #1 not found in acme/none"}},
			{"get issue past int64", func() error {
				_, err := f.GetIssue(ctx, alice, &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: math.MaxUint64})
				return err
			}, notFound, []string{"issue #18446744073709551615 not found"}},
			{"get a pull request as an issue", func() error {
				_, err := f.GetIssue(ctx, alice, &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: 2})
				return err
			}, notFound, []string{"issue #2 not found in acme/app", "#2 is a pull request"}},
			{"get missing pull request", func() error {
				_, err := f.GetPullRequest(ctx, alice, &gatewayv1.GetPullRequestRequest{Repo: repo, PullNumber: 9})
				return err
			}, notFound, []string{"pull request #9 not found in acme/app"}},
			{"get an issue as a pull request", func() error {
				_, err := f.GetPullRequest(ctx, alice, &gatewayv1.GetPullRequestRequest{Repo: repo, PullNumber: 1})
				return err
			}, notFound, []string{"pull request #1 not found in acme/app", "#1 is an issue"}},
			{"comment on missing issue", func() error {
				_, err := f.CommentOnIssue(ctx, alice, &gatewayv1.CommentOnIssueRequest{Repo: repo, IssueNumber: 8, Body: "x"})
				return err
			}, notFound, []string{"issue #8 not found in acme/app"}},
			{"comment on a pull request as an issue", func() error {
				_, err := f.CommentOnIssue(ctx, alice, &gatewayv1.CommentOnIssueRequest{Repo: repo, IssueNumber: 2, Body: "x"})
				return err
			}, notFound, []string{"#2 is a pull request"}},
			{"comment on an issue as a pull request", func() error {
				_, err := f.CommentOnPullRequest(ctx, alice, &gatewayv1.CommentOnPullRequestRequest{Repo: repo, PullNumber: 1, Body: "x"})
				return err
			}, notFound, []string{"pull request #1 not found", "#1 is an issue"}},
			{"blank comment", func() error {
				_, err := f.CommentOnIssue(ctx, alice, &gatewayv1.CommentOnIssueRequest{Repo: repo, IssueNumber: 1, Body: " \n"})
				return err
			}, invalid, []string{"comment body is empty"}},
			{"review an issue", func() error {
				_, err := f.SubmitReview(ctx, alice, &gatewayv1.SubmitReviewRequest{Repo: repo, PullNumber: 1, Verdict: approve})
				return err
			}, notFound, []string{"#1 is an issue"}},
			{"review a missing pull request", func() error {
				_, err := f.SubmitReview(ctx, alice, &gatewayv1.SubmitReviewRequest{Repo: repo, PullNumber: 40, Verdict: approve})
				return err
			}, notFound, []string{"pull request #40 not found in acme/app"}},
			{"review a closed pull request", func() error {
				_, err := f.SubmitReview(ctx, alice, &gatewayv1.SubmitReviewRequest{Repo: repo, PullNumber: closed, Verdict: approve})
				return err
			}, precondition, []string{"pull request #3 in acme/app is closed"}},
			{"review a merged pull request", func() error {
				_, err := f.SubmitReview(ctx, alice, &gatewayv1.SubmitReviewRequest{Repo: repo, PullNumber: merged, Verdict: approve})
				return err
			}, precondition, []string{"is merged"}},
			{"review without a verdict", func() error {
				_, err := f.SubmitReview(ctx, alice, &gatewayv1.SubmitReviewRequest{Repo: repo, PullNumber: 2, Body: "x"})
				return err
			}, invalid, []string{"verdict must be"}},
			{"request changes without a body", func() error {
				_, err := f.SubmitReview(ctx, alice, &gatewayv1.SubmitReviewRequest{Repo: repo, PullNumber: 2,
					Verdict: gatewayv1.Verdict_VERDICT_REQUEST_CHANGES, Body: "  "})
				return err
			}, invalid, []string{"body is required unless verdict is approve"}},
			{"inline comment without a line", func() error {
				_, err := f.SubmitReview(ctx, alice, &gatewayv1.SubmitReviewRequest{Repo: repo, PullNumber: 2, Verdict: approve,
					Comments: []*gatewayv1.ReviewCommentInput{{Path: "a.go", Line: 1, Body: "ok"}, {Path: "b.go", Body: "x"}}})
				return err
			}, invalid, []string{"comments[1]"}},
			{"head equals the default base", func() error {
				_, err := f.CreatePullRequest(ctx, alice, &gatewayv1.CreatePullRequestRequest{Repo: repo, Title: "t", HeadRef: "main"})
				return err
			}, invalid, []string{`head_ref and base_ref are both "main"`}},
			{"head equals an explicit base", func() error {
				_, err := f.CreatePullRequest(ctx, alice, &gatewayv1.CreatePullRequestRequest{Repo: repo, Title: "t",
					HeadRef: "dev", BaseRef: "dev"})
				return err
			}, invalid, []string{`both "dev"`}},
			{"second open pull request for head and base", func() error {
				_, err := f.CreatePullRequest(ctx, alice, &gatewayv1.CreatePullRequestRequest{Repo: repo, Title: "again",
					HeadRef: "feat", BaseRef: "main"})
				return err
			}, exists, []string{`from "feat" into "main" is already open in acme/app: #2`}},
			{"malformed head", func() error {
				_, err := f.CreatePullRequest(ctx, alice, &gatewayv1.CreatePullRequestRequest{Repo: repo, Title: "t", HeadRef: "a..b"})
				return err
			}, invalid, []string{`head_ref "a..b" is not a valid branch name`, `".."`}},
			{"malformed base", func() error {
				_, err := f.CreatePullRequest(ctx, alice, &gatewayv1.CreatePullRequestRequest{Repo: repo, Title: "t",
					HeadRef: "x", BaseRef: "has space"})
				return err
			}, invalid, []string{`base_ref "has space"`}},
			{"blank title", func() error {
				_, err := f.CreateIssue(ctx, alice, &gatewayv1.CreateIssueRequest{Repo: repo, Title: "\t"})
				return err
			}, invalid, []string{"title is empty"}},
			{"repo with a space", func() error {
				_, err := f.CreateIssue(ctx, alice, &gatewayv1.CreateIssueRequest{Repo: "acme app", Title: "t"})
				return err
			}, invalid, []string{`repo "acme app" is not a repository`}},
			{"repo with three parts", func() error {
				_, err := f.ListIssues(ctx, alice, &gatewayv1.ListIssuesRequest{Repo: "a/b/c"})
				return err
			}, invalid, []string{`"a/b/c"`}},
			{"repo with a dot-dot owner", func() error {
				_, err := f.GetPullRequest(ctx, alice, &gatewayv1.GetPullRequestRequest{Repo: "../app", PullNumber: 1})
				return err
			}, invalid, []string{`"../app"`}},
			{"watch a missing issue", func() error {
				return f.Watch(ctx, alice, &gatewayv1.SubscribeRequest{Repo: repo, Kind: issueKind, Number: 5})
			}, notFound, []string{"issue #5 not found in acme/app"}},
			{"watch a pull request as an issue", func() error {
				return f.Watch(ctx, alice, &gatewayv1.SubscribeRequest{Repo: repo, Kind: issueKind, Number: 2})
			}, notFound, []string{"#2 is a pull request"}},
			{"watch an issue as a pull request", func() error {
				return f.Watch(ctx, alice, &gatewayv1.SubscribeRequest{Repo: repo, Kind: pullKind, Number: 1})
			}, notFound, []string{"#1 is an issue"}},
			{"watch without a kind", func() error {
				return f.Watch(ctx, alice, &gatewayv1.SubscribeRequest{Repo: repo, Number: 1})
			}, invalid, []string{"kind must be issue or pull_request"}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) { wantCode(t, tc.call(), tc.code, tc.fragments...) })
		}

		// Refused writes change nothing: no comment, review or artifact was
		// stored, and no number was used up.
		for _, table := range []string{"local_comments", "local_reviews", "local_review_comments"} {
			var n int
			if err := db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil || n != 0 {
				t.Errorf("%s holds %d rows (err %v), want 0", table, n, err)
			}
		}
		if next := createIssue(t, f, repo, "next"); next != 5 {
			t.Errorf("next number = %d, want 5", next)
		}

		// Watch accepts what exists, whatever its state.
		for _, w := range []*gatewayv1.SubscribeRequest{
			{Repo: repo, Kind: issueKind, Number: 1},
			{Repo: repo, Kind: pullKind, Number: 2},
			{Repo: repo, Kind: pullKind, Number: closed},
		} {
			if err := f.Watch(ctx, alice, w); err != nil {
				t.Errorf("watch %v: %v", w, err)
			}
		}
	})
}
