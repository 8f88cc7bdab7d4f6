package github

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

const headSHA = "6dcb09b5b57875f334f61aebed695e2e4193db5e"

// pullReads is the scripted sequence GetPullRequest makes for #n: the PR
// over REST, then one GraphQL query for its aggregates, answered with
// graphql (a GraphQL answer in GitHub's wire shape).
func pullReads(t *testing.T, n, pull, graphql string) []exchange {
	num, _ := strconv.Atoi(n)
	return []exchange{
		{method: "GET", path: repoPath + "/pulls/" + n, reply: fixture(t, pull)},
		pullQueryRead(num, graphql),
	}
}

// pullQueryRead is the GraphQL query for #n's aggregates, with the
// variables it must carry (the shown sizes), answered with reply.
func pullQueryRead(n int, reply string) exchange {
	return exchange{method: "POST", path: "/graphql", reply: reply, body: fmt.Sprintf(
		`{"owner":"octocat","name":"Hello-World","number":%d,"reviews":30,"reviewComments":20,"comments":30,"threads":100,"threadComments":100}`, n)}
}

// pullAggregatesWith is a GraphQL answer with no reviews or comments and
// the head commit oid with the given counts by state (JSON lists).
func pullAggregatesWith(oid, runs, statuses string) string {
	return fmt.Sprintf(`{"data":{"repository":{"pullRequest":{"reviews":{"totalCount":0,"nodes":[]},"reviewThreads":{"nodes":[]},`+
		`"comments":{"totalCount":0,"nodes":[]},"commits":{"nodes":[{"commit":{"oid":%q,"statusCheckRollup":`+
		`{"contexts":{"checkRunCountsByState":%s,"statusContextCountsByState":%s}}}}]}}}}}`, oid, runs, statuses)
}

func TestGetPullRequest(t *testing.T) {
	f := newFake(t, pullReads(t, "1350", "pull.json", fixture(t, "graphql_pull.json"))...)
	got, err := f.provider(t).GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: "octocat/Hello-World", PullNumber: 1350})
	if err != nil {
		t.Fatal(err)
	}
	review := "https://github.com/octocat/Hello-World/pull/1350#pullrequestreview-"
	wantProto(t, got, &forgev1.PullRequest{
		Forge:       githubCo,
		Repo:        "octocat/Hello-World",
		Number:      1350,
		State:       "open",
		Url:         "https://github.com/octocat/Hello-World/pull/1350",
		HeadRef:     "new-topic",
		BaseRef:     "main",
		ChecksState: "pending", // one status and one run succeeded, one run is still in progress
		Author:      "octocat",
		Title:       "Amazing new feature",
		Body:        "Please pull these awesome changes in!",
		Reviews: []*forgev1.Review{
			// Each comment's side is its review thread's.
			{Author: "hubot", Verdict: "request_changes", Url: review + "80", Body: "Please handle the empty case.", Comments: []*forgev1.ReviewComment{
				{Path: "src/parse.go", Line: 42, Side: "RIGHT", Author: "hubot", Body: "What if the input is empty?"},
				// Outdated: no current line, so its original one.
				{Path: "src/parse.go", Line: 7, Side: "LEFT", Author: "hubot", Body: "This was removed on purpose?"},
			}},
			{Author: "forgetools-reviewer", Verdict: "approve", Url: review + "81"},
			// Review 82 is PENDING: neither it nor its comment appears.
			// 83's author deleted their account: GraphQL says null, REST "ghost".
			{Author: "ghost", Verdict: "comment", Url: review + "83", Body: "One more nit."},
		},
		Comments: []*forgev1.Comment{
			{Author: "hubot", Url: "https://github.com/octocat/Hello-World/pull/1350#issuecomment-11", Body: "Thanks! CI is running."},
		},
		HeadSha:   headSHA,
		Mergeable: "true",
	})
}

func TestGetPullRequestMergedWithFailedChecks(t *testing.T) {
	sha := "8a2d4b1c9e0f7a6b5c4d3e2f1a0b9c8d7e6f5a4b"
	// No commit statuses and a failed run.
	f := newFake(t, pullReads(t, "1349", "pull_merged.json", pullAggregatesWith(sha, `[{"state":"FAILURE","count":1}]`, `[]`))...)
	got, err := f.provider(t).GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: "octocat/Hello-World", PullNumber: 1349})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetState() != "merged" || !got.GetMerged() || got.GetChecksState() != "failure" || got.GetAuthor() != "hubot" || got.GetHeadSha() != sha {
		t.Errorf("state %q merged %v checks %q author %q head %q, want merged true failure hubot %s",
			got.GetState(), got.GetMerged(), got.GetChecksState(), got.GetAuthor(), got.GetHeadSha(), sha)
	}
	if len(got.GetReviews()) != 0 || len(got.GetComments()) != 0 {
		t.Errorf("reviews %v comments %v, want none", got.GetReviews(), got.GetComments())
	}
}

