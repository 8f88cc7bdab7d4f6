package local_test

import (
	"context"
	"fmt"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
)

func ptrU32(n uint32) *uint32 { return &n }

// TestListIssuesPages pages through more issues than a page holds, with an
// issue created and one closed between pages: keyset paging shows every
// issue open at the start exactly once, none twice, and the new one
// (newer than the first page) not at all.
func TestListIssuesPages(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		for i := range 25 {
			createIssue(t, f, "acme/app", fmt.Sprintf("issue %d", i+1))
		}
		createPull(t, f, "acme/app", "feature") // #26, never listed as an issue
		seen := map[uint64]int{}
		req := &gatewayv1.ListIssuesRequest{Repo: "acme/app", Limit: ptrU32(10)}
		var pages int
		for {
			list, err := f.ListIssues(ctx, alice, req)
			if err != nil {
				t.Fatal(err)
			}
			pages++
			for _, is := range list.GetIssues() {
				seen[is.GetNumber()]++
			}
			if pages == 1 {
				createIssue(t, f, "acme/app", "late")
				if _, err := f.UpdateIssue(ctx, alice, &gatewayv1.UpdateIssueRequest{Repo: "acme/app", IssueNumber: 3,
					State: gatewayv1.IssueState_ISSUE_STATE_CLOSED}); err != nil {
					t.Fatal(err)
				}
			}
			if list.GetNextCursor() == "" {
				break
			}
			req.Cursor = list.GetNextCursor()
			req.Limit = ptrU32(7) // the page size may change between pages
		}
		// 10, 7 and the last 7 of 24 (issue 3 closed): a page that ends
		// the list says so, with no empty page after it.
		if pages != 3 {
			t.Errorf("read %d pages, want 3", pages)
		}
		for n := uint64(1); n <= 25; n++ {
			if want := map[bool]int{true: 0, false: 1}[n == 3]; seen[n] != want {
				t.Errorf("issue #%d shown %d times, want %d", n, seen[n], want)
			}
		}
		if len(seen) != 24 {
			t.Errorf("shown %v, want issues 1..25 but 3", seen)
		}
	})
}

// TestListCommentsPages pages an issue's conversation oldest first with no
// gap or repeat, and refuses a number of the other kind or none.
func TestListCommentsPages(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		n := createIssue(t, f, "acme/app", "talk")
		for i := range 45 {
			if _, err := f.CommentOnIssue(ctx, alice, &gatewayv1.CommentOnIssueRequest{Repo: "acme/app", IssueNumber: n, Body: fmt.Sprintf("c%d", i)}); err != nil {
				t.Fatal(err)
			}
		}
		req := &gatewayv1.ListCommentsRequest{Repo: "acme/app", Kind: gatewayv1.CommentsOf_COMMENTS_OF_ISSUE, Number: n, Limit: ptrU32(20)}
		var bodies []string
		for range 5 {
			list, err := f.ListComments(ctx, alice, req)
			if err != nil {
				t.Fatal(err)
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
			if b != fmt.Sprintf("c%d", i) {
				t.Fatalf("comment %d is %q, want c%d (oldest first, no gap or repeat)", i, b, i)
			}
		}
		empty, err := f.ListComments(ctx, alice, &gatewayv1.ListCommentsRequest{Repo: "acme/app",
			Kind: gatewayv1.CommentsOf_COMMENTS_OF_ISSUE, Number: createIssue(t, f, "acme/app", "quiet")})
		if err != nil || len(empty.GetComments()) != 0 || empty.GetNextCursor() != "" {
			t.Errorf("an issue without comments: %v, %v; want an empty last page", empty, err)
		}
		pr := createPull(t, f, "acme/app", "feature")
		_, err = f.ListComments(ctx, alice, &gatewayv1.ListCommentsRequest{Repo: "acme/app", Kind: gatewayv1.CommentsOf_COMMENTS_OF_ISSUE, Number: pr})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "is a pull request")
		_, err = f.ListComments(ctx, alice, &gatewayv1.ListCommentsRequest{Repo: "acme/app", Kind: gatewayv1.CommentsOf_COMMENTS_OF_PULL_REQUEST, Number: 999})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "pull request #999")
	})
}

