package github

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

const repoPath = "/repos/octocat/Hello-World"

var (
	ctx      = context.Background()
	noCall   = toolserver.Call{Account: "acct", Session: "sess"}
	githubCo = &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, Host: "github.com"}
)

func wantProto(t *testing.T, got, want proto.Message) {
	t.Helper()
	if !proto.Equal(got, want) {
		t.Errorf("result\n got %s\nwant %s", prototext.Format(got), prototext.Format(want))
	}
}

// wantCode checks err is an in-band error with code whose message contains
// every fragment.
func wantCode(t *testing.T, err error, code gatewayv1.ErrorCode, fragments ...string) *toolserver.Error {
	t.Helper()
	e, ok := toolserver.AsError(err)
	if !ok {
		t.Fatalf("err = %v (%T), want *toolserver.Error %s", err, err, code)
	}
	if gatewayv1.ErrorCode(e.Code) != code { // the enums share numbers (gateway TestErrorCodesMatch)
		t.Errorf("code = %s, want %s (message %q)", e.Code, code, e.Message)
	}
	for _, f := range fragments {
		if !strings.Contains(e.Message, f) {
			t.Errorf("message %q does not contain %q", e.Message, f)
		}
	}
	return e
}

func TestGetIssue(t *testing.T) {
	f := newFake(t,
		exchange{method: "GET", path: repoPath + "/issues/1347", accept: acceptReactions, reply: fixture(t, "issue.json")},
		exchange{method: "GET", path: repoPath + "/issues/1347/comments", query: q("per_page", "30"), accept: acceptReactions, reply: fixture(t, "issue_comments.json")},
	)
	got, err := f.provider(t).GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: "octocat/Hello-World", IssueNumber: 1347})
	if err != nil {
		t.Fatal(err)
	}
	wantProto(t, got, &forgev1.Issue{
		Forge:  githubCo,
		Repo:   "octocat/Hello-World",
		Number: 1347,
		State:  "open",
		Url:    "https://github.com/octocat/Hello-World/issues/1347",
		Labels: []string{"bug", "ui"},
		Author: "octocat",
		Title:  "Found a bug",
		Body:   "I'm having a problem with this.\n\nSteps:\n1. open the app\n2. it crashes",
		Comments: []*forgev1.Comment{
			{Author: "hubot", Url: "https://github.com/octocat/Hello-World/issues/1347#issuecomment-1", Body: "Me too"},
			{Author: "octocat", Url: "https://github.com/octocat/Hello-World/issues/1347#issuecomment-2", Body: "Fixed in #1350."},
		},
		CreatedAt: "2026-11-20T09:12:41Z",
		UpdatedAt: "2026-11-20T09:12:41Z",
	})
}

// The comments the renderer shows are the first page: a next page is not
// read (paging is the cursor's job), and the issue's own count says how
// many there are.
func TestGetIssueReadsOneCommentPage(t *testing.T) {
	f := newFake(t)
	f.expect(
		exchange{method: "GET", path: repoPath + "/issues/1347", accept: acceptReactions, reply: fixtureWith(t, "issue.json", "comments", 95)},
		exchange{method: "GET", path: repoPath + "/issues/1347/comments", query: q("per_page", "30"), accept: acceptReactions,
			reply: fixture(t, "issue_comments.json"), header: f.linkNext(repoPath+"/issues/1347/comments", q("per_page", "30"), 2, 4)},
	)
	got, err := f.provider(t).GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: "octocat/Hello-World", IssueNumber: 1347})
	if err != nil {
		t.Fatal(err)
	}
	var bodies []string
	for _, c := range got.GetComments() {
		bodies = append(bodies, c.GetBody())
	}
	if want := []string{"Me too", "Fixed in #1350."}; fmt.Sprint(bodies) != fmt.Sprint(want) || got.GetCommentsTotal() != 95 {
		t.Errorf("comments = %q (total %d), want %q of 95", bodies, got.GetCommentsTotal(), want)
	}
}