func TestGetPullRequestWithoutAnyChecks(t *testing.T) {
	f := newFake(t, pullReads(t, "1350", "pull.json", fixture(t, "graphql_pull_empty.json"))...)
	got, err := f.provider(t).GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: "octocat/Hello-World", PullNumber: 1350})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetChecksState() != "" {
		t.Errorf("checks = %q, want empty for a commit with no statuses or runs", got.GetChecksState())
	}
}

// A token without the statuses or checks permission still reads the pull
// request: GitHub answers the roll-up FORBIDDEN beside the rest of the
// data, and only the roll-up is left empty.
func TestGetPullRequestChecksDenied(t *testing.T) {
	f := newFake(t, pullReads(t, "1350", "pull.json", fixture(t, "graphql_pull_checks_forbidden.json"))...)
	got, err := f.provider(t).GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: "octocat/Hello-World", PullNumber: 1350})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetChecksState() != "" || got.GetNumber() != 1350 {
		t.Errorf("number %d checks %q, want 1350 and empty", got.GetNumber(), got.GetChecksState())
	}
}

// A push between the REST read and the query: the roll-up is of another
// commit than the head the result names, so it is left unknown.
func TestGetPullRequestHeadMovedBetweenReads(t *testing.T) {
	f := newFake(t, pullReads(t, "1350", "pull.json", pullAggregatesWith(strings.Repeat("e", 40), `[{"state":"FAILURE","count":1}]`, `[]`))...)
	got, err := f.provider(t).GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: "octocat/Hello-World", PullNumber: 1350})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetChecksState() != "" || got.GetHeadSha() != headSHA {
		t.Errorf("checks %q head %s; want no roll-up for head %s", got.GetChecksState(), got.GetHeadSha(), headSHA)
	}
}

func TestGetPullRequestNotFound(t *testing.T) {
	f := newFake(t, exchange{method: "GET", path: repoPath + "/pulls/1347", status: 404, reply: fixture(t, "error_404.json")})
	_, err := f.provider(t).GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: "octocat/Hello-World", PullNumber: 1347})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "get pull request octocat/Hello-World#1347", "404 Not Found")
}

var createdPull = &forgev1.PullRequest{
	Forge: githubCo, Repo: "octocat/Hello-World", Number: 1352, State: "open",
	Url: "https://github.com/octocat/Hello-World/pull/1352", HeadRef: "fix-crash", BaseRef: "main", Draft: true,
	Author: "forgetools-bot", Title: "Fix the crash", Body: "<!-- forgetools: agent=a1 owner=o1 session=s1 -->\nFixes #1351.",
	HeadSha: "1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e", Mergeable: "true",
}

