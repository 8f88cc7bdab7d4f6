package local_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/toolserver"
)

func TestIssueCreateGetComment(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		// The gateway stamps attribution; the forge stores bodies verbatim.
		body := "<!-- forgetools: agent=bot owner=alice session=s-1 -->\nCrash on start ✨\n\n```\ntrace\n```"
		created, err := f.CreateIssue(ctx, alice, &gatewayv1.CreateIssueRequest{
			Repo: "acme/app", Title: "Crash", Body: body, Labels: []string{"bug", "ui", "Bug"},
		})
		if err != nil {
			t.Fatal(err)
		}
		want := &forgev1.Issue{
			Forge:  &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_LOCAL, Host: "local"},
			Repo:   "acme/app",
			Number: 1,
			State:  "open",
			Url:    testBase + "/acme/app/issues/1",
			Labels: []string{"bug", "ui"},
			Author: "alice",
			Title:  "Crash",
			Body:   body,
			// The test clock ticks a second per reading.
			CreatedAt: "2026-01-02T03:04:07Z",
			UpdatedAt: "2026-01-02T03:04:07Z",
		}
		if !proto.Equal(created, want) {
			t.Fatalf("created = %v\nwant %v", created, want)
		}

		c1, err := f.CommentOnIssue(ctx, alice, &gatewayv1.CommentOnIssueRequest{Repo: "acme/app", IssueNumber: 1, Body: "first"})
		if err != nil {
			t.Fatal(err)
		}
		c2, err := f.CommentOnIssue(ctx, toolserver.Call{}, &gatewayv1.CommentOnIssueRequest{Repo: "acme/app", IssueNumber: 1, Body: "second"})
		if err != nil {
			t.Fatal(err)
		}
		if c1.GetCommentId() == "" || c1.GetCommentId() == c2.GetCommentId() {
			t.Fatalf("comment ids %q and %q: want two distinct ids", c1.GetCommentId(), c2.GetCommentId())
		}
		wantRef := &forgev1.CommentRef{Forge: want.Forge, Repo: "acme/app", Number: 1, CommentId: c1.GetCommentId(),
			Url: testBase + "/acme/app/issues/1#issuecomment-" + c1.GetCommentId()}
		if !proto.Equal(c1, wantRef) {
			t.Fatalf("comment ref = %v\nwant %v", c1, wantRef)
		}

		got, err := f.GetIssue(ctx, alice, &gatewayv1.GetIssueRequest{Repo: "acme/app", IssueNumber: 1})
		if err != nil {
			t.Fatal(err)
		}
		want.Comments = []*forgev1.Comment{
			{Author: "alice", Url: c1.GetUrl(), Body: "first"},
			// A call that names no account is recorded as "agent".
			{Author: "agent", Url: c2.GetUrl(), Body: "second"},
		}
		// A comment updates the issue, as on GitHub.
		if got.GetUpdatedAt() <= want.GetCreatedAt() {
			t.Errorf("updated_at %s is not after created_at %s", got.GetUpdatedAt(), want.GetCreatedAt())
		}
		want.UpdatedAt = got.GetUpdatedAt()
		if !proto.Equal(got, want) {
			t.Fatalf("get = %v\nwant %v", got, want)
		}
	})
}

// A repo without a slash is refused naming the shape, as on GitHub; the
// configured host is the one results carry.
func TestBareRepoRefused(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		f, _ := newForge(t, d, local.Options{Host: "sandbox.example:8080"})
		_, err := f.CreateIssue(context.Background(), alice, &gatewayv1.CreateIssueRequest{Repo: "ENG", Title: "Linear-style"})
		pe, ok := toolserver.AsError(err)
		if !ok || pe.Code != optionsv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT || !strings.Contains(pe.Message, `repo "ENG" is not a repository: want "owner/name"`) {
			t.Fatalf("bare repo: err = %v, want invalid_argument naming owner/name", err)
		}
		is, err := f.CreateIssue(context.Background(), alice, &gatewayv1.CreateIssueRequest{Repo: "eng/app", Title: "fine"})
		if err != nil {
			t.Fatal(err)
		}
		if is.GetIdentifier() != "" || is.GetForge().GetHost() != "sandbox.example:8080" || !proto.Equal(f.Ref(), is.GetForge()) {
			t.Fatalf("identifier %q forge = %v, Ref = %v: want no identifier and the configured host on both", is.GetIdentifier(), is.GetForge(), f.Ref())
		}
	})
}

