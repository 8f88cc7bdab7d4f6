package local_test

import (
	"context"
	"slices"
	"testing"
	"time"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
	"google.golang.org/protobuf/types/known/timestamppb"
)

func update(t *testing.T, f *local.Forge, req *gatewayv1.UpdateIssueRequest) *forgev1.Issue {
	t.Helper()
	is, err := f.UpdateIssue(context.Background(), alice, req)
	if err != nil {
		t.Fatalf("update %v: %v", req, err)
	}
	return is
}

func ptrTo[T any](v T) *T { return &v }

// stamp is an RFC 3339 time as the decoder hands it to a provider.
func stamp(t *testing.T, rfc3339 string) *timestamppb.Timestamp {
	t.Helper()
	at, err := time.Parse(time.RFC3339, rfc3339)
	if err != nil {
		t.Fatal(err)
	}
	return timestamppb.New(at)
}

func TestUpdateIssue(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		clock := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
		f, _ := newForge(t, d, local.Options{Now: func() time.Time { return clock }})
		created, err := f.CreateIssue(ctx, alice, &gatewayv1.CreateIssueRequest{Repo: "acme/app", Title: "Crash", Body: "b",
			Labels: []string{"bug"}, Assignees: []string{"octocat", "OctoCat", "hubot"}, Milestone: ptrTo(uint64(3))})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(created.GetAssignees(), []string{"octocat", "hubot"}) || created.GetMilestone() != "3" ||
			created.GetCreatedAt() != "2026-03-04T05:06:07Z" || created.GetClosedAt() != "" {
			t.Fatalf("created %v", created)
		}

		clock = clock.Add(time.Hour)
		closed := update(t, f, &gatewayv1.UpdateIssueRequest{Repo: "acme/app", IssueNumber: 1, State: gatewayv1.IssueState_ISSUE_STATE_CLOSED,
			StateReason: gatewayv1.StateReason_STATE_REASON_NOT_PLANNED})
		if closed.GetState() != "closed" || closed.GetStateReason() != "not_planned" || closed.GetClosedAt() != "2026-03-04T06:06:07Z" ||
			closed.GetTitle() != "Crash" || !slices.Equal(closed.GetLabels(), []string{"bug"}) || closed.GetUpdatedAt() != closed.GetClosedAt() {
			t.Fatalf("closed %v", closed)
		}
		clock = clock.Add(time.Hour)
		reopened := update(t, f, &gatewayv1.UpdateIssueRequest{Repo: "acme/app", IssueNumber: 1, State: gatewayv1.IssueState_ISSUE_STATE_OPEN})
		if reopened.GetState() != "open" || reopened.GetStateReason() != "reopened" || reopened.GetClosedAt() != "" {
			t.Fatalf("reopened %v", reopened)
		}
		edited := update(t, f, &gatewayv1.UpdateIssueRequest{Repo: "acme/app", IssueNumber: 1, Title: ptrTo("Crash on start"),
			Body: ptrTo(""), Labels: []string{"p1", "ui"}, Assignees: []string{"alice"}})
		if edited.GetTitle() != "Crash on start" || edited.GetBody() != "" || !slices.Equal(edited.GetLabels(), []string{"p1", "ui"}) ||
			!slices.Equal(edited.GetAssignees(), []string{"alice"}) || edited.GetState() != "open" || edited.GetMilestone() != "3" {
			t.Fatalf("edited %v", edited)
		}
		if got, _ := f.GetIssue(ctx, alice, &gatewayv1.GetIssueRequest{Repo: "acme/app", IssueNumber: 1}); got.GetTitle() != "Crash on start" {
			t.Fatalf("read back %v", got)
		}

		branch(t, f, "acme/app", "feat")
		pr := createPull(t, f, "acme/app", "feat")
		for _, tc := range []struct {
			req  *gatewayv1.UpdateIssueRequest
			code gatewayv1.ErrorCode
			want string
		}{
			{&gatewayv1.UpdateIssueRequest{IssueNumber: 1}, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "give at least one field to change"},
			{&gatewayv1.UpdateIssueRequest{IssueNumber: 1, State: gatewayv1.IssueState_ISSUE_STATE_OPEN, StateReason: gatewayv1.StateReason_STATE_REASON_COMPLETED},
				gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "state_reason completed goes with state closed"},
			{&gatewayv1.UpdateIssueRequest{IssueNumber: 1, Title: ptrTo("x"), StateReason: gatewayv1.StateReason_STATE_REASON_REOPENED},
				gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "state_reason reopened goes with state open"},
			{&gatewayv1.UpdateIssueRequest{IssueNumber: 1, Title: ptrTo(" ")}, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "title is empty"},
			{&gatewayv1.UpdateIssueRequest{IssueNumber: 1, Labels: []string{""}}, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "labels"},
			{&gatewayv1.UpdateIssueRequest{IssueNumber: 99, Title: ptrTo("x")}, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "issue #99 not found"},
			{&gatewayv1.UpdateIssueRequest{IssueNumber: pr, Title: ptrTo("x")}, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "is a pull request"},
		} {
			tc.req.Repo = "acme/app"
			_, err := f.UpdateIssue(ctx, alice, tc.req)
			wantCode(t, err, tc.code, tc.want)
		}
	})
}

func TestListIssuesByAssigneeAndTime(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		clock := time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)
		f, _ := newForge(t, d, local.Options{Now: func() time.Time { return clock }})
		for i, who := range [][]string{{"octocat"}, {"hubot", "OctoCat"}, nil} {
			clock = clock.Add(time.Hour)
			if _, err := f.CreateIssue(ctx, alice, &gatewayv1.CreateIssueRequest{Repo: "acme/app", Title: "t", Assignees: who}); err != nil {
				t.Fatal(i, err)
			}
		}
		clock = clock.Add(time.Hour)
		update(t, f, &gatewayv1.UpdateIssueRequest{Repo: "acme/app", IssueNumber: 1, Body: ptrTo("touched at 09:00")})
		for _, tc := range []struct {
			name string
			req  *gatewayv1.ListIssuesRequest
			want []uint64
		}{
			{"assignee, any case", &gatewayv1.ListIssuesRequest{Assignee: "OCTOCAT"}, []uint64{2, 1}},
			{"assignee", &gatewayv1.ListIssuesRequest{Assignee: "hubot"}, []uint64{2}},
			{"since", &gatewayv1.ListIssuesRequest{Since: stamp(t, "2026-03-04T07:00:00Z")}, []uint64{3, 2, 1}},
			{"since, with an offset", &gatewayv1.ListIssuesRequest{Since: stamp(t, "2026-03-04T09:00:00+01:00")}, []uint64{3, 1}},
			{"since and assignee", &gatewayv1.ListIssuesRequest{Since: stamp(t, "2026-03-04T08:30:00Z"), Assignee: "octocat"}, []uint64{1}},
		} {
			tc.req.Repo = "acme/app"
			list, err := f.ListIssues(ctx, alice, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if got := numbers(list); !slices.Equal(got, tc.want) {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			}
		}
	})
}
