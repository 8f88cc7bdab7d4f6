package forges_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/forgetools/forgetools/providers/github/githubtest"
)

const issue1 = "GET /repos/octocat/Hello-World/issues/1"

// Every GitHub failure comes back in-band, one line the model can act on,
// with the code the gateway maps it to. Each case runs on its own gateway:
// the provider remembers a rate limit (for up to an hour).
func TestGitHubFailuresInBand(t *testing.T) {
	getIssue1 := `{` + hello + `,"issue_number":1}`
	for _, tc := range []struct {
		name   string
		inject githubtest.Response
		want   string
	}{
		{"401", githubtest.Response{Status: 401, Body: githubtest.Fixture("error_401.json")},
			"forge_get_issue failed: unauthenticated: get issue octocat/Hello-World#1: GitHub answered 401 Unauthorized: Bad credentials (the configured token is missing, expired or revoked)"},
		{"403", githubtest.Response{Status: 403, Body: githubtest.Fixture("error_403.json")},
			"forge_get_issue failed: permission_denied: get issue octocat/Hello-World#1: GitHub answered 403 Forbidden: Resource not accessible by personal access token"},
		{"502", githubtest.Response{Status: 502, Body: githubtest.Fixture("error_502.html"), Header: http.Header{"Content-Type": {"text/html"}}},
			"forge_get_issue failed: unavailable: get issue octocat/Hello-World#1: GitHub answered 502 Bad Gateway"},
		{"secondary rate limit", githubtest.Response{Status: 403, Body: githubtest.Fixture("rate_limit_secondary.json"), Header: http.Header{"Retry-After": {"61"}}},
			"forge_get_issue failed: resource_exhausted: get issue octocat/Hello-World#1: GitHub secondary rate limit: You have exceeded a secondary rate limit. " +
				"Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID 0401:3C9A:1F2E5C:3E7B1B:65A4D2F2.; " +
				"retry after 61000ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := start(t)
			e.github.Inject(issue1, tc.inject)
			want(t, tc.name, e.fails("forge_get_issue", getIssue1), tc.want)
			wantSent(t, tc.name, sent(t, e.github, 0), "GET /repos/octocat/Hello-World/issues/1 author")
		})
	}

	t.Run("404", func(t *testing.T) {
		e := start(t)
		want(t, "missing issue", e.fails("forge_get_issue", `{`+hello+`,"issue_number":99}`),
			"forge_get_issue failed: not_found: get issue octocat/Hello-World#99: GitHub answered 404 Not Found (it does not exist, or the credential cannot see it)")
		want(t, "pull request read as an issue", e.fails("forge_get_issue", `{`+hello+`,"issue_number":2}`),
			"forge_get_issue failed: not_found: #2 in octocat/Hello-World is a pull request, not an issue; read it with forge_get_pull_request")
	})

	t.Run("revoked token", func(t *testing.T) {
		e := start(t, func(s *settings) { s.githubToken = "ghp_N4vB8xK1qZ6mT3wR9pL2cY7hF5dJ0gS8aE3r" })
		want(t, "revoked", e.fails("forge_create_issue", `{`+hello+`,"title":"x"}`),
			"forge_create_issue failed: unauthenticated: create issue in octocat/Hello-World: GitHub answered 401 Unauthorized: Bad credentials (the configured token is missing, expired or revoked)")
	})

	// GitHub validates the pull request and lists what is wrong.
	t.Run("422", func(t *testing.T) {
		e := start(t)
		want(t, "unknown branches", e.fails("forge_create_pull_request", `{`+hello+`,"title":"x","head_ref":"not-pushed","base_ref":"gone"}`),
			"forge_create_pull_request failed: invalid_argument: create pull request in octocat/Hello-World: GitHub answered 422 Unprocessable Entity: Validation Failed: PullRequest.head (invalid); PullRequest.base (invalid)")
		want(t, "second pull request", e.fails("forge_create_pull_request", `{`+hello+`,"title":"x","head_ref":"new-topic","base_ref":"main"}`),
			"forge_create_pull_request failed: invalid_argument: create pull request in octocat/Hello-World: GitHub answered 422 Unprocessable Entity: Validation Failed: PullRequest (custom): A pull request already exists for octocat:new-topic.")
		// A failed create leaves no memo: once the branch is pushed, the
		// same tool call id tries again, and opens it.
		create := `{` + hello + `,"title":"Fix","head_ref":"fix-later","base_ref":"main"}`
		if got, failed := e.call("forge_create_pull_request", create, "pr-retry"); !failed || !strings.Contains(got, "PullRequest.head (invalid)") {
			t.Errorf("before the push: %s", got)
		}
		e.github.AddBranch("octocat/Hello-World", "fix-later")
		want(t, "after the push", e.ok("forge_create_pull_request", create, "pr-retry"),
			"Opened PR #3 in octocat/Hello-World: https://github.com/octocat/Hello-World/pull/3")
	})

	// The hourly quota is spent: wait until x-ratelimit-reset. The provider
	// then refuses the next call itself, so it never reaches GitHub.
	t.Run("primary rate limit", func(t *testing.T) {
		e := start(t)
		reset := time.Now().Add(time.Minute).Unix()
		e.github.Inject(issue1, githubtest.Response{Status: 403, Body: githubtest.Fixture("rate_limit_primary.json"), Header: http.Header{
			"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Used": {"5000"}, "X-Ratelimit-Reset": {strconv.FormatInt(reset, 10)},
		}})
		limited := regexp.MustCompile(`^forge_get_issue failed: resource_exhausted: get issue octocat/Hello-World#1: GitHub rate limit exhausted \(core: 5000 requests an hour\): ` +
			`API rate limit exceeded for user ID 9001\. .*; retry after (\d+)000ms$`)
		got := e.fails("forge_get_issue", getIssue1)
		// The wait runs to the reset, a minute after the injection (less
		// the time the call took), in whole seconds.
		if m := limited.FindStringSubmatch(got); m == nil {
			t.Errorf("rate limited:\n got: %s\nwant: %s", got, limited)
		} else if secs, _ := strconv.Atoi(m[1]); secs < 1 || secs > 60 {
			t.Errorf("retry after %ds, want the time to the reset", secs)
		}
		got = e.fails("forge_list_issues", `{`+hello+`}`)
		if !strings.HasPrefix(got, "forge_list_issues failed: resource_exhausted: list issues in octocat/Hello-World: GitHub rate limit exhausted") ||
			!regexp.MustCompile(`; retry after \d+ms$`).MatchString(got) {
			t.Errorf("pre-empted: %s", got)
		}
		wantSent(t, "primary rate limit", sent(t, e.github, 0), "GET /repos/octocat/Hello-World/issues/1 author")
	})

	// After a rename GitHub answers the old name with a 301. A read follows
	// it; a write must not (Go would replay the POST as a GET that writes
	// nothing), and says so.
	t.Run("301 on POST", func(t *testing.T) {
		e := start(t)
		e.github.Rename("octocat/Hello-World", "octocat/Hello-Universe")
		got := e.ok("forge_get_issue", getIssue1)
		if !strings.Contains(got, "url: https://github.com/octocat/Hello-Universe/issues/1\n") {
			t.Errorf("read through the redirect:\n%s", got)
		}
		want(t, "write", e.fails("forge_create_issue", `{`+hello+`,"title":"Lost?"}`),
			"forge_create_issue failed: failed_precondition: create issue in octocat/Hello-World: repository moved: GitHub answered POST with 301 Moved Permanently (renamed or transferred); nothing was written, use the repository's new owner/name")
		got2 := sent(t, e.github, 0)
		for i, line := range got2 {
			got2[i] = regexp.MustCompile(`/repositories/\d+\b`).ReplaceAllString(line, "/repositories/ID")
		}
		wantSent(t, "rename", got2,
			"GET /repos/octocat/Hello-World/issues/1 author",
			"GET /repositories/ID/issues/1 author",
			// The same number in the repository's own id: renamed, not
			// transferred.
			"GET /repos/octocat/Hello-World author",
			"GET /repositories/ID author",
			"GET /repos/octocat/Hello-World/issues/1/comments?per_page=30 author",
			"GET /repositories/ID/issues/1/comments?per_page=30 author",
			`POST /repos/octocat/Hello-World/issues author {"title":"Lost?","body":"`+jsonText(strings.TrimSuffix(stamped, "\n\n"))+mark+`"}`)
	})

	// A transferred issue answers 301 to another repository's issue: the
	// read says where it went instead of showing that issue as this one.
	t.Run("transferred issue", func(t *testing.T) {
		e := start(t)
		e.github.AddRepo("octocat/Spoon-Knife", "main")
		m := e.github.Transfer("octocat/Hello-World", 1, "octocat/Spoon-Knife")
		want(t, "transferred", e.fails("forge_get_issue", getIssue1), fmt.Sprintf(
			"forge_get_issue failed: not_found: issue #1 in octocat/Hello-World was transferred to octocat/Spoon-Knife#%d: read it there (repo octocat/Spoon-Knife, issue_number %d)", m, m))
	})

	// An inline comment outside the diff: GitHub refuses the review without
	// saying which comment; the model is told which, and why.
	t.Run("review comment outside the diff", func(t *testing.T) {
		e := start(t)
		pr := e.github.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Fix", Head: "fix-crash"})
		got := e.fails("forge_submit_review", fmt.Sprintf(`{`+hello+`,"pull_number":%d,"verdict":"comment","body":"See inline.",`+
			`"comments":[{"path":"src/parse.go","line":42,"body":"Good."},{"path":"src/parse.go","line":90,"body":"And here?"}]}`, pr))
		want(t, "outside the diff", got, fmt.Sprintf("forge_submit_review failed: invalid_argument: review pull request octocat/Hello-World#%d: "+
			"GitHub answered 422 Unprocessable Entity: Line could not be resolved: comments[1] (src/parse.go line 90, RIGHT side) is outside the pull request's diff: "+
			"GitHub accepts inline comments only on lines the diff shows, which for src/parse.go are lines 40-44 on the RIGHT side and 40-41 on the LEFT; nothing was posted", pr))
	})

	// A GitHub that stops answering: the call gives up at the forge's
	// configured timeout and says so.
	t.Run("timeout", func(t *testing.T) {
		e := start(t, func(s *settings) { s.githubTimeout = "500ms" })
		e.github.Inject(issue1, githubtest.Response{Hold: true})
		want(t, "timeout", e.fails("forge_get_issue", getIssue1),
			"forge_get_issue failed: unavailable: get issue octocat/Hello-World#1: GitHub did not answer within 500ms")
	})
}
