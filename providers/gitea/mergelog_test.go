package gitea_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/providers/gitea/giteatest"
	"github.com/forgetools/forgetools/providers/internal/providertest"
)

// rawGitea sends a request to the fake's repository as a Gitea client
// would and decodes its JSON answer into out.
func rawGitea(t *testing.T, s *giteatest.Server, method, path, body string, out any) {
	t.Helper()
	req, _ := http.NewRequest(method, s.APIURL()+"repos/"+repo+"/"+path, strings.NewReader(body))
	req.Header.Set("Authorization", "token "+token)
	providertest.Send(t, req, out)
}

// TestMergeCommitInHistory: Gitea's merge style "merge" makes a merge
// commit (parents the base's head and the pull request's, as its commit
// list shows them), and forge_list_commits on the base lists it above
// both.
func TestMergeCommitInHistory(t *testing.T) {
	s := fake(t, false)
	providertest.MergeHistory(t, provider(t, s, false, 0), providertest.MergeFake{
		Head: func(b string) string { return s.Head(repo, b) },
		Parents: func(sha string) []string {
			var log []struct {
				Parents []struct {
					SHA string `json:"sha"`
				} `json:"parents"`
			}
			rawGitea(t, s, "GET", "commits?stat=false&files=false&limit=1&sha="+sha, "", &log)
			var out []string
			for _, p := range log[0].Parents {
				out = append(out, p.SHA)
			}
			return out
		},
		PushBase: func() string {
			rawGitea(t, s, "POST", "contents/main.txt", `{"branch":"main","content":"bQo=","message":"Add main.txt"}`, &struct{}{})
			return s.Head(repo, "main")
		},
	}, repo, 2, "feature", "main", "Merge pull request 'Feature' (#2) from feature into main")
}
