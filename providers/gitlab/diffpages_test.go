package gitlab_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/internal/providertest"
)

// Paging a 450-file merge request's diff reads, for each page, the merge
// request and only the pages of its diffs list that hold the page's
// files, starting at the one holding the file its cursor names: never
// the list from page 1 again. The files are counted by the list's
// X-Total, sent with its first page.
func TestMergeRequestDiffReadsOnlyItsDiffPages(t *testing.T) {
	s := fake(t)
	p := provider(t, s, 0)
	path := func(i int) string { return fmt.Sprintf("many/f%03d.txt", i) }
	for lo := 0; lo < 450; lo += 20 {
		req := &gatewayv1.CommitFilesRequest{Repo: proj, Branch: "feature", Message: "many"}
		for i := lo; i < min(lo+20, 450); i++ {
			var b strings.Builder
			for l := range 40 {
				fmt.Fprintf(&b, "line %d of file %d\n", l+1, i)
			}
			req.Files = append(req.Files, &gatewayv1.FileChange{Path: path(i), Content: b.String()})
		}
		if _, err := p.CommitFiles(context.Background(), noCall, req); err != nil {
			t.Fatal(err)
		}
	}
	providertest.DiffPages(t, providertest.DiffForge{
		Diff: func(ctx context.Context, cursor string) (*forgev1.PullRequestDiff, error) {
			return p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: proj, PullNumber: 1, Cursor: cursor})
		},
		Requests: func() int { return len(s.Requests()) },
		ListPages: func(mark int) (pages []int) {
			for _, r := range s.Requests()[mark:] {
				if r.Path == escaped+"/merge_requests/1/diffs" {
					page, _ := strconv.Atoi(r.Query.Get("page"))
					pages = append(pages, page)
				}
			}
			return pages
		},
		PerPage: 100,
	}, 450, path)
}
