package local_test

import (
	"context"
	"fmt"
	"testing"

	"google.golang.org/protobuf/proto"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/toolserver"
)

// review submits a comment review of pull request n with one inline comment
// per line given, on path: one thread per line.
func review(t *testing.T, f *local.Forge, repo string, n uint64, path string, lines ...uint64) {
	t.Helper()
	var cs []*gatewayv1.ReviewCommentInput
	for _, l := range lines {
		cs = append(cs, &gatewayv1.ReviewCommentInput{Path: path, Line: l, Body: fmt.Sprintf("line %d?", l)})
	}
	if _, err := f.SubmitReview(context.Background(), alice, &gatewayv1.SubmitReviewRequest{
		Repo: repo, PullNumber: n, Verdict: gatewayv1.Verdict_VERDICT_COMMENT, Body: "see inline", Comments: cs,
	}); err != nil {
		t.Fatal(err)
	}
}

func listThreads(t *testing.T, f *local.Forge, repo string, n uint64, cursor string) *forgev1.ReviewThreadList {
	t.Helper()
	out, err := f.ListReviewThreads(context.Background(), alice, &gatewayv1.ListReviewThreadsRequest{Repo: repo, PullNumber: n, Cursor: cursor})
	if err != nil {
		t.Fatalf("list threads of %s#%d at %q: %v", repo, n, cursor, err)
	}
	return out
}

// TestReviewThreads: a review's inline comments are threads; a reply lands
// in its thread, stamped by nobody here (the gateway stamps), a resolve
// and an unresolve show in the list, and the pull request's read names
// each comment's thread.
func TestReviewThreads(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, db := newForge(t, d, local.Options{})
		repo := "acme/app"
		n := createPull(t, f, repo, "fix")
		review(t, f, repo, n, "main.go", 3, 7)

		got := listThreads(t, f, repo, n, "")
		if len(got.GetThreads()) != 2 || got.GetNextCursor() != "" || got.GetNumber() != n || got.GetRepo() != repo {
			t.Fatalf("threads = %v, want two on one page", got)
		}
		first := got.GetThreads()[0]
		want := &forgev1.ReviewThread{ThreadId: first.GetThreadId(), Path: "main.go", Line: 3, Side: "RIGHT",
			Comments: []*forgev1.Comment{{Author: "alice", Body: "line 3?", Url: testBase + "/acme/app/pull/1#discussion_r" + first.GetThreadId()}}}
		if !proto.Equal(first, want) {
			t.Fatalf("first thread = %v\nwant %v", first, want)
		}

		bob := toolserver.Call{Account: "bob"}
		reply, err := f.ReplyToReviewThread(ctx, bob, &gatewayv1.ReplyToReviewThreadRequest{Repo: repo, PullNumber: n, ThreadId: first.GetThreadId(), Body: "fixed"})
		if err != nil {
			t.Fatal(err)
		}
		if reply.GetCommentId() == "" || reply.GetUrl() != testBase+"/acme/app/pull/1#discussion_r"+reply.GetCommentId() || reply.GetNumber() != n {
			t.Fatalf("reply ref = %v", reply)
		}
		res, err := f.ResolveReviewThread(ctx, bob, &gatewayv1.ResolveReviewThreadRequest{Repo: repo, PullNumber: n, ThreadId: first.GetThreadId()})
		if err != nil || res.GetState() != "resolved" || res.GetThreadId() != first.GetThreadId() {
			t.Fatalf("resolve = %v, %v", res, err)
		}
		got = listThreads(t, f, repo, n, "")
		want.Resolved = true
		want.Comments = append(want.Comments, &forgev1.Comment{Author: "bob", Body: "fixed", Url: reply.GetUrl()})
		if !proto.Equal(got.GetThreads()[0], want) || got.GetThreads()[1].GetResolved() || len(got.GetThreads()[1].GetComments()) != 1 {
			t.Fatalf("after reply and resolve = %v\nwant first %v", got, want)
		}
		if res, err := f.ResolveReviewThread(ctx, bob, &gatewayv1.ResolveReviewThreadRequest{Repo: repo, PullNumber: n, ThreadId: first.GetThreadId(), Unresolve: true}); err != nil || res.GetState() != "unresolved" {
			t.Fatalf("unresolve = %v, %v", res, err)
		}
		if listThreads(t, f, repo, n, "").GetThreads()[0].GetResolved() {
			t.Fatal("unresolved thread still reads resolved")
		}

		pr, err := f.GetPullRequest(ctx, alice, &gatewayv1.GetPullRequestRequest{Repo: repo, PullNumber: n})
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range pr.GetReviews()[0].GetComments() {
			if c.GetThreadId() != got.GetThreads()[i].GetThreadId() {
				t.Errorf("review comment %d names thread %q, want %q", i, c.GetThreadId(), got.GetThreads()[i].GetThreadId())
			}
		}
		var replies int
		if err := db.QueryRow("SELECT count(*) FROM local_thread_replies").Scan(&replies); err != nil || replies != 1 {
			t.Fatalf("%d replies stored (%v), want 1", replies, err)
		}
	})
}