func TestGetIssueRefusesPullRequest(t *testing.T) {
	f := newFake(t, exchange{method: "GET", path: repoPath + "/issues/1350", accept: acceptReactions, reply: fixture(t, "issue_is_pull.json")})
	_, err := f.provider(t).GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: "octocat/Hello-World", IssueNumber: 1350})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "#1350", "is a pull request", "forge_get_pull_request")
}

// issuesPage is a list-issues answer: the documented issue example once per
// number, shaped as a pull request (with its "pull_request" member) where
// pulls says, the way GitHub's issues endpoint mixes them.
func issuesPage(t *testing.T, numbers []int, pulls map[int]bool) string {
	t.Helper()
	items := make([]map[string]any, 0, len(numbers))
	for _, n := range numbers {
		name, kind := "issue.json", "issues"
		if pulls[n] {
			name, kind = "issue_is_pull.json", "pull"
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(fixture(t, name)), &m); err != nil {
			t.Fatal(err)
		}
		m["number"] = n
		m["id"] = 1000000 + n
		m["title"] = fmt.Sprintf("Item %d", n)
		m["html_url"] = fmt.Sprintf("https://github.com/octocat/Hello-World/%s/%d", kind, n)
		items = append(items, m)
	}
	b, err := json.Marshal(items)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func span(from, to int) []int {
	var out []int
	for n := from; n >= to; n-- {
		out = append(out, n)
	}
	return out
}

func numbers(l *forgev1.IssueList) []uint64 {
	var out []uint64
	for _, i := range l.GetIssues() {
		out = append(out, i.GetNumber())
	}
	return out
}

// A page is one request at per_page = limit: the pull requests GitHub
// lists among issues are dropped from it, and next_cursor names the page
// the Link header names, read with the same arguments.
func TestListIssuesDropsPullRequestsAndPagesByCursor(t *testing.T) {
	pulls := map[int]bool{58: true, 55: true, 50: true, 44: true, 40: true, 29: true, 27: true}
	query := q("state", "closed", "labels", "bug,ui", "sort", "created", "direction", "desc", "per_page", "30")
	page2 := q("state", "closed", "labels", "bug,ui", "sort", "created", "direction", "desc", "per_page", "30", "page", "2")
	f := newFake(t)
	f.expect(
		exchange{method: "GET", path: repoPath + "/issues", query: query, accept: acceptReactions,
			reply: issuesPage(t, span(60, 31), pulls), header: f.linkNext(repoPath+"/issues", query, 2, 2)},
		exchange{method: "GET", path: repoPath + "/issues", query: page2, accept: acceptReactions,
			reply: issuesPage(t, span(30, 1), pulls)},
	)
	limit := uint32(30)
	req := &gatewayv1.ListIssuesRequest{
		Repo:   "octocat/Hello-World",
		State:  gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_CLOSED,
		Labels: []string{"bug", "ui"},
		Limit:  &limit,
	}
	got, err := f.provider(t).ListIssues(ctx, noCall, req)
	if err != nil {
		t.Fatal(err)
	}
	wantNumbers := func(top, bottom int) string {
		var want []uint64
		for _, n := range span(top, bottom) {
			if !pulls[n] {
				want = append(want, uint64(n))
			}
		}
		return fmt.Sprint(want)
	}
	if fmt.Sprint(numbers(got)) != wantNumbers(60, 31) {
		t.Errorf("page 1 numbers = %v, want %v", numbers(got), wantNumbers(60, 31))
	}
	if got.GetNextCursor() == "" {
		t.Fatal("page 1 has no next_cursor though the Link header names page 2")
	}
	first := got.GetIssues()[0]
	wantProto(t, first, &forgev1.Issue{
		Forge: githubCo, Repo: "octocat/Hello-World", Number: 60, State: "open",
		Url: "https://github.com/octocat/Hello-World/issues/60", Labels: []string{"bug", "ui"}, Author: "octocat",
		Title: "Item 60", Body: "I'm having a problem with this.\n\nSteps:\n1. open the app\n2. it crashes",
		CreatedAt: "2026-11-20T09:12:41Z", UpdatedAt: "2026-11-20T09:12:41Z",
	})
	req.Cursor = got.GetNextCursor()
	got, err = f.provider(t).ListIssues(ctx, noCall, req)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(numbers(got)) != wantNumbers(30, 1) || got.GetNextCursor() != "" {
		t.Errorf("page 2 numbers = %v (cursor %q), want %v and none", numbers(got), got.GetNextCursor(), wantNumbers(30, 1))
	}
}

func TestListIssuesDefaultsAndEndOfListing(t *testing.T) {
	f := newFake(t, exchange{
		method: "GET", path: repoPath + "/issues", accept: acceptReactions,
		query: q("state", "open", "sort", "created", "direction", "desc", "per_page", "30"),
		reply: issuesPage(t, []int{9, 8, 7, 6}, map[int]bool{8: true}),
	})
	got, err := f.provider(t).ListIssues(ctx, noCall, &gatewayv1.ListIssuesRequest{Repo: "octocat/Hello-World"})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(numbers(got)) != "[9 7 6]" {
		t.Errorf("numbers = %v, want [9 7 6]", numbers(got))
	}
}

// A small limit still reads a page of GitHub's default size, so pull
// requests on it do not leave the page short; the cursor names the offset
// in that page where the next call starts, which reads it again (one
// request a call).
func TestListIssuesSmallLimitFillsFromOnePage(t *testing.T) {
	f := newFake(t)
	query := q("state", "all", "sort", "created", "direction", "desc", "per_page", "30")
	for range 2 {
		f.expect(exchange{
			method: "GET", path: repoPath + "/issues", accept: acceptReactions, query: query,
			reply: issuesPage(t, span(40, 11), map[int]bool{40: true, 37: true}), header: f.linkNext(repoPath+"/issues", query, 2, 3),
		})
	}
	limit := uint32(2)
	req := &gatewayv1.ListIssuesRequest{Repo: "octocat/Hello-World", State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL, Limit: &limit}
	got, err := f.provider(t).ListIssues(ctx, noCall, req)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(numbers(got)) != "[39 38]" || got.GetNextCursor() == "" {
		t.Fatalf("numbers = %v (cursor %q), want [39 38] and a next_cursor", numbers(got), got.GetNextCursor())
	}
	req.Cursor = got.GetNextCursor()
	if got, err = f.provider(t).ListIssues(ctx, noCall, req); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(numbers(got)) != "[36 35]" {
		t.Errorf("page 2 numbers = %v, want [36 35]", numbers(got))
	}
	for _, bad := range []string{"_0", "1_30", "0_0", "1_01", "1_-1", "2", "1_0_0"} {
		_, err := f.provider(t).ListIssues(ctx, noCall, &gatewayv1.ListIssuesRequest{Repo: req.Repo, State: req.State, Limit: req.Limit,
			Cursor: strings.SplitN(req.Cursor, ".", 2)[0] + "." + bad})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "cursor")
	}
}

