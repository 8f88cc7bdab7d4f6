package forges_test

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/providers/gitea/giteatest"
	"github.com/forgetools/forgetools/providers/gitlab/gitlabtest"
)

// The GitLab, Gitea and Forgejo side of the harness.

const (
	// deploy is the GitLab project of these tests: a project in a
	// subgroup, in scope through "platform/infra/*".
	deploy = "platform/infra/deploy"
	// gadgets is the Gitea and Forgejo repository, in scope through "acme/*".
	gadgets = "acme/gadgets"
)

// seedREST starts and seeds the GitLab, Gitea and Forgejo fakes.
func (e *env) seedREST(t *testing.T) {
	e.gitlab = gitlabtest.New(gitlabtest.Options{})
	e.gitea = giteatest.New(giteatest.Options{})
	e.forgejo = giteatest.New(giteatest.Options{Forgejo: true, PathPrefix: "/git"})
	t.Cleanup(e.gitlab.Close)
	t.Cleanup(e.gitea.Close)
	t.Cleanup(e.forgejo.Close)

	e.gitlab.AddToken(gitlabToken, "forgetools-bot")
	e.gitlab.AddToken(gitlabReview, "forgetools-reviewer")
	e.gitlab.AddUser("ada")
	e.gitlab.AddProject(deploy, "main", map[string]string{"README.md": "# deploy\n", "charts/app/values.yaml": "replicas: 2\n"}, "feature")
	e.gitlab.AddProject("platform/infra/secrets/vault", "main", map[string]string{"README.md": "sealed\n"})
	e.gitlab.AddProject("platform/other", "main", map[string]string{"README.md": "other\n"})
	e.gitlab.SetAccess("platform/other", 20)
	e.gitlab.AddMilestone(deploy, "v1.0")
	e.gitlab.AddIssue(deploy, gitlabtest.Issue{Title: "Rollout stalls", Description: "It stalls at 50%.", Labels: []string{"bug"}})
	e.gitlab.AddPipeline(deploy, gitlabtest.Pipeline{Ref: "main", Status: "failed", Jobs: []gitlabtest.Job{
		{Name: "lint", Status: "success"}, {Name: "deploy", Status: "failed", Trace: "$ helm upgrade app\nError: timed out waiting for the condition\n"}}})

	files := map[string]string{"README.md": "# gadgets\n", "src/gadget.go": "package gadget\n", ".gitea/workflows/ci.yml": "on: [push]\n"}
	for _, f := range []*giteatest.Server{e.gitea, e.forgejo} {
		token := giteaToken
		if f == e.forgejo {
			token = forgejoToken
		}
		f.AddToken(token, "forgetools-bot")
		f.AddToken(giteaReviewer, "forgetools-reviewer")
		f.AddRepo(gadgets, "main", files, "feature")
		f.AddLabel(gadgets, "bug")
		f.AddLabel(gadgets, "docs")
		f.AddIssue(gadgets, giteatest.Issue{Title: "Gadget jams", Body: "It jams on start.", Labels: []string{"bug"}})
		f.AddRun(gadgets, giteatest.Run{Workflow: "ci.yml", Branch: "main", Status: "completed", Conclusion: "failure",
			Jobs: []giteatest.Job{{Name: "build", Conclusion: "success"}, {Name: "test", Conclusion: "failure", Log: "=== RUN TestJam\n--- FAIL: TestJam\n"}}})
	}
}

// closedPort is an address nothing listens on: a forge that is down.
func closedPort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// restForges is the configuration of the GitLab, Gitea and Forgejo forges.
func (e *env) restForges(s settings) string {
	var b strings.Builder
	for _, f := range []struct{ provider, host, apiURL, apiPath, tokenEnv, reviewerEnv string }{
		{"gitlab", "gitlab.example.com", e.gitlab.APIURL(), "/api/v4/", "FT_E2E_GITLAB_TOKEN", "FT_E2E_GITLAB_REVIEWER_TOKEN"},
		{"gitea", "gitea.example.com", e.gitea.APIURL(), "/api/v1/", "FT_E2E_GITEA_TOKEN", "FT_E2E_GITEA_REVIEWER_TOKEN"},
		{"forgejo", "codeberg.example.com", e.forgejo.APIURL(), "/git/api/v1/", "FT_E2E_FORGEJO_TOKEN", "FT_E2E_GITEA_REVIEWER_TOKEN"},
	} {
		if slices.Contains(s.without, f.provider) {
			continue
		}
		apiURL := f.apiURL
		if slices.Contains(s.down, f.provider) {
			apiURL = "http://" + closedPort(e.t) + f.apiPath
		}
		fmt.Fprintf(&b, "  - provider: %s\n    host: %s\n    api_url: %s\n    token_env: %s\n    reviewer_token_env: %s\n    timeout: %s\n",
			f.provider, f.host, apiURL, f.tokenEnv, f.reviewerEnv, s.restTimeout)
	}
	return b.String()
}

func without(providers ...string) setting {
	return func(s *settings) { s.without = append(s.without, providers...) }
}

func down(providers ...string) setting {
	return func(s *settings) { s.down = append(s.down, providers...) }
}

// blobOf is git's blob id of content, as the fakes compute it.
func blobOf(content string) string {
	sum := sha1.Sum(fmt.Appendf(nil, "blob %d\x00%s", len(content), content))
	return hex.EncodeToString(sum[:])
}