// TestReviewThreadScope: a thread is addressed through its pull request: a
// thread id of another pull request, or of another repository, is not
// found there and nothing is written; a thread id or cursor the forge did
// not give is refused as invalid.
func TestReviewThreadScope(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, db := newForge(t, d, local.Options{})
		mine, other := "acme/app", "evil/app"
		n := createPull(t, f, mine, "fix")
		m := createPull(t, f, mine, "other")
		o := createPull(t, f, other, "fix")
		review(t, f, mine, m, "a.go", 1)
		review(t, f, other, o, "a.go", 1)
		review(t, f, mine, n, "a.go", 2)
		foreign := listThreads(t, f, other, o, "").GetThreads()[0].GetThreadId()
		sibling := listThreads(t, f, mine, m, "").GetThreads()[0].GetThreadId()
		for _, id := range []string{foreign, sibling, "999999"} {
			_, err := f.ReplyToReviewThread(ctx, alice, &gatewayv1.ReplyToReviewThreadRequest{Repo: mine, PullNumber: n, ThreadId: id, Body: "hijack"})
			wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "review thread "+id+" not found on pull request #1 in acme/app")
			_, err = f.ResolveReviewThread(ctx, alice, &gatewayv1.ResolveReviewThreadRequest{Repo: mine, PullNumber: n, ThreadId: id})
			wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "review thread "+id+" not found")
		}
		for _, id := range []string{"", "0", "01", "-1", "+1", "1 OR 1=1", "1;DROP TABLE local_thread_replies", "99999999999999999999", "PRRT_kwDO"} {
			_, err := f.ReplyToReviewThread(ctx, alice, &gatewayv1.ReplyToReviewThreadRequest{Repo: mine, PullNumber: n, ThreadId: id, Body: "x"})
			wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "is not a thread id of the local forge")
			_, err = f.ResolveReviewThread(ctx, alice, &gatewayv1.ResolveReviewThreadRequest{Repo: mine, PullNumber: n, ThreadId: id})
			wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "is not a thread id of the local forge")
		}
		for _, c := range []string{"1", "thread:", "thread:0", "thread:01", "entry:30", "thread:1 "} {
			_, err := f.ListReviewThreads(ctx, alice, &gatewayv1.ListReviewThreadsRequest{Repo: mine, PullNumber: n, Cursor: c})
			wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "is not a next_cursor forge_list_review_threads gave")
		}
		_, err := f.ListReviewThreads(ctx, alice, &gatewayv1.ListReviewThreadsRequest{Repo: mine, PullNumber: 99})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "pull request #99 not found")

		var replies, resolved int
		if err := db.QueryRow("SELECT count(*) FROM local_thread_replies").Scan(&replies); err != nil || replies != 0 {
			t.Errorf("%d replies stored (%v), want 0", replies, err)
		}
		if err := db.QueryRow("SELECT count(*) FROM local_review_comments WHERE resolved = TRUE").Scan(&resolved); err != nil || resolved != 0 {
			t.Errorf("%d threads resolved (%v), want 0", resolved, err)
		}
	})
}

// TestReviewThreadPages: 65 threads over several reviews read in three
// pages with no gap or repeat, threads of another pull request never
// among them; a long thread shows its first comments only.
func TestReviewThreadPages(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		repo := "acme/app"
		n := createPull(t, f, repo, "fix")
		m := createPull(t, f, repo, "other")
		var lines []uint64
		for l := uint64(1); l <= 65; l++ {
			lines = append(lines, l)
		}
		review(t, f, repo, n, "a.go", lines[:40]...)
		review(t, f, repo, m, "a.go", 1, 2, 3) // interleaved ids of another pull request
		review(t, f, repo, n, "a.go", lines[40:]...)

		var seen []uint64
		cursor, pages := "", 0
		for {
			page := listThreads(t, f, repo, n, cursor)
			pages++
			for _, th := range page.GetThreads() {
				seen = append(seen, th.GetLine())
			}
			if cursor = page.GetNextCursor(); cursor == "" || pages > 5 {
				break
			}
		}
		if pages != 3 || fmt.Sprint(seen) != fmt.Sprint(lines) {
			t.Fatalf("%d pages read lines %v, want 3 pages of lines 1..65 in order", pages, seen)
		}

		first := listThreads(t, f, repo, n, "").GetThreads()[0].GetThreadId()
		for i := range 60 {
			if _, err := f.ReplyToReviewThread(ctx, alice, &gatewayv1.ReplyToReviewThreadRequest{Repo: repo, PullNumber: n, ThreadId: first, Body: fmt.Sprint("reply ", i)}); err != nil {
				t.Fatal(err)
			}
		}
		th := listThreads(t, f, repo, n, "").GetThreads()[0]
		if len(th.GetComments()) != 50 || th.GetComments()[1].GetBody() != "reply 0" || th.GetComments()[49].GetBody() != "reply 48" {
			t.Fatalf("a thread of 61 comments shows %d, want the opening one and the first 49 replies", len(th.GetComments()))
		}
	})
}