// A cursor is bound to the arguments it was issued for: another limit,
// state or a made-up one is refused before GitHub is asked.
func TestListIssuesRefusesForeignCursor(t *testing.T) {
	f := newFake(t)
	query := q("state", "open", "sort", "created", "direction", "desc", "per_page", "30")
	f.expect(exchange{method: "GET", path: repoPath + "/issues", accept: acceptReactions, query: query,
		reply: issuesPage(t, span(60, 31), nil), header: f.linkNext(repoPath+"/issues", query, 2, 2)})
	got, err := f.provider(t).ListIssues(ctx, noCall, &gatewayv1.ListIssuesRequest{Repo: "octocat/Hello-World"})
	if err != nil {
		t.Fatal(err)
	}
	limit := uint32(5)
	for _, req := range []*gatewayv1.ListIssuesRequest{
		{Repo: "octocat/Hello-World", Cursor: got.GetNextCursor(), Limit: &limit},
		{Repo: "octocat/Hello-World", Cursor: got.GetNextCursor(), State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_CLOSED},
		{Repo: "octocat/Hello-World", Cursor: "abc.2"},
	} {
		_, err := f.provider(t).ListIssues(ctx, noCall, req)
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "cursor")
	}
}

func TestListIssuesRefusesLabelWithComma(t *testing.T) {
	f := newFake(t)
	_, err := f.provider(t).ListIssues(ctx, noCall, &gatewayv1.ListIssuesRequest{Repo: "octocat/Hello-World", Labels: []string{"a,b"}})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, `"a,b"`, "comma")
}