func TestCreatePullRequestWithBase(t *testing.T) {
	f := newFake(t, exchange{
		method: "POST", path: repoPath + "/pulls", status: 201,
		body:  `{"title":"Fix the crash","head":"fix-crash","base":"main","body":"<!-- forgetools: agent=a1 owner=o1 session=s1 -->\nFixes #1351.","draft":true}`,
		reply: fixture(t, "pull_created.json"),
	})
	got, err := f.provider(t).CreatePullRequest(ctx, noCall, &gatewayv1.CreatePullRequestRequest{
		Repo: "octocat/Hello-World", Title: "Fix the crash", Body: createdPull.Body, HeadRef: "fix-crash", BaseRef: "main", Draft: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	wantProto(t, got, createdPull)
}

func TestCreatePullRequestLooksUpDefaultBranch(t *testing.T) {
	f := newFake(t,
		exchange{method: "GET", path: repoPath, accept: acceptRepo, reply: fixtureWith(t, "repo.json", "default_branch", "trunk")},
		exchange{
			method: "POST", path: repoPath + "/pulls", status: 201,
			body:  `{"title":"Fix the crash","head":"fix-crash","base":"trunk"}`,
			reply: fixture(t, "pull_created.json"),
		},
	)
	if _, err := f.provider(t).CreatePullRequest(ctx, noCall, &gatewayv1.CreatePullRequestRequest{
		Repo: "octocat/Hello-World", Title: "Fix the crash", HeadRef: "fix-crash",
	}); err != nil {
		t.Fatal(err)
	}
}

func TestCreatePullRequestEmptyRepository(t *testing.T) {
	f := newFake(t, exchange{method: "GET", path: repoPath, accept: acceptRepo, reply: fixtureWith(t, "repo.json", "default_branch", nil),
		offDescription: "the description's default_branch is never null; the provider refuses a repository without one all the same"})
	_, err := f.provider(t).CreatePullRequest(ctx, noCall, &gatewayv1.CreatePullRequestRequest{Repo: "octocat/Hello-World", Title: "x", HeadRef: "y"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "no default branch", "base_ref")
}

func TestCreatePullRequestAlreadyExists(t *testing.T) {
	f := newFake(t, exchange{
		method: "POST", path: repoPath + "/pulls", status: 422,
		body:  `{"title":"Fix the crash","head":"fix-crash","base":"main"}`,
		reply: fixture(t, "error_422_pull_exists.json"),
	})
	_, err := f.provider(t).CreatePullRequest(ctx, noCall, &gatewayv1.CreatePullRequestRequest{
		Repo: "octocat/Hello-World", Title: "Fix the crash", HeadRef: "fix-crash", BaseRef: "main",
	})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
		"create pull request in octocat/Hello-World: GitHub answered 422 Unprocessable Entity: Validation Failed: PullRequest (custom): A pull request already exists for octocat:fix-crash.")
}

func TestCommentOnPullRequest(t *testing.T) {
	f := newFake(t, exchange{
		method: "POST", path: repoPath + "/issues/1350/comments", status: 201,
		body:  `{"body":"<!-- forgetools: agent=a1 owner=o1 session=s1 -->\nRebased."}`,
		reply: fixture(t, "pull_comment_created.json"),
	})
	got, err := f.provider(t).CommentOnPullRequest(ctx, noCall, &gatewayv1.CommentOnPullRequestRequest{
		Repo: "octocat/Hello-World", PullNumber: 1350, Body: "<!-- forgetools: agent=a1 owner=o1 session=s1 -->\nRebased.",
	})
	if err != nil {
		t.Fatal(err)
	}
	wantProto(t, got, &forgev1.CommentRef{
		Forge: githubCo, Repo: "octocat/Hello-World", Number: 1350, CommentId: "2468013580",
		Url: "https://github.com/octocat/Hello-World/pull/1350#issuecomment-2468013580",
	})
}

// A listing has each head sha and whether it merged, never mergeability.
func TestListPullRequests(t *testing.T) {
	f := newFake(t, exchange{method: "GET", path: repoPath + "/pulls",
		query: q("state", "all", "head", "octocat:new-topic", "base", "main", "sort", "created", "direction", "desc", "per_page", "2"),
		reply: fixture(t, "pulls.json")})
	limit := uint32(2)
	got, err := f.provider(t).ListPullRequests(ctx, noCall, &gatewayv1.ListPullRequestsRequest{
		Repo: "octocat/Hello-World", State: gatewayv1.PullRequestStateFilter_PULL_REQUEST_STATE_FILTER_ALL,
		Base: "main", Head: "new-topic", Limit: &limit,
	})
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, pr := range got.GetPullRequests() {
		rows = append(rows, fmt.Sprint(pr.GetNumber(), " ", pr.GetState(), " ", pr.GetHeadSha(), " merged=", pr.GetMerged(), " mergeable=", pr.GetMergeable()))
	}
	want := []string{
		"1350 open " + headSHA + " merged=false mergeable=",
		"1349 merged 8a2d4b1c9e0f7a6b5c4d3e2f1a0b9c8d7e6f5a4b merged=true mergeable=",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("listed\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}

func TestListPullRequestsDefaults(t *testing.T) {
	f := newFake(t, exchange{method: "GET", path: repoPath + "/pulls",
		query: q("state", "open", "head", "someone:their-branch", "sort", "created", "direction", "desc", "per_page", "30"), reply: "[]"})
	got, err := f.provider(t).ListPullRequests(ctx, noCall, &gatewayv1.ListPullRequestsRequest{Repo: "octocat/Hello-World", Head: "someone:their-branch"})
	if err != nil || len(got.GetPullRequests()) != 0 {
		t.Errorf("got %v, %v", got, err)
	}
}
