package github

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/github/githubtest"
)

// Bounded reads (issue 19, item 2): a read fetches the page the renderer
// shows and the forge's count, never every page of an aggregate.

// requestsTo counts the fake's requests whose path ends in suffix, and
// returns the per_page each asked for.
func requestsTo(srv *githubtest.Server, suffix string) (n int, perPage []string) {
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, suffix) {
			n++
			perPage = append(perPage, r.Query.Get("per_page"))
		}
	}
	return n, perPage
}

func TestGetIssueReadsOnlyTheShownComments(t *testing.T) {
	srv, p := stateful(t)
	n := srv.AddIssue("octocat/Hello-World", githubtest.Issue{Title: "Busy"})
	for i := range 1000 {
		srv.Comment("octocat/Hello-World", n, "someone", fmt.Sprint("comment ", i))
	}
	got, err := p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: "octocat/Hello-World", IssueNumber: uint64(n)})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.GetComments()) != 30 || got.GetCommentsTotal() != 1000 || got.GetComments()[29].GetBody() != "comment 29" {
		t.Errorf("comments %d (total %d); want the first 30 of 1000", len(got.GetComments()), got.GetCommentsTotal())
	}
	if pages, per := requestsTo(srv, fmt.Sprintf("/issues/%d/comments", n)); pages != 1 || per[0] != "30" {
		t.Errorf("%d requests for comments (per_page %v); want 1 of 30", pages, per)
	}
}

// However large the pull request (issue 23's large artifact: 300
// comments, 120 reviews, 250 check runs), a read is two requests: the pull
// request over REST and one GraphQL query for the shown reviews, comments
// and the check roll-up with their totals.
func TestGetPullRequestReadsOnlyTheShownPages(t *testing.T) {
	srv, p := stateful(t)
	n := srv.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Busy", Head: "feature"})
	for i := range 120 {
		srv.Review("octocat/Hello-World", n, "reviewer", "COMMENTED", fmt.Sprint("review ", i))
	}
	for i := range 300 {
		srv.Comment("octocat/Hello-World", n, "someone", fmt.Sprint("comment ", i))
	}
	runs := make([]githubtest.CheckRun, 250)
	for i := range runs {
		runs[i] = githubtest.CheckRun{Name: fmt.Sprint("job ", i)}
	}
	runs[240].Status = "in_progress"
	srv.AddCheckRuns("octocat/Hello-World", n, runs...)
	got, err := p.GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: "octocat/Hello-World", PullNumber: uint64(n)})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.GetReviews()) != 30 || got.GetReviewsTotal() != 120 || got.GetReviews()[29].GetBody() != "review 29" {
		t.Errorf("reviews %d (total %d); want the first 30 of 120", len(got.GetReviews()), got.GetReviewsTotal())
	}
	if len(got.GetComments()) != 30 || got.GetCommentsTotal() != 300 || got.GetComments()[0].GetBody() != "comment 0" {
		t.Errorf("comments %d (total %d); want the first 30 of 300", len(got.GetComments()), got.GetCommentsTotal())
	}
	// The run still in progress, the 241st, is past any first page.
	if got.GetChecksState() != "pending" {
		t.Errorf("checks %q; want pending (one of 250 runs is in progress)", got.GetChecksState())
	}
	wantPullReads(t, srv, n)
}

// A fresh pull request (the small artifact) costs the same two requests.
func TestGetPullRequestSmallIsTwoRequests(t *testing.T) {
	srv, p := stateful(t)
	n := srv.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Small", Head: "feature"})
	got, err := p.GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: "octocat/Hello-World", PullNumber: uint64(n)})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.GetReviews()) != 0 || got.GetReviewsTotal() != 0 || got.GetCommentsTotal() != 0 || got.GetChecksState() != "" {
		t.Errorf("reviews %v (total %d), comments total %d, checks %q; want none", got.GetReviews(), got.GetReviewsTotal(), got.GetCommentsTotal(), got.GetChecksState())
	}
	wantPullReads(t, srv, n)
}

// wantPullReads fails t unless the fake received exactly one read of pull
// request n: the REST GET and one GraphQL query.
func wantPullReads(t *testing.T, srv *githubtest.Server, n int) {
	t.Helper()
	var sent []string
	for _, r := range srv.Requests() {
		sent = append(sent, r.Method+" "+r.Path)
	}
	want := []string{fmt.Sprintf("GET /repos/octocat/Hello-World/pulls/%d", n), githubtest.GraphQLRoute}
	if strings.Join(sent, ", ") != strings.Join(want, ", ") {
		t.Errorf("requests %v; want %v", sent, want)
	}
}