func TestCreateIssue(t *testing.T) {
	body := "<!-- forgetools: agent=a1 owner=o1 session=s1 -->\nIt crashes."
	f := newFake(t, exchange{
		method: "POST", path: repoPath + "/issues", status: 201,
		body:  `{"title":"Crash on start","body":"<!-- forgetools: agent=a1 owner=o1 session=s1 -->\nIt crashes.","labels":["bug"]}`,
		reply: fixture(t, "issue_created.json"),
	})
	got, err := f.provider(t).CreateIssue(ctx, noCall, &gatewayv1.CreateIssueRequest{
		Repo: "octocat/Hello-World", Title: "Crash on start", Body: body, Labels: []string{"bug"},
	})
	if err != nil {
		t.Fatal(err)
	}
	wantProto(t, got, &forgev1.Issue{
		Forge: githubCo, Repo: "octocat/Hello-World", Number: 1351, State: "open",
		Url: "https://github.com/octocat/Hello-World/issues/1351", Labels: []string{"bug"},
		Author: "forgetools-bot", Title: "Crash on start", Body: body,
		CreatedAt: "2026-11-30T10:00:00Z", UpdatedAt: "2026-11-30T10:00:00Z",
	})
}

func TestCreateIssueTitleOnly(t *testing.T) {
	f := newFake(t, exchange{
		method: "POST", path: repoPath + "/issues", status: 201,
		body: `{"title":"Crash on start"}`, reply: fixture(t, "issue_created.json"),
	})
	if _, err := f.provider(t).CreateIssue(ctx, noCall, &gatewayv1.CreateIssueRequest{Repo: "octocat/Hello-World", Title: "Crash on start"}); err != nil {
		t.Fatal(err)
	}
}

func TestCommentOnIssue(t *testing.T) {
	f := newFake(t, exchange{
		method: "POST", path: repoPath + "/issues/1347/comments", status: 201,
		body:  `{"body":"<!-- forgetools: agent=a1 owner=o1 session=s1 -->\nLooking into it."}`,
		reply: fixture(t, "comment_created.json"),
	})
	got, err := f.provider(t).CommentOnIssue(ctx, noCall, &gatewayv1.CommentOnIssueRequest{
		Repo: "octocat/Hello-World", IssueNumber: 1347, Body: "<!-- forgetools: agent=a1 owner=o1 session=s1 -->\nLooking into it.",
	})
	if err != nil {
		t.Fatal(err)
	}
	wantProto(t, got, &forgev1.CommentRef{
		Forge: githubCo, Repo: "octocat/Hello-World", Number: 1347, CommentId: "2468013579",
		Url: "https://github.com/octocat/Hello-World/issues/1347#issuecomment-2468013579",
	})
}

func TestMalformedRepoNeverReachesGitHub(t *testing.T) {
	f := newFake(t)
	p := f.provider(t)
	for _, repo := range []string{"octocat", "octocat/", "/x", "a/b/c", "../x", "octocat/..", "o/n?x=1", "o/n#f", "o/%2e%2e", "o/n m", "ok/né"} {
		_, err := p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: 1})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "owner/name")
	}
	if n := f.requests(); n != 0 {
		t.Errorf("%d requests reached GitHub", n)
	}
}

func TestCreateIssueWithAssigneesAndMilestone(t *testing.T) {
	milestone := uint64(1)
	f := newFake(t, exchange{
		method: "POST", path: repoPath + "/issues", status: 201,
		body:  `{"title":"Crash on start","assignees":["octocat","hubot"],"milestone":1}`,
		reply: fixture(t, "issue_created.json"),
	})
	if _, err := f.provider(t).CreateIssue(ctx, noCall, &gatewayv1.CreateIssueRequest{
		Repo: "octocat/Hello-World", Title: "Crash on start", Assignees: []string{"octocat", "hubot"}, Milestone: &milestone,
	}); err != nil {
		t.Fatal(err)
	}
}

