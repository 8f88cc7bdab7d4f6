package gitea_test

import (
	"context"
	"fmt"
	"net/url"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/gitea/giteatest"
)

// lastCommitsQuery is the query of the last GET .../commits the fake saw.
func lastCommitsQuery(t *testing.T, s *giteatest.Server) url.Values {
	t.Helper()
	rs := s.Requests()
	for i := len(rs) - 1; i >= 0; i-- {
		if rs[i].Method == "GET" && rs[i].Path == "/repos/"+repo+"/commits" {
			return rs[i].Query
		}
	}
	t.Fatal("no commit list was asked for")
	return nil
}

// TestListCommits holds forge_list_commits to Gitea's GET .../commits
// (sha, path, page, limit; stat, verification and files off) against
// the fake's history: the ref resolved once and pinned, pages in order
// with no gap or repeat while the branch moves on, a path's history in
// one page, and the refusals for what Gitea cannot page.
func TestListCommits(t *testing.T) {
	s := fake(t, false)
	p := provider(t, s, false, 0)
	ctx := context.Background()
	if _, err := p.CreateBranch(ctx, noCall, &gatewayv1.CreateBranchRequest{Repo: repo, Branch: "hist"}); err != nil {
		t.Fatal(err)
	}
	first := s.Head(repo, "hist")
	var written []string
	write := func(path, message string) {
		t.Helper()
		fc, err := p.WriteFile(ctx, noCall, &gatewayv1.WriteFileRequest{Repo: repo, Branch: "hist", Path: path, Content: message, Message: message})
		if err != nil {
			t.Fatal(err)
		}
		written = append(written, fc.GetCommitSha())
	}
	for i := 1; i <= 5; i++ {
		write(fmt.Sprintf("notes/n%d.txt", i), fmt.Sprintf("Note %d", i))
	}
	write("CHANGELOG.md", "Changelog")
	want := []string{written[5], written[4], written[3], written[2], written[1], written[0], first}

	limit := uint32(3)
	var got []*forgev1.Commit
	cursor := ""
	pages := 0
	for ; pages < 10; pages++ {
		out, err := p.ListCommits(ctx, noCall, &gatewayv1.ListCommitsRequest{Repo: repo, Ref: "hist", Cursor: cursor, Limit: &limit})
		if err != nil {
			t.Fatal(err)
		}
		if out.GetRef() != "hist" || out.GetRepo() != repo {
			t.Errorf("page %d: ref %q repo %q", pages, out.GetRef(), out.GetRepo())
		}
		got = append(got, out.GetCommits()...)
		q := lastCommitsQuery(t, s)
		if q.Get("limit") != "3" || q.Get("page") != fmt.Sprint(pages+1) || q.Get("sha") != want[0] ||
			q.Get("stat") != "false" || q.Get("verification") != "false" || q.Get("files") != "false" {
			t.Errorf("page %d asked %v", pages, q)
		}
		if pages == 0 {
			// The branch moves on: the listing stays on the history it began.
			if _, err := p.WriteFile(ctx, noCall, &gatewayv1.WriteFileRequest{Repo: repo, Branch: "hist", Path: "late.txt", Content: "x", Message: "Late"}); err != nil {
				t.Fatal(err)
			}
		}
		if cursor = out.GetNextCursor(); cursor == "" {
			break
		}
	}
	if pages != 2 {
		t.Errorf("%d pages after the first, want 2 (3 + 3 + 1)", pages)
	}
	if len(got) != len(want) {
		t.Fatalf("%d commits listed, want %d: %v", len(got), len(want), got)
	}
	for i, c := range got {
		if c.GetSha() != want[i] {
			t.Errorf("commit %d is %s, want %s", i, c.GetSha(), want[i])
		}
		if c.GetAuthoredAt() == "" || c.GetUrl() != "https://"+s.Host()+"/"+repo+"/commit/"+want[i] {
			t.Errorf("commit %d: %v", i, c)
		}
	}
	if c := got[1]; c.GetTitle() != "Note 5" || c.GetAuthor() != "forgetools-bot" {
		t.Errorf("Note 5 is %v", c)
	}
	if _, err := time.Parse(time.RFC3339, got[0].GetAuthoredAt()); err != nil {
		t.Errorf("authored_at %q: %v", got[0].GetAuthoredAt(), err)
	}

	// A path's history: the notes only, newest first, in one page.
	out, err := p.ListCommits(ctx, noCall, &gatewayv1.ListCommitsRequest{Repo: repo, Ref: "hist", Path: "notes"})
	if err != nil {
		t.Fatal(err)
	}
	if q := lastCommitsQuery(t, s); q.Get("path") != "notes" {
		t.Errorf("path sent as %v", q)
	}
	if n := out.GetCommits(); len(n) != 5 || n[0].GetSha() != written[4] || n[4].GetSha() != written[0] || out.GetNextCursor() != "" {
		t.Errorf("notes' history: %v (next %q)", n, out.GetNextCursor())
	}
	// One no commit touched: Gitea's 404 is an empty history.
	out, err = p.ListCommits(ctx, noCall, &gatewayv1.ListCommitsRequest{Repo: repo, Ref: "hist", Path: "nowhere"})
	if err != nil || len(out.GetCommits()) != 0 {
		t.Errorf("untouched path: %v, %v", out, err)
	}
	// More than a page of a path: Gitea would hand back its own page size.
	two := uint32(2)
	_, err = p.ListCommits(ctx, noCall, &gatewayv1.ListCommitsRequest{Repo: repo, Ref: "hist", Path: "notes", Limit: &two})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED, "5 commits change notes")
	// No since filter is sent (nothing is read).
	before := len(s.Requests())
	_, err = p.ListCommits(ctx, noCall, &gatewayv1.ListCommitsRequest{Repo: repo, Ref: "hist", Since: timestamppb.Now()})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED, "since")
	if len(s.Requests()) != before {
		t.Errorf("a refused since still sent %d requests", len(s.Requests())-before)
	}
	// A ref that names nothing.
	_, err = p.ListCommits(ctx, noCall, &gatewayv1.ListCommitsRequest{Repo: repo, Ref: "no-such-branch"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "no-such-branch")
	// The default branch when no ref is given: its one seeded commit.
	out, err = p.ListCommits(ctx, noCall, &gatewayv1.ListCommitsRequest{Repo: repo})
	if err != nil || out.GetRef() != "main" || len(out.GetCommits()) != 1 || out.GetCommits()[0].GetSha() != s.Head(repo, "main") {
		t.Errorf("default branch: %v, %v", out, err)
	}
}
