package local_test

import (
	"context"
	"slices"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/handler"
	"github.com/forgetools/forgetools/providers/local"
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
		keyed := handler.Call{Account: "alice", ClientRequestID: "k:1"}
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
		pkeyed := handler.Call{Account: "alice", ClientRequestID: "k:2"}
		for range 2 {
			p, err := f.CreatePullRequest(ctx, pkeyed, pr)
			if err != nil {
				t.Fatal(err)
			}
			numbers = append(numbers, p.GetNumber())
		}
		// Open already: refused, after its number was taken.
		_, err := f.CreatePullRequest(ctx, handler.Call{Account: "alice", ClientRequestID: "k:3"}, pr)
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