// TestListCursorsRefused: a cursor is untrusted. One another list gave,
// one given for other filters, and made-up ones are refused as
// invalid_argument, never read as a position.
func TestListCursorsRefused(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		for i := range 3 {
			createIssue(t, f, "acme/app", fmt.Sprintf("issue %d", i), "bug")
		}
		first, err := f.ListIssues(ctx, alice, &gatewayv1.ListIssuesRequest{Repo: "acme/app", Limit: ptrU32(1)})
		if err != nil || first.GetNextCursor() == "" {
			t.Fatalf("first page: %v, %v; want a next_cursor", first, err)
		}
		cur := first.GetNextCursor()
		_, err = f.ListIssues(ctx, alice, &gatewayv1.ListIssuesRequest{Repo: "acme/app", Labels: []string{"bug"}, Cursor: cur})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "for these arguments")
		_, err = f.ListIssues(ctx, alice, &gatewayv1.ListIssuesRequest{Repo: "acme/other", Cursor: cur})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "for these arguments")
		_, err = f.ListPullRequests(ctx, alice, &gatewayv1.ListPullRequestsRequest{Repo: "acme/app", Cursor: cur})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "forge_list_pull_requests")
		query := cur[:len(cur)-1]
		for _, bad := range []string{"entry:3", "3", query + "0", query + "-1", query + "03", query + "1x", query + "9223372036854775808", cur + ".1", "'; DROP TABLE local_items; --"} {
			_, err = f.ListIssues(ctx, alice, &gatewayv1.ListIssuesRequest{Repo: "acme/app", Limit: ptrU32(1), Cursor: bad})
			wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "cursor")
		}
		// The same arguments with the cursor read the next page.
		next, err := f.ListIssues(ctx, alice, &gatewayv1.ListIssuesRequest{Repo: "acme/app", Limit: ptrU32(1), Cursor: cur})
		if err != nil || len(next.GetIssues()) != 1 || next.GetIssues()[0].GetNumber() != 2 {
			t.Fatalf("second page: %v, %v; want issue #2", next, err)
		}
	})
}

// TestListPullRequestsAndRunsPage: pull requests page by number and CI
// runs by id, newest first, each shown once.
func TestListPullRequestsAndRunsPage(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{CI: local.CI{Command: "true"}})
		var pulls []uint64
		for i := range 5 {
			pulls = append(pulls, createPull(t, f, "acme/app", fmt.Sprintf("b%d", i)))
		}
		var runs []string
		for range 5 {
			tr, err := f.TriggerCi(ctx, alice, &gatewayv1.TriggerCIRequest{Repo: "acme/app", Workflow: "ci", Ref: "main"})
			if err != nil {
				t.Fatal(err)
			}
			runs = append(runs, tr.GetRunId())
		}
		var gotPulls []uint64
		preq := &gatewayv1.ListPullRequestsRequest{Repo: "acme/app", Limit: ptrU32(2)}
		for range 5 {
			list, err := f.ListPullRequests(ctx, alice, preq)
			if err != nil {
				t.Fatal(err)
			}
			for _, pr := range list.GetPullRequests() {
				gotPulls = append(gotPulls, pr.GetNumber())
			}
			if preq.Cursor = list.GetNextCursor(); preq.Cursor == "" {
				break
			}
		}
		if fmt.Sprint(gotPulls) != fmt.Sprint([]uint64{pulls[4], pulls[3], pulls[2], pulls[1], pulls[0]}) {
			t.Errorf("pull requests %v, want %v newest first", gotPulls, pulls)
		}
		var gotRuns []string
		rreq := &gatewayv1.ListCIRunsRequest{Repo: "acme/app", Limit: ptrU32(3)}
		for range 5 {
			list, err := f.ListCiRuns(ctx, alice, rreq)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range list.GetRuns() {
				gotRuns = append(gotRuns, r.GetRunId())
			}
			if rreq.Cursor = list.GetNextCursor(); rreq.Cursor == "" {
				break
			}
		}
		if fmt.Sprint(gotRuns) != fmt.Sprint([]string{runs[4], runs[3], runs[2], runs[1], runs[0]}) {
			t.Errorf("runs %v, want %v newest first", gotRuns, runs)
		}
	})
}
