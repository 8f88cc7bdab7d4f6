package local_test

import (
	"context"
	"testing"

	"google.golang.org/protobuf/proto"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/toolserver"
)

// TestKeyedCreatesInTheGatewaysTx: keyed creates inside a transaction the
// gateway carries (as its committer runs them; on PostgreSQL an issue is
// then one statement): a repeat of a committed key returns what it made
// and takes no number, so the next create gets the next one; a key reused
// for a pull request is refused; a create whose transaction rolls back
// leaves its number to the next.
func TestKeyedCreatesInTheGatewaysTx(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, db := newForge(t, d, local.Options{})
		inTx := func(commit bool, fn func(ctx context.Context) error) error {
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			err = fn(toolserver.WithTx(ctx, db, tx))
			if err != nil || !commit {
				_ = tx.Rollback()
				return err
			}
			return tx.Commit()
		}
		create := func(commit bool, c toolserver.Call, title string) (is *issueResult) {
			is = &issueResult{}
			is.err = inTx(commit, func(ctx context.Context) (err error) {
				is.issue, err = f.CreateIssue(ctx, c, &gatewayv1.CreateIssueRequest{Repo: "acme/app", Title: title, Labels: []string{"bug", "ui"}, Assignees: []string{"Bob"}})
				return err
			})
			return is
		}
		keyed := toolserver.Call{Account: "alice", ClientRequestID: "tx:1"}
		if r := create(false, keyed, "rolled back"); r.err != nil || r.issue.GetNumber() != 1 {
			t.Fatalf("create rolled back = %v, %v; want #1", r.issue, r.err)
		}
		first := create(true, keyed, "once")
		if first.err != nil || first.issue.GetNumber() != 1 || len(first.issue.GetLabels()) != 2 || len(first.issue.GetAssignees()) != 1 {
			t.Fatalf("first create = %v, %v; want #1 with its lists (the rolled-back one left no gap)", first.issue, first.err)
		}
		again := create(true, keyed, "once")
		if again.err != nil || !proto.Equal(again.issue, first.issue) {
			t.Fatalf("repeated create = %v, %v; want %v", again.issue, again.err, first.issue)
		}
		if next := create(true, toolserver.Call{Account: "alice", ClientRequestID: "tx:2"}, "next"); next.err != nil || next.issue.GetNumber() != 2 {
			t.Fatalf("next create = %v, %v; want #2 (the repeat took no number)", next.issue, next.err)
		}
		if unkeyed := create(true, toolserver.Call{Account: "alice"}, "unkeyed"); unkeyed.err != nil || unkeyed.issue.GetNumber() != 3 {
			t.Fatalf("create without a key = %v, %v; want #3", unkeyed.issue, unkeyed.err)
		}
		branch(t, f, "acme/app", "h")
		err := inTx(true, func(ctx context.Context) error {
			_, err := f.CreatePullRequest(ctx, keyed, &gatewayv1.CreatePullRequestRequest{Repo: "acme/app", Title: "pr", HeadRef: "h"})
			return err
		})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, `client_request_id "tx:1" already made #1`)
		var items, last int
		if err := db.QueryRow("SELECT count(*) FROM local_items").Scan(&items); err != nil || items != 3 {
			t.Fatalf("%d items (%v), want 3", items, err)
		}
		if err := db.QueryRow("SELECT last_number FROM local_repos").Scan(&last); err != nil || last != 3 {
			t.Fatalf("last number %d (%v), want 3", last, err)
		}
	})
}

// issueResult is a create's answer.
type issueResult struct {
	issue *forgev1.Issue
	err   error
}
