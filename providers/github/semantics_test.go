package github

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/github/githubtest"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// stateful is githubtest's fake with its state (not a script) behind a
// provider: octocat/Hello-World with branches main and feature, and the
// author and reviewer tokens.
func stateful(t *testing.T) (*githubtest.Server, *Provider) {
	t.Helper()
	srv := githubtest.NewChecked(t, githubtest.Options{})
	t.Cleanup(srv.Close)
	srv.AddToken(authorToken, "forgetools-bot")
	srv.AddToken(reviewerToken, "forgetools-reviewer")
	srv.AddRepo("octocat/Hello-World", "main", "feature")
	p, err := New(Options{Options: kit.Options{APIURL: srv.APIURL(), Token: authorToken, ReviewerToken: reviewerToken}})
	if err != nil {
		t.Fatal(err)
	}
	p.now = srv.Clock
	return srv, p
}

// The checks roll-up counts every check run of the head commit, past any
// first page: one failure among 250 runs fails the pull request, and the
// counts by state come in the one GraphQL query, with no run listed.
func TestChecksStateReadsEveryPage(t *testing.T) {
	srv, p := stateful(t)
	n := srv.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Busy", Head: "feature"})
	var runs []githubtest.CheckRun
	for i := range 250 {
		runs = append(runs, githubtest.CheckRun{Name: fmt.Sprint("job ", i)})
	}
	runs[230].Conclusion = "failure"
	srv.AddCheckRuns("octocat/Hello-World", n, runs...)
	got, err := p.GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: "octocat/Hello-World", PullNumber: uint64(n)})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetChecksState() != "failure" {
		t.Errorf("checks state = %q, want failure (run 231 of 250 failed)", got.GetChecksState())
	}
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/check-runs") || strings.HasSuffix(r.Path, "/status") {
			t.Errorf("the roll-up listed %s %s; the query's counts are the roll-up", r.Method, r.Path)
		}
	}
	if len(srv.Requests()) != 2 {
		t.Errorf("%d requests; want the pull request and one query", len(srv.Requests()))
	}
}

// parsePatch is a change to src/parse.go: its diff shows the new file's
// lines 10-13 and the old file's 10-12.
const parsePatch = "@@ -10,3 +10,4 @@ func parse() {\n \tx := read()\n-\treturn x\n+\tif x == nil {\n+\t\treturn nil\n \t}"

// GitHub refuses a review with an inline comment outside the diff (422
// "Line could not be resolved", naming no comment); the model is told
// which comment, and why, in one sentence.
func TestReviewCommentOutsideTheDiff(t *testing.T) {
	srv, p := stateful(t)
	n := srv.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Parse", Head: "feature",
		Files: []githubtest.Change{{Path: "src/parse.go", Patch: parsePatch}}})
	review := func(comments ...*gatewayv1.ReviewCommentInput) error {
		_, err := p.SubmitReview(ctx, noCall, &gatewayv1.SubmitReviewRequest{Repo: "octocat/Hello-World", PullNumber: uint64(n),
			Verdict: gatewayv1.Verdict_VERDICT_COMMENT, Body: "Looks close.", Comments: comments})
		return err
	}
	ok := &gatewayv1.ReviewCommentInput{Path: "src/parse.go", Line: 12, Body: "Good."}
	for _, c := range []struct {
		comment *gatewayv1.ReviewCommentInput
		want    string
	}{
		{&gatewayv1.ReviewCommentInput{Path: "src/parse.go", Line: 40, Body: "Here?"},
			"comments[1] (src/parse.go line 40, RIGHT side) is outside the pull request's diff: GitHub accepts inline comments only on lines the diff shows, which for src/parse.go are lines 10-13 on the RIGHT side and 10-12 on the LEFT; nothing was posted"},
		{&gatewayv1.ReviewCommentInput{Path: "src/parse.go", Line: 13, Side: gatewayv1.Side_SIDE_LEFT, Body: "Old?"},
			"comments[1] (src/parse.go line 13, LEFT side) is outside the pull request's diff: GitHub accepts inline comments only on lines the diff shows, which for src/parse.go are lines 10-13 on the RIGHT side and 10-12 on the LEFT; nothing was posted"},
		{&gatewayv1.ReviewCommentInput{Path: "README.md", Line: 1, Body: "Docs?"},
			"comments[1] (README.md line 1, RIGHT side) names a file the pull request does not change (it changes src/parse.go); GitHub accepts inline comments only on the diff; nothing was posted"},
	} {
		err := review(ok, c.comment)
		e := wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, c.want)
		if !strings.Contains(e.Message, "could not be resolved") {
			t.Errorf("GitHub's own words are gone: %q", e.Message)
		}
	}
	if err := review(ok); err != nil {
		t.Fatalf("a review inside the diff: %v", err)
	}
}