func TestListIssuesByAssigneeSince(t *testing.T) {
	f := newFake(t, exchange{
		method: "GET", path: repoPath + "/issues", accept: acceptReactions,
		query: q("state", "open", "assignee", "octocat", "since", "2026-11-01T10:00:00Z", "sort", "created", "direction", "desc", "per_page", "30"),
		reply: "[]",
	})
	_, err := f.provider(t).ListIssues(ctx, noCall, &gatewayv1.ListIssuesRequest{
		Repo: "octocat/Hello-World", Assignee: "octocat",
		Since: timestamppb.New(time.Date(2026, 11, 1, 12, 0, 0, 0, time.FixedZone("", 2*60*60))),
	})
	if err != nil {
		t.Fatal(err)
	}
}

// An update sends only what it changes, after checking the number is an
// issue; the result carries what a read of the issue does.
func TestUpdateIssue(t *testing.T) {
	title := "Found a bug (won't fix)"
	f := newFake(t,
		exchange{method: "GET", path: repoPath + "/issues/1347", accept: acceptReactions, reply: fixture(t, "issue.json")},
		exchange{method: "PATCH", path: repoPath + "/issues/1347", reply: fixture(t, "issue_closed.json"),
			body: `{"title":"Found a bug (won't fix)","state":"closed","state_reason":"not_planned","assignees":["octocat"]}`},
	)
	got, err := f.provider(t).UpdateIssue(ctx, noCall, &gatewayv1.UpdateIssueRequest{
		Repo: "octocat/Hello-World", IssueNumber: 1347, Title: &title, State: gatewayv1.IssueState_ISSUE_STATE_CLOSED,
		StateReason: gatewayv1.StateReason_STATE_REASON_NOT_PLANNED, Assignees: []string{"octocat"},
	})
	if err != nil {
		t.Fatal(err)
	}
	wantProto(t, got, &forgev1.Issue{
		Forge: githubCo, Repo: "octocat/Hello-World", Number: 1347, State: "closed",
		Url: "https://github.com/octocat/Hello-World/issues/1347", Labels: []string{"bug", "ui"}, Author: "octocat",
		Title: title, Body: "I'm having a problem with this.\n\nSteps:\n1. open the app\n2. it crashes",
		Assignees: []string{"octocat"}, Milestone: "v1.0", CreatedAt: "2026-11-20T09:12:41Z", UpdatedAt: "2026-11-30T11:00:00Z",
		ClosedAt: "2026-11-30T11:00:00Z", StateReason: "not_planned",
	})
}

func TestUpdateIssueLabelsOnlyAndReopen(t *testing.T) {
	body := ""
	f := newFake(t,
		exchange{method: "GET", path: repoPath + "/issues/1347", accept: acceptReactions, reply: fixture(t, "issue_closed.json")},
		exchange{method: "PATCH", path: repoPath + "/issues/1347", reply: fixture(t, "issue.json"),
			body: `{"body":"","labels":["bug"],"state":"open","state_reason":"reopened"}`},
	)
	if _, err := f.provider(t).UpdateIssue(ctx, noCall, &gatewayv1.UpdateIssueRequest{
		Repo: "octocat/Hello-World", IssueNumber: 1347, Body: &body, Labels: []string{"bug"},
		State: gatewayv1.IssueState_ISSUE_STATE_OPEN, StateReason: gatewayv1.StateReason_STATE_REASON_REOPENED,
	}); err != nil {
		t.Fatal(err)
	}
}

// GitHub would edit a pull request through the issues endpoint; the issue
// tool refuses it, having changed nothing.
func TestUpdateIssueRefusesPullRequest(t *testing.T) {
	f := newFake(t, exchange{method: "GET", path: repoPath + "/issues/1350", accept: acceptReactions, reply: fixture(t, "issue_is_pull.json")})
	_, err := f.provider(t).UpdateIssue(ctx, noCall, &gatewayv1.UpdateIssueRequest{
		Repo: "octocat/Hello-World", IssueNumber: 1350, State: gatewayv1.IssueState_ISSUE_STATE_CLOSED,
	})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "#1350 in octocat/Hello-World is a pull request, not an issue", "nothing was changed")
}
