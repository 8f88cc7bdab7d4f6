package local_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
)

func TestListCommits(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		repo := "acme/app"
		branch(t, f, repo, "feat")
		var written []string // newest last
		sha := map[string]string{}
		for i := range 7 {
			path := fmt.Sprintf("f%d.txt", i%2)
			fc := writeFile(t, f, pusher, repo, "feat", path, fmt.Sprint(i), sha[path])
			sha[path] = fc.GetBlobSha()
			written = append(written, fc.GetCommitSha())
		}
		list := func(req *gatewayv1.ListCommitsRequest) *forgev1.CommitList {
			t.Helper()
			req.Repo = repo
			out, err := f.ListCommits(ctx, alice, req)
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		limit := uint32(3)
		var got []*forgev1.Commit
		cursor := ""
		for pages := 0; ; pages++ {
			out := list(&gatewayv1.ListCommitsRequest{Ref: "feat", Cursor: cursor, Limit: &limit})
			if len(out.GetCommits()) > 3 || out.GetRef() != "feat" {
				t.Fatalf("page %d: %d commits, ref %q", pages, len(out.GetCommits()), out.GetRef())
			}
			got = append(got, out.GetCommits()...)
			if pages == 0 {
				// The branch moves on after the first page: the pages
				// go on reading the history they started on.
				writeFile(t, f, pusher, repo, "feat", "late.txt", "late", "")
			}
			if cursor = out.GetNextCursor(); cursor == "" {
				break
			}
		}
		if len(got) != 8 { // the 7 writes and the repository's first commit
			t.Fatalf("%d commits, want 8", len(got))
		}
		for i, w := range written {
			if c := got[len(written)-1-i]; c.GetSha() != w || c.GetTitle() != "Write f"+fmt.Sprint(i%2)+".txt" || c.GetAuthoredAt() == "" ||
				c.GetUrl() != testBase+"/acme/app/commit/"+w {
				t.Errorf("commit %d: %v, want %s", i, c, w)
			}
		}
		// Only the commits that change f1.txt, and only recent ones.
		if out := list(&gatewayv1.ListCommitsRequest{Ref: "feat", Path: "f1.txt"}); len(out.GetCommits()) != 3 || out.GetCommits()[0].GetSha() != written[5] {
			t.Errorf("path filter: %v", out.GetCommits())
		}
		since, err := f.ListCommits(ctx, alice, &gatewayv1.ListCommitsRequest{Repo: repo, Ref: written[6]})
		if err != nil {
			t.Fatal(err)
		}
		at, err := time.Parse(time.RFC3339, since.GetCommits()[2].GetAuthoredAt())
		if err != nil {
			t.Fatal(err)
		}
		cut := timestamppb.New(at)
		if out := list(&gatewayv1.ListCommitsRequest{Ref: "feat", Since: cut}); len(out.GetCommits()) != 4 { // late, 6, 5, 4
			t.Errorf("since %v: %d commits", cut.AsTime(), len(out.GetCommits()))
		}
		// The default branch has only its first commit.
		if out := list(&gatewayv1.ListCommitsRequest{}); len(out.GetCommits()) != 1 || out.GetRef() != "main" || out.GetNextCursor() != "" {
			t.Errorf("main: %v", out)
		}

		// Cursors it did not give are refused.
		first := list(&gatewayv1.ListCommitsRequest{Ref: "feat", Limit: &limit})
		for _, c := range []string{"3", "entry:3", "c.3.3", first.GetNextCursor() + "x", "cAAAAAAAAAAAAAAAAAAAAAAAAAA.3.3"} {
			_, err := f.ListCommits(ctx, alice, &gatewayv1.ListCommitsRequest{Repo: repo, Cursor: c})
			wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "cursor")
		}
		other := uint32(5)
		_, err = f.ListCommits(ctx, alice, &gatewayv1.ListCommitsRequest{Repo: repo, Cursor: first.GetNextCursor(), Limit: &other})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "pages of 3")
		_, err = f.ListCommits(ctx, alice, &gatewayv1.ListCommitsRequest{Repo: repo, Ref: "nope"})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)
	})
}
