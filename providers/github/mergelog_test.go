package github

import (
	"testing"

	"github.com/forgetools/forgetools/providers/github/githubtest"
	"github.com/forgetools/forgetools/providers/internal/providertest"
)

// TestMergeCommitInHistory: the "merge" method makes a merge commit
// (parents the base's head and the pull request's, as GET commits/{ref}
// shows them), and forge_list_commits on the base lists it above both.
func TestMergeCommitInHistory(t *testing.T) {
	srv, p := stateful(t)
	n := srv.AddPull(helloRepo, githubtest.Pull{Title: "Feature", Head: "feature"})
	providertest.MergeHistory(t, p, providertest.MergeFake{
		Head: func(b string) string { return srv.Head(helloRepo, b) },
		Parents: func(sha string) []string {
			c, _, err := p.author.Repositories.GetCommit(ctx, "octocat", "Hello-World", sha, nil)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, pc := range c.Parents {
				out = append(out, pc.GetSHA())
			}
			return out
		},
		PushBase: func() string {
			return srv.Commit(helloRepo, "main", "Add m", githubtest.File{Path: "m.txt", Content: "m\n"})
		},
	}, helloRepo, uint64(n), "feature", "main", "Merge pull request #1 from octocat/feature")
}
