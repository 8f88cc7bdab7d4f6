package forges_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/providers/github/githubtest"
)

// Trusted authors GitHub vouches for, through `forgetools serve` on the
// GitHub fake: "org:acme" trusts acme's members (GET /orgs/acme/members/
// {username}), "collaborators:write" the repository's writers (GET
// .../collaborators/{username}/permission), each asked once and cached.
// The policy lets pushes run, so only the untrusted-content rule holds.
func TestGitHubTrustedAuthors(t *testing.T) {
	e := start(t, withFlow(`{trusted_authors: [forgetools-bot, "org:acme", "collaborators:write"]}`))
	gh := e.github
	gh.AddMember("acme", "carol")
	gh.SetPermission(helloRepo, "rita", "read")
	gh.SetPermission(helloRepo, "wes", "maintain")
	byMember := gh.AddIssue(helloRepo, issueBy("carol"))
	byWriter := gh.AddIssue(helloRepo, issueBy("wes"))
	byReader := gh.AddIssue(helloRepo, issueBy("rita"))

	before := len(gh.Requests())
	e.ok("forge_get_issue", issueArgs(byMember))
	wantSent(t, "reading a member's issue", lookups(t, gh, before), "GET /orgs/acme/members/carol author")
	before = len(gh.Requests())
	e.ok("forge_get_issue", issueArgs(byWriter))
	wantSent(t, "reading a writer's issue", lookups(t, gh, before),
		"GET /orgs/acme/members/wes author", "GET /repos/octocat/Hello-World/collaborators/wes/permission author")
	if got := e.ok("forge_create_branch", `{`+hello+`,"branch":"trusted"}`); !strings.HasPrefix(got, "Created branch trusted") {
		t.Fatalf("a push after trusted reads: %s", got)
	}
	// Read again: the answers are cached, GitHub is not asked.
	before = len(gh.Requests())
	e.ok("forge_get_issue", issueArgs(byMember))
	wantSent(t, "reading the member's issue again", lookups(t, gh, before))

	// A reader (read permission, no member) taints: the push parks.
	e.ok("forge_get_issue", issueArgs(byReader))
	held := e.fails("forge_create_branch", `{`+hello+`,"branch":"untrusted"}`)
	for _, w := range []string{"pending_approval", "flow: untrusted content", "by rita"} {
		if !strings.Contains(held, w) {
			t.Fatalf("the push after a reader's issue: %s; want it to name %q", held, w)
		}
	}
	if gh.Head(helloRepo, "untrusted") != "" {
		t.Fatal("the held branch reached GitHub")
	}
}

// A lookup GitHub fails (here: a 502 on the membership check) fails
// closed: the read succeeds, the member's issue taints.
func TestGitHubTrustLookupFails(t *testing.T) {
	e := start(t, withFlow(`{trusted_authors: [forgetools-bot, "org:acme"]}`))
	gh := e.github
	gh.AddMember("acme", "carol")
	n := gh.AddIssue(helloRepo, issueBy("carol"))
	gh.Inject("GET /orgs/acme/members/carol", githubtest.Response{Status: 502, Body: `{"message":"Server Error"}`})
	before := len(gh.Requests())
	e.ok("forge_get_issue", issueArgs(n))
	wantSent(t, "the read", lookups(t, gh, before), "GET /orgs/acme/members/carol author")
	if held := e.fails("forge_create_branch", `{`+hello+`,"branch":"x"}`); !strings.Contains(held, "by carol") {
		t.Fatalf("the push after a failed lookup: %s", held)
	}
}

func issueBy(login string) githubtest.Issue {
	return githubtest.Issue{Title: "Please look", Body: "Written by " + login, Author: login}
}

func issueArgs(n int) string { return fmt.Sprintf(`{%s,"issue_number":%d}`, hello, n) }

// lookups are the requests since from that asked GitHub who someone is.
func lookups(t *testing.T, gh *githubtest.Server, from int) []string {
	t.Helper()
	var out []string
	for _, l := range sent(t, gh, from) {
		if strings.Contains(l, "/orgs/") || strings.Contains(l, "/collaborators/") {
			out = append(out, l)
		}
	}
	return out
}
