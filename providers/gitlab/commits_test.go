package gitlab_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// TestListCommits holds forge_list_commits to GitLab's "List repository
// commits" (GET /projects/:id/repository/commits with ref_name, path,
// since, page and per_page, paged by X-Next-Page) and "Get a single
// commit", the ref resolved once and pinned.
func TestListCommits(t *testing.T) {
	s := fake(t)
	p := provider(t, s, 0)
	ctx := context.Background()
	if _, err := p.CreateBranch(ctx, noCall, &gatewayv1.CreateBranchRequest{Repo: proj, Branch: "hist"}); err != nil {
		t.Fatal(err)
	}
	var written []string
	for i := 1; i <= 5; i++ {
		fc, err := p.WriteFile(ctx, noCall, &gatewayv1.WriteFileRequest{Repo: proj, Branch: "hist", Path: fmt.Sprintf("notes/n%d.txt", i), Content: fmt.Sprint(i), Message: fmt.Sprintf("Note %d", i)})
		if err != nil {
			t.Fatal(err)
		}
		written = append(written, fc.GetCommitSha())
	}
	limit := uint32(2)
	var got []*forgev1.Commit
	cursor := ""
	for pages := 0; pages < 10; pages++ {
		out, err := p.ListCommits(ctx, noCall, &gatewayv1.ListCommitsRequest{Repo: proj, Ref: "hist", Cursor: cursor, Limit: &limit})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, out.GetCommits()...)
		if q := last(s).Query; q.Get("per_page") != "2" || q.Get("page") != fmt.Sprint(pages+1) || len(q.Get("ref_name")) != 40 {
			t.Errorf("page %d asked %v", pages, q)
		}
		if pages == 0 {
			// The branch moves on: the listing stays on its history.
			if _, err := p.WriteFile(ctx, noCall, &gatewayv1.WriteFileRequest{Repo: proj, Branch: "hist", Path: "late.txt", Content: "x", Message: "Late"}); err != nil {
				t.Fatal(err)
			}
		}
		if cursor = out.GetNextCursor(); cursor == "" {
			break
		}
	}
	if len(got) != 6 { // the five notes and the branch's first commit
		t.Fatalf("%d commits listed, want 6", len(got))
	}
	for i, w := range written {
		if c := got[len(written)-1-i]; c.GetSha() != w || c.GetTitle() != fmt.Sprintf("Note %d", i+1) || c.GetAuthor() != "forgetools-bot" || c.GetAuthoredAt() == "" {
			t.Errorf("commit %d: %v, want %s", i, c, w)
		}
	}
	// path and since go to GitLab.
	at, err := time.Parse(time.RFC3339, got[1].GetAuthoredAt()) // Note 4's
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.ListCommits(ctx, noCall, &gatewayv1.ListCommitsRequest{Repo: proj, Ref: "hist", Path: "notes", Since: timestamppb.New(at)})
	if err != nil {
		t.Fatal(err)
	}
	if q := last(s).Query; q.Get("path") != "notes" || q.Get("since") == "" {
		t.Errorf("filters sent %v", q)
	}
	if len(out.GetCommits()) != 2 || out.GetCommits()[0].GetSha() != written[4] || out.GetCommits()[1].GetSha() != written[3] {
		t.Errorf("path and since: %v", out.GetCommits())
	}
	// Refusals.
	_, err = p.ListCommits(ctx, noCall, &gatewayv1.ListCommitsRequest{Repo: proj, Ref: "nope"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "nope")
	_, err = p.ListCommits(ctx, noCall, &gatewayv1.ListCommitsRequest{Repo: proj, Cursor: "7"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "cursor")
	if r := last(s); r.Method == http.MethodGet && r.Query.Get("page") != "" && r.Query.Get("ref_name") == "" {
		t.Errorf("a bad cursor reached GitLab: %v", r)
	}
}
