package forges_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/forgetools/forgetools/providers/gitea/giteatest"
	"github.com/forgetools/forgetools/providers/gitlab/gitlabtest"
)

// repos runs `forgetools repos` on the test's configuration and returns
// its stdout, its stderr and whether it failed.
func (e *env) repos(args ...string) (string, string, bool) {
	e.t.Helper()
	cmd := exec.Command(binary, append([]string{"repos", "--config", e.config}, args...)...)
	cmd.Env = append(os.Environ(),
		"FT_E2E_GITHUB_TOKEN="+authorToken, "FT_E2E_GITHUB_REVIEWER_TOKEN="+reviewerToken, "FT_E2E_GHE_TOKEN="+gheToken,
		"FT_E2E_LINEAR_KEY="+linearKey, "FT_E2E_GITEA_TOKEN="+giteaToken, "FT_E2E_GITEA_REVIEWER_TOKEN="+giteaReviewer,
		"FT_E2E_FORGEJO_TOKEN="+forgejoToken, "FT_E2E_GITLAB_TOKEN="+gitlabToken, "FT_E2E_GITLAB_REVIEWER_TOKEN="+gitlabReview)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		e.t.Fatal(err)
	}
	e.seen = append(e.seen, stdout.String(), stderr.String())
	return stdout.String(), stderr.String(), err != nil
}

// `forgetools repos` lists what each forge's credential reaches, paging
// through accounts larger than a page, with the permission on each.
func TestReposListsWhatEachCredentialReaches(t *testing.T) {
	e := start(t)
	for i := range 120 {
		e.github.AddRepo(fmt.Sprintf("octocat/repo-%03d", i), "main")
	}
	e.github.SetPermission("octocat/repo-000", "forgetools-bot", "read")
	e.github.SetPermission("octocat/repo-001", "forgetools-bot", "none")
	for i := range 110 {
		e.gitlab.AddProject(fmt.Sprintf("platform/tools/svc-%03d", i), "main", nil)
	}
	for i := range 60 {
		e.gitea.AddRepo(fmt.Sprintf("acme/lib-%02d", i), "main", nil)
	}
	e.gitea.SetPermission("acme/lib-00", "read", true)
	for i := range 55 {
		e.linear.AddTeam(fmt.Sprintf("T%02d", i), "Team")
	}

	out, errOut, failed := e.repos("--forge", "github")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if failed || len(lines) != 120 || lines[0] != "write     octocat/Hello-World" || lines[1] != "read      octocat/repo-000" || strings.Contains(out, "repo-001") {
		t.Errorf("github: failed=%v, %d lines, first %q, %q; stderr %s", failed, len(lines), lines[0], lines[1], errOut)
	}
	want(t, "github count", errOut, "found 120 repositories reachable on github/github.com\n")
	if n := len(e.github.Requests()); n != 2 {
		t.Errorf("GitHub got %d requests, want 2 pages of 100", n)
	}

	out, errOut, failed = e.repos("--forge", "gitlab/gitlab.example.com", "--scope-yaml")
	var doc struct{ Scope []string }
	// Not the default forge: each entry names it, or it would cover the
	// name on the default forge instead.
	const on = "gitlab.example.com:"
	if err := yaml.Unmarshal([]byte(out), &doc); failed || err != nil || len(doc.Scope) != 113 || !containsAll(doc.Scope, on+deploy, on+"platform/infra/secrets/vault", on+"platform/tools/svc-109") {
		t.Errorf("gitlab --scope-yaml: failed=%v, %v, %d entries:\n%s%s", failed, err, len(doc.Scope), out, errOut)
	}
	if !strings.Contains(out, "      - gitlab.example.com:platform/other        # triage\n") {
		t.Errorf("gitlab permissions:\n%s", out)
	}
	want(t, "gitlab count", errOut, "found 113 repositories reachable on gitlab/gitlab.example.com\n")

	out, errOut, _ = e.repos("--forge", "gitea")
	if strings.Count(out, "\n") != 61 || !strings.Contains(out, "read      acme/lib-00\n") || !strings.Contains(out, "admin     acme/lib-59\n") {
		t.Errorf("gitea:\n%s%s", out, errOut)
	}
	out, errOut, _ = e.repos("--forge", "forgejo")
	want(t, "forgejo", out+errOut, "admin     acme/gadgets\nfound 1 repositories reachable on forgejo/codeberg.example.com\n")
	out, errOut, _ = e.repos("--forge", "linear")
	if strings.Count(out, "\n") != 56 || !strings.HasPrefix(out, "-         ENG\n") || errOut != "found 56 team keys reachable on linear/linear.app\n" {
		t.Errorf("linear:\n%s%s", out, errOut)
	}

	// The local forge lists what the gateway's store holds.
	e.ok("forge_create_issue", `{"repo":"demo/app","title":"x","forge_provider":"local"}`)
	out, errOut, _ = e.repos("--forge", "local")
	want(t, "local", out+errOut, "admin     demo/app\nfound 1 repositories reachable on local\n")

	_, errOut, failed = e.repos("--forge", "gitlab/nowhere.example.com")
	if !failed || !strings.Contains(errOut, `--forge "gitlab/nowhere.example.com": no such forge is configured (configured: github, github/ghe.example.com, linear, local, gitlab/gitlab.example.com, gitea/gitea.example.com, forgejo/codeberg.example.com)`) {
		t.Errorf("unknown forge: %s", errOut)
	}
	e.gitea.Inject("GET /user/repos", giteatest.Response{Status: 401, Body: `{"message":"invalid username, password or token"}`})
	_, errOut, failed = e.repos("--forge", "gitea")
	want(t, "revoked", errOut, "forgetools: gitea/gitea.example.com: list repositories: Gitea answered 401 Unauthorized: invalid username, password or token (the configured token is missing, expired or revoked)\n")
	if !failed {
		t.Error("a failed listing exits 0")
	}
	e.gitlab.Inject("GET /projects", gitlabtest.Response{Status: 429, Header: map[string][]string{"Retry-After": {"9"}}, Body: "Retry later"})
	if _, errOut, _ = e.repos("--forge", "gitlab"); !strings.Contains(errOut, "GitLab rate limit") {
		t.Errorf("rate limited listing: %s", errOut)
	}
}

func containsAll(have []string, want ...string) bool {
	for _, w := range want {
		found := false
		for _, h := range have {
			found = found || h == w
		}
		if !found {
			return false
		}
	}
	return true
}