// A hostile forge ignoring per_page answers every comment on the first
// page: the provider keeps the shown ones and counts the rest.
func TestGetIssueKeepsTheShownCommentsOfAnOversizedPage(t *testing.T) {
	srv, p := stateful(t)
	n := srv.AddIssue("octocat/Hello-World", githubtest.Issue{Title: "Busy"})
	var page []map[string]any
	for i := range 500 {
		// Each a comment as GitHub's description has it: the fake's
		// answers are held to it.
		page = append(page, map[string]any{
			"id": i + 1, "node_id": fmt.Sprint("IC_", i+1), "url": fmt.Sprint("https://api.github.com/repos/octocat/Hello-World/issues/comments/", i+1),
			"body": fmt.Sprint("comment ", i), "created_at": "2026-01-02T03:04:05Z", "updated_at": "2026-01-02T03:04:05Z",
			"user": map[string]any{"login": "someone", "id": 7, "node_id": "U_7", "gravatar_id": "", "site_admin": false, "type": "User",
				"url": "https://api.github.com/users/someone"},
		})
	}
	body, _ := json.Marshal(page)
	srv.Inject(fmt.Sprintf("GET /repos/octocat/Hello-World/issues/%d/comments", n), githubtest.Response{Body: string(body)})
	got, err := p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: "octocat/Hello-World", IssueNumber: uint64(n)})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.GetComments()) != 30 || got.GetCommentsTotal() != 500 {
		t.Errorf("comments %d (total %d); want 30 of the 500 sent", len(got.GetComments()), got.GetCommentsTotal())
	}
}

// forge_list_dir pages a directory of 450 entries: 200 a page, a
// next_cursor while more follow, the count on every page, one request a
// page (the default branch named by the listing itself). A cursor is
// bound to the directory and ref it was issued for: passed with another
// path or ref, or made up, it is refused rather than read at its offset.
func TestListDirPages(t *testing.T) {
	srv, p := stateful(t)
	var files []githubtest.File
	for i := range 450 {
		files = append(files, githubtest.File{Path: fmt.Sprintf("big/f%03d.txt", i), Content: "x"})
		files = append(files, githubtest.File{Path: fmt.Sprintf("other/g%03d.txt", i), Content: "y"})
	}
	srv.Commit("octocat/Hello-World", "main", "many files", files...)
	var names []string
	cursor, second := "", ""
	for page := range 3 {
		before := len(srv.Requests())
		got, err := p.ListDir(ctx, noCall, &gatewayv1.ListDirRequest{Repo: "octocat/Hello-World", Path: "big", Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(srv.Requests()) - before; n != 1 {
			t.Errorf("page %d: %d requests; want 1", page, n)
		}
		if got.GetEntriesTotal() != 450 || len(got.GetEntries()) > 200 || got.GetRef() != "main" {
			t.Fatalf("page: %d entries of %d at %q", len(got.GetEntries()), got.GetEntriesTotal(), got.GetRef())
		}
		for _, e := range got.GetEntries() {
			names = append(names, e.GetName())
		}
		cursor = got.GetNextCursor()
		if page == 0 {
			second = cursor
		}
	}
	if cursor != "" || len(names) != 450 || names[449] != "f449.txt" {
		t.Errorf("three pages: %d entries, last cursor %q", len(names), cursor)
	}
	for _, req := range []*gatewayv1.ListDirRequest{
		{Repo: "octocat/Hello-World", Path: "other", Cursor: second},
		{Repo: "octocat/Hello-World", Path: "big", Ref: "main", Cursor: second},
		{Repo: "octocat/Hello-World", Path: "big", Cursor: "entry:200"},
	} {
		_, err := p.ListDir(ctx, noCall, req)
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "forge_list_dir")
	}
	past := second[:strings.Index(second, ".")+1] + "9999"
	_, err := p.ListDir(ctx, noCall, &gatewayv1.ListDirRequest{Repo: "octocat/Hello-World", Path: "big", Cursor: past})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "past the directory's 450 entries")
}

// A hostile forge's single comment larger than one answer may be (17 MiB):
// the read stops at the cap and says so, resource_exhausted, not internal
// and not a gateway holding the whole of it.
func TestGetIssueWithAHugeCommentIsResourceExhausted(t *testing.T) {
	srv, p := stateful(t)
	n := srv.AddIssue("octocat/Hello-World", githubtest.Issue{Title: "Huge"})
	srv.Comment("octocat/Hello-World", n, "someone", strings.Repeat("x", 17<<20))
	_, err := p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: "octocat/Hello-World", IssueNumber: uint64(n)})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED, "larger than the 16 MiB")
}
