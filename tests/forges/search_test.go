package forges_test

import (
	"strings"
	"testing"

	"github.com/forgetools/forgetools/providers/github/githubtest"
)

// Search through the gateway on each forge's fake: GitLab's project search
// finds code and an issue in the project named; Gitea finds an issue and
// says it has no code search; Linear, whose scope entry here names its
// team exactly, searches that team when no repo is given; a scope of
// patterns (GitLab's platform/infra/*) refuses a search without a repo
// rather than search the forge; GitHub's search API finds code and an
// issue in the repository named, and a repo: qualifier in the agent's
// query does not reach another repository.
func TestSearchOnTheFakes(t *testing.T) {
	e := start(t)
	got := e.ok("forge_search_code", `{`+onGitLab+`,"query":"replicas"}`)
	for _, part := range []string{"repo: platform/infra/deploy\n", "charts/app/values.yaml", "replicas: 2", "line: 1\n"} {
		if !strings.Contains(got, part) {
			t.Errorf("gitlab code search lacks %q:\n%s", part, got)
		}
	}
	got = e.ok("forge_search_issues", `{`+onGitLab+`,"query":"stalls"}`)
	if !strings.Contains(got, "Rollout stalls") || !strings.Contains(got, "kind: issue\n") {
		t.Errorf("gitlab issue search:\n%s", got)
	}
	want(t, "gitlab scope of patterns", e.fails("forge_search_code", `{"forge_provider":"gitlab","query":"replicas"}`),
		"forge_search_code failed: invalid_argument: your scope on gitlab/gitlab.example.com includes the pattern platform/infra/*, which the gateway cannot list: name a repo to search")

	got = e.ok("forge_search_issues", `{`+onGitea+`,"query":"JAMS"}`)
	if !strings.Contains(got, "Gadget jams") {
		t.Errorf("gitea issue search:\n%s", got)
	}
	if got := e.fails("forge_search_code", `{`+onGitea+`,"query":"x"}`); !strings.Contains(got, "unimplemented: Gitea's API has no code search") {
		t.Errorf("gitea code search: %s", got)
	}

	got = e.ok("forge_search_issues", `{"forge_provider":"linear","query":"crash"}`)
	if !strings.Contains(got, "Crash on save") || !strings.Contains(got, "repo: ENG\n") {
		t.Errorf("linear search of the scope's team:\n%s", got)
	}
	if got := e.fails("forge_search_code", `{`+eng+`,"query":"x"}`); !strings.Contains(got, "unimplemented") {
		t.Errorf("linear code search: %s", got)
	}

	e.github.AddRepo("other/x", "main")
	for _, r := range []string{"octocat/Hello-World", "other/x"} {
		e.github.Commit(r, "main", "add parse", githubtest.File{Path: "src/parse.go", Content: "package src\n\nfunc parseWidget() {}\n"})
		e.github.AddIssue(r, githubtest.Issue{Title: "parseWidget crashes"})
	}
	got = e.ok("forge_search_code", `{"repo":"octocat/Hello-World","query":"func parseWidget"}`)
	for _, part := range []string{"repo: octocat/Hello-World\n", "src/parse.go", "func parseWidget() {}"} {
		if !strings.Contains(got, part) {
			t.Errorf("github code search lacks %q:\n%s", part, got)
		}
	}
	got = e.ok("forge_search_issues", `{"repo":"octocat/Hello-World","query":"bug","state":"all"}`)
	if !strings.Contains(got, "Found a bug") || !strings.Contains(got, "kind: issue\n") {
		t.Errorf("github issue search:\n%s", got)
	}
	for _, q := range []string{"parseWidget repo:other/x", "repo:other/x"} {
		for _, tool := range []string{"forge_search_code", "forge_search_issues"} {
			if got := e.ok(tool, `{"repo":"octocat/Hello-World","query":"`+q+`"}`); strings.Contains(got, "other/x") || strings.Contains(got, "parseWidget crashes") || strings.Contains(got, "src/parse.go") {
				t.Errorf("github %s %q widened the search:\n%s", tool, q, got)
			}
		}
	}
	if got := e.fails("forge_search_issues", `{"repo":"octocat/Hello-World","query":"bug\" repo:other/x \""}`); !strings.Contains(got, "invalid_argument") {
		t.Errorf("github search with a quote: %s", got)
	}
}