func TestListIssues(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		repo := "acme/app"
		createIssue(t, f, repo, "one", "bug")               // 1
		createIssue(t, f, repo, "two", "Bug", "ui")         // 2
		createPull(t, f, repo, "feature")                   // 3: never listed
		createIssue(t, f, repo, "four", "bug", "ui", "p1")  // 4
		createIssue(t, f, repo, "five")                     // 5
		createIssue(t, f, repo, "six", "ui")                // 6
		createIssue(t, f, "acme/other", "elsewhere", "bug") // another repository's 1
		for _, n := range []uint64{2, 5} {
			if err := f.SetState(ctx, repo, n, "closed"); err != nil {
				t.Fatal(err)
			}
		}
		limit := func(n uint32) *uint32 { return &n }
		cases := []struct {
			name string
			req  *gatewayv1.ListIssuesRequest
			want []uint64
		}{
			{"default is open", &gatewayv1.ListIssuesRequest{}, []uint64{6, 4, 1}},
			{"open", &gatewayv1.ListIssuesRequest{State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_OPEN}, []uint64{6, 4, 1}},
			{"closed", &gatewayv1.ListIssuesRequest{State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_CLOSED}, []uint64{5, 2}},
			{"all", &gatewayv1.ListIssuesRequest{State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL}, []uint64{6, 5, 4, 2, 1}},
			{"label, any case", &gatewayv1.ListIssuesRequest{State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL,
				Labels: []string{"BUG"}}, []uint64{4, 2, 1}},
			{"all labels", &gatewayv1.ListIssuesRequest{State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL,
				Labels: []string{"bug", "ui"}}, []uint64{4, 2}},
			{"labels and state", &gatewayv1.ListIssuesRequest{Labels: []string{"ui", "bug"}}, []uint64{4}},
			{"unknown label", &gatewayv1.ListIssuesRequest{Labels: []string{"nope"}}, nil},
			{"limit", &gatewayv1.ListIssuesRequest{State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL,
				Limit: limit(2)}, []uint64{6, 5}},
		}
		for _, tc := range cases {
			tc.req.Repo = repo
			list, err := f.ListIssues(ctx, alice, tc.req)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if got := numbers(list); !slices.Equal(got, tc.want) {
				t.Errorf("%s: numbers = %v, want %v", tc.name, got, tc.want)
			}
		}

		// Listed issues carry their fields and labels in the order given.
		list, err := f.ListIssues(ctx, alice, &gatewayv1.ListIssuesRequest{Repo: repo, Labels: []string{"p1"}})
		if err != nil || len(list.GetIssues()) != 1 {
			t.Fatalf("list = %v, %v; want one issue", list, err)
		}
		want := &forgev1.Issue{Forge: f.Ref(), Repo: repo, Number: 4, State: "open", Url: testBase + "/acme/app/issues/4",
			Labels: []string{"bug", "ui", "p1"}, Author: "alice", Title: "four",
			CreatedAt: list.GetIssues()[0].GetCreatedAt(), UpdatedAt: list.GetIssues()[0].GetCreatedAt()}
		if !proto.Equal(list.GetIssues()[0], want) {
			t.Fatalf("list = %v, want [%v]", list, want)
		}

		// An unknown repository exists and is empty.
		empty, err := f.ListIssues(ctx, alice, &gatewayv1.ListIssuesRequest{Repo: "acme/none"})
		if err != nil || len(empty.GetIssues()) != 0 {
			t.Fatalf("unknown repo: %v, %v; want an empty list", empty, err)
		}
	})
}

func TestListIssuesLimits(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		for i := 1; i <= 105; i++ {
			createIssue(t, f, "acme/big", fmt.Sprintf("issue %d", i))
		}
		for _, tc := range []struct {
			limit *uint32
			want  int
		}{{nil, 30}, {ptr[uint32](0), 30}, {ptr[uint32](100), 100}, {ptr[uint32](500), 100}} {
			list, err := f.ListIssues(ctx, alice, &gatewayv1.ListIssuesRequest{Repo: "acme/big", Limit: tc.limit})
			if err != nil {
				t.Fatal(err)
			}
			got := numbers(list)
			if len(got) != tc.want || got[0] != 105 || got[len(got)-1] != uint64(105-tc.want+1) {
				t.Errorf("limit %v: got %d issues from #%d to #%d, want %d from #105 down", tc.limit, len(got),
					got[0], got[len(got)-1], tc.want)
			}
		}
	})
}

func ptr[T any](v T) *T { return &v }

func numbers(list *forgev1.IssueList) []uint64 {
	var out []uint64
	for _, is := range list.GetIssues() {
		out = append(out, is.GetNumber())
	}
	return out
}
