package github

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/github/githubtest"
	"github.com/forgetools/forgetools/providers/internal/providertest"
)

// Paging a 450-file pull request's diff reads, for each page, the pull
// request and only the pages of its files list that hold the page's
// files, starting at the one holding the file its cursor names: never
// the list from page 1 again.
func TestGetPullRequestDiffReadsOnlyItsFilePages(t *testing.T) {
	srv, p := stateful(t)
	path := func(i int) string { return fmt.Sprintf("f%03d.txt", i) }
	var files []githubtest.Change
	for i := range 450 {
		var b strings.Builder
		fmt.Fprintf(&b, "@@ -0,0 +1,40 @@")
		for l := range 40 {
			fmt.Fprintf(&b, "\n+line %d of file %d", l+1, i)
		}
		files = append(files, githubtest.Change{Path: path(i), Patch: b.String()})
	}
	n := srv.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Many", Head: "feature", Files: files})
	filesPath := fmt.Sprintf("%s/pulls/%d/files", repoPath, n)
	providertest.DiffPages(t, providertest.DiffForge{
		Diff: func(ctx context.Context, cursor string) (*forgev1.PullRequestDiff, error) {
			return p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: "octocat/Hello-World", PullNumber: uint64(n), Cursor: cursor})
		},
		Requests: func() int { return len(srv.Requests()) },
		ListPages: func(mark int) (pages []int) {
			for _, r := range srv.Requests()[mark:] {
				if r.Path == filesPath {
					page, _ := strconv.Atoi(r.Query.Get("page"))
					pages = append(pages, max(page, 1))
				}
			}
			return pages
		},
		PerPage: 100,
	}, 450, path)
}