// A transferred issue answers 301 to its new repository. The read reports
// the move, naming where the issue is now, instead of following it and
// showing another repository's issue under the requested repo and number;
// a renamed repository's redirect is still followed.
func TestTransferredIssue(t *testing.T) {
	srv, p := stateful(t)
	srv.AddRepo("acme/tracker", "main")
	srv.AddIssue("acme/tracker", githubtest.Issue{Title: "Already here"})
	n := srv.AddIssue("octocat/Hello-World", githubtest.Issue{Title: "Belongs elsewhere"})
	m := srv.Transfer("octocat/Hello-World", n, "acme/tracker")
	_, err := p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: "octocat/Hello-World", IssueNumber: uint64(n)})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, fmt.Sprintf(
		"issue #%d in octocat/Hello-World was transferred to acme/tracker#%d: read it there (repo acme/tracker, issue_number %d)", n, m, m))

	srv.Rename("octocat/Hello-World", "octocat/Hello-Universe")
	k := srv.AddIssue("octocat/Hello-Universe", githubtest.Issue{Title: "Stayed"})
	got, err := p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: "octocat/Hello-World", IssueNumber: uint64(k)})
	if err != nil || got.GetTitle() != "Stayed" {
		t.Fatalf("read through a rename = %v, %v", got, err)
	}
	// The transferred number still answers with the move after the rename.
	_, err = p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: "octocat/Hello-World", IssueNumber: uint64(n)})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "was transferred to acme/tracker#")
}

// Without push access GitHub files a new issue but drops its labels,
// silently; the provider compares what came back with what was asked and
// lists the labels not applied, case-insensitively, as GitHub matches them.
func TestLabelsDroppedOnCreate(t *testing.T) {
	srv, p := stateful(t)
	req := &gatewayv1.CreateIssueRequest{Repo: "octocat/Hello-World", Title: "Crash", Labels: []string{"bug", "P1"}}
	got, err := p.CreateIssue(ctx, noCall, req)
	if err != nil || len(got.GetLabelsNotApplied()) != 0 || len(got.GetLabels()) != 2 {
		t.Fatalf("create with push access = %v, %v; want both labels applied", got, err)
	}
	srv.ReadOnly("octocat/Hello-World", "forgetools-bot")
	got, err = p.CreateIssue(ctx, noCall, req)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.GetLabelsNotApplied(), []string{"bug", "P1"}) || len(got.GetLabels()) != 0 {
		t.Errorf("create without push access: labels %v, not applied %v; want none and [bug P1]", got.GetLabels(), got.GetLabelsNotApplied())
	}
}

// A keyed create ends its body with a marker GitHub does not render; reads
// never show it. A resumed create (its key's earlier attempt died with the
// POST in flight) finds the artifact that attempt filed by the marker, among
// the credential's own, and returns it instead of filing a second one.
func TestResumedCreateFindsTheEarlierAttempt(t *testing.T) {
	srv, p := stateful(t)
	first := toolserver.Call{Account: "release-bot", ClientRequestID: "cli:k1"}
	req := &gatewayv1.CreateIssueRequest{Repo: "octocat/Hello-World", Title: "Crash", Body: "Steps."}
	made, err := p.CreateIssue(ctx, first, req)
	if err != nil {
		t.Fatal(err)
	}
	if made.GetBody() != "Steps." {
		t.Errorf("created body = %q, want it without the marker", made.GetBody())
	}
	sent := srv.Requests()[len(srv.Requests())-1]
	if !regexp.MustCompile(`"body":"Steps\.\\n\\n<!-- forgetools-create: [0-9a-f-]{36} -->"`).Match(sent.Body) {
		t.Errorf("the create did not carry its marker: %s", sent.Body)
	}
	got, err := p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: "octocat/Hello-World", IssueNumber: made.GetNumber()})
	if err != nil || got.GetBody() != "Steps." {
		t.Fatalf("read back = %q, %v; want the body without the marker", got.GetBody(), err)
	}

	// Someone else's issue carrying the same marker is not ours.
	srv.AddToken("ghp_someoneElseToken0000000000000000000", "mallory")
	srv.AddIssue("octocat/Hello-World", githubtest.Issue{Title: "Decoy", Author: "mallory", Body: "x\n\n" + marker(first)})

	resumed := first
	resumed.Resumed = true
	again, err := p.CreateIssue(ctx, resumed, req)
	if err != nil || again.GetNumber() != made.GetNumber() {
		t.Fatalf("resumed create = #%d, %v; want the earlier attempt's #%d", again.GetNumber(), err, made.GetNumber())
	}
	// A resumed create whose earlier attempt never reached GitHub files.
	other := toolserver.Call{Account: "release-bot", ClientRequestID: "cli:k2", Resumed: true}
	fresh, err := p.CreateIssue(ctx, other, req)
	if err != nil || fresh.GetNumber() == made.GetNumber() {
		t.Fatalf("resumed create with nothing to find = %v, %v; want a new issue", fresh, err)
	}
	// The same for a pull request.
	prReq := &gatewayv1.CreatePullRequestRequest{Repo: "octocat/Hello-World", Title: "Fix", HeadRef: "feature", BaseRef: "main"}
	prCall := toolserver.Call{Account: "release-bot", ClientRequestID: "cli:pr"}
	pr, err := p.CreatePullRequest(ctx, prCall, prReq)
	if err != nil {
		t.Fatal(err)
	}
	prCall.Resumed = true
	pr2, err := p.CreatePullRequest(ctx, prCall, prReq)
	if err != nil || pr2.GetNumber() != pr.GetNumber() || pr2.GetBody() != "" {
		t.Fatalf("resumed pull request = %v, %v; want #%d with an empty body", pr2, err, pr.GetNumber())
	}
	list, err := p.ListIssues(ctx, noCall, &gatewayv1.ListIssuesRequest{Repo: "octocat/Hello-World", State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL})
	if err != nil || len(list.GetIssues()) != 3 { // made, the decoy, fresh
		t.Fatalf("issues = %v, %v; want 3", list, err)
	}
}
