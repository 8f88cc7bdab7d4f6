package gitlab_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/providers/gitlab/gitlabtest"
	"github.com/forgetools/forgetools/providers/internal/providertest"
)

// raw sends a request to the fake's project as a GitLab client would,
// and decodes its JSON answer into out.
func raw(t *testing.T, s *gitlabtest.Server, method, path, body string, out any) {
	t.Helper()
	req, _ := http.NewRequest(method, s.APIURL()+"projects/platform%2Finfra%2Fdeploy/"+path, strings.NewReader(body))
	req.Header.Set("PRIVATE-TOKEN", token)
	providertest.Send(t, req, out)
}

// TestMergeCommitInHistory: GitLab's default merge method makes a merge
// commit (parent_ids the target's head and the source's), and
// forge_list_commits on the target lists it above both.
func TestMergeCommitInHistory(t *testing.T) {
	s := fake(t)
	providertest.MergeHistory(t, provider(t, s, 0), providertest.MergeFake{
		Head: func(b string) string { return s.Head(proj, b) },
		Parents: func(sha string) []string {
			var c struct {
				ParentIDs []string `json:"parent_ids"`
			}
			raw(t, s, "GET", "repository/commits/"+sha, "", &c)
			return c.ParentIDs
		},
		PushBase: func() string {
			raw(t, s, "POST", "repository/files/main.txt", `{"branch":"main","content":"x\n","commit_message":"Add main.txt"}`, &struct{}{})
			return s.Head(proj, "main")
		},
	}, proj, 1, "feature", "main", "Merge branch 'feature' into 'main'")
}
