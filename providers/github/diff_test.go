package github

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/github/githubtest"
	"github.com/forgetools/forgetools/providers/internal/unidiff"
)

// sent is what the fake received since the mark, as "METHOD path?query".
func sent(srv *githubtest.Server, from int) []string {
	var out []string
	for _, r := range srv.Requests()[from:] {
		s := r.Method + " " + r.Path
		if len(r.Query) > 0 {
			s += "?" + r.Query.Encode()
		}
		out = append(out, s)
	}
	return out
}

func wantSent(t *testing.T, srv *githubtest.Server, from int, want ...string) {
	t.Helper()
	if got := sent(srv, from); !reflect.DeepEqual(got, want) {
		t.Errorf("requests\n got %q\nwant %q", got, want)
	}
}

const twoHunks = "@@ -3,4 +3,5 @@ func main() {\n \tx := 1\n-\ty := 2\n+\ty := 3\n+\tz := 4\n \tfmt.Println(x, y)\n }\n@@ -20,3 +21,2 @@ func helper() {\n \ta()\n-\tb()\n \tc()\n\\ No newline at end of file"

// A pull request's diff is its files' patches, each line under the side
// and number forge_submit_review takes: two requests (the pull request,
// one page of its files at a hundred), the base and head commits named.
func TestGetPullRequestDiffNumbersEveryLine(t *testing.T) {
	srv, p := stateful(t)
	n := srv.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Diff", Head: "feature", Files: []githubtest.Change{
		{Path: "main.go", Patch: twoHunks},
		{Path: "logo.png"}, // no patch: binary or too large
	}})
	mark := len(srv.Requests())
	got, err := p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: "octocat/Hello-World", PullNumber: uint64(n)})
	if err != nil {
		t.Fatal(err)
	}
	wantSent(t, srv, mark, fmt.Sprintf("GET %s/pulls/%d", repoPath, n), fmt.Sprintf("GET %s/pulls/%d/files?per_page=100", repoPath, n))
	if got.GetFilesChanged() != 2 || len(got.GetFiles()) != 2 || got.GetNextCursor() != "" {
		t.Fatalf("files %d of %d, next %q", len(got.GetFiles()), got.GetFilesChanged(), got.GetNextCursor())
	}
	if got.GetHeadSha() != srv.Head("octocat/Hello-World", "feature") || got.GetBaseSha() != srv.Head("octocat/Hello-World", "main") {
		t.Errorf("base %s head %s", got.GetBaseSha(), got.GetHeadSha())
	}
	f := got.GetFiles()[0]
	for _, line := range []string{"@@ -3,4 +3,5 @@ func main() {", "R3  \tx := 1", "L4 -\ty := 2", "R4 +\ty := 3", "R5 +\tz := 4", "L21 -\tb()", "R22  \tc()"} {
		if !strings.Contains(f.GetHunks(), line+"\n") {
			t.Errorf("hunks lack %q:\n%s", line, f.GetHunks())
		}
	}
	if f.GetAdditions() != 2 || f.GetDeletions() != 2 || f.GetStatus() != "modified" || f.GetTooLarge() {
		t.Errorf("main.go record %v", f)
	}
	if big := got.GetFiles()[1]; !big.GetTooLarge() || big.GetHunks() != "" {
		t.Errorf("a file without a patch is not too_large: %v", big)
	}
}

// A diff line that reads like a fence, a file header or a hunk header is
// a line of its hunk, numbered like the rest.
func TestGetPullRequestDiffKeepsFenceLikeLinesInTheirHunk(t *testing.T) {
	srv, p := stateful(t)
	patch := "@@ -1,3 +1,3 @@\n-```\n+diff --git a/x b/x\n+@@ -1 +99 @@\n ~~~~\n-+++ b/evil"
	n := srv.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Fences", Head: "feature", Files: []githubtest.Change{{Path: "doc.md", Patch: patch}}})
	got, err := p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: "octocat/Hello-World", PullNumber: uint64(n)})
	if err != nil {
		t.Fatal(err)
	}
	want := "@@ -1,3 +1,3 @@\nL1 -```\nR1 +diff --git a/x b/x\nR2 +@@ -1 +99 @@\nR3  ~~~~\nL3 -+++ b/evil\n"
	if len(got.GetFiles()) != 1 || got.GetFiles()[0].GetHunks() != want {
		t.Errorf("hunks\n%q\nwant\n%q", got.GetFiles()[0].GetHunks(), want)
	}
}

// A huge patch is read in pages of the render's byte budget, every line
// once, in order, through next_cursor.
func TestGetPullRequestDiffPagesAHugePatch(t *testing.T) {
	srv, p := stateful(t)
	var b strings.Builder
	const lines = 6000
	fmt.Fprintf(&b, "@@ -0,0 +1,%d @@", lines)
	for i := range lines {
		fmt.Fprintf(&b, "\n+line %d %s", i+1, strings.Repeat("x", 20))
	}
	n := srv.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Huge", Head: "feature", Files: []githubtest.Change{{Path: "big.txt", Patch: b.String()}}})
	seen, cursor := 0, ""
	for page := 0; ; page++ {
		got, err := p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: "octocat/Hello-World", PullNumber: uint64(n), Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		h := got.GetFiles()[0].GetHunks()
		if len(h) > unidiff.Budget {
			t.Fatalf("page %d holds %d bytes, over the budget %d", page, len(h), unidiff.Budget)
		}
		for _, l := range strings.Split(strings.TrimSuffix(h, "\n"), "\n")[1:] {
			seen++
			if want := fmt.Sprintf("R%d +line %d ", seen, seen); !strings.HasPrefix(l, want) {
				t.Fatalf("page %d: line %q, want %q...", page, l, want)
			}
		}
		if cursor = got.GetNextCursor(); cursor == "" {
			break
		}
		if page > 20 {
			t.Fatal("no last page")
		}
	}
	if seen != lines {
		t.Errorf("read %d lines of %d", seen, lines)
	}
}

// The file list is read page by page as GitHub's Link header names them.
func TestGetPullRequestDiffReadsEveryFilePage(t *testing.T) {
	srv, p := stateful(t)
	var files []githubtest.Change
	for i := range 230 {
		files = append(files, githubtest.Change{Path: fmt.Sprintf("f%03d.txt", i), Patch: "@@ -1 +1 @@\n-a\n+b"})
	}
	n := srv.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Many", Head: "feature", Files: files})
	mark := len(srv.Requests())
	got, err := p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: "octocat/Hello-World", PullNumber: uint64(n), Path: "f229.txt"})
	if err != nil {
		t.Fatal(err)
	}
	filesPath := fmt.Sprintf("GET %s/pulls/%d/files", repoPath, n)
	wantSent(t, srv, mark, fmt.Sprintf("GET %s/pulls/%d", repoPath, n), filesPath+"?per_page=100", filesPath+"?page=2&per_page=100", filesPath+"?page=3&per_page=100")
	if got.GetFilesChanged() != 230 || len(got.GetFiles()) != 1 || got.GetFiles()[0].GetPath() != "f229.txt" {
		t.Errorf("path filter: %d files of %d", len(got.GetFiles()), got.GetFilesChanged())
	}
}

// diffEntry is one changed file as GitHub's description has it.
func diffEntry(name, status string, patch *string, extra map[string]any) map[string]any {
	e := map[string]any{
		"sha": "bbcd538c8e72b8c175046e27cc8f907076331401", "filename": name, "status": status,
		"additions": 1, "deletions": 1, "changes": 2,
		"blob_url":     "https://github.com/octocat/Hello-World/blob/6dcb09b5b57875f334f61aebed695e2e4193db5e/" + name,
		"raw_url":      "https://github.com/octocat/Hello-World/raw/6dcb09b5b57875f334f61aebed695e2e4193db5e/" + name,
		"contents_url": "https://api.github.com/repos/octocat/Hello-World/contents/" + name + "?ref=6dcb09b5b57875f334f61aebed695e2e4193db5e",
	}
	if patch != nil {
		e["patch"] = *patch
	}
	for k, v := range extra {
		e[k] = v
	}
	return e
}

// A forge ignoring per_page sends all 150 files on one page, with no
// Link: each is read once; GitHub's statuses map to the render's, and a
// rename without a patch is no too_large file.
func TestGetPullRequestDiffOnAFileListIgnoringPerPage(t *testing.T) {
	srv, p := stateful(t)
	n := srv.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Oversized", Head: "feature"})
	one := "@@ -1 +1 @@\n-a\n+b"
	var page []map[string]any
	for i := range 146 {
		page = append(page, diffEntry(fmt.Sprintf("f%03d", i), "modified", &one, nil))
	}
	page = append(page,
		diffEntry("moved.txt", "renamed", nil, map[string]any{"previous_filename": "old.txt", "additions": 0, "deletions": 0, "changes": 0}),
		diffEntry("gone.txt", "removed", &one, nil),
		diffEntry("new.txt", "added", &one, nil),
		diffEntry("huge.bin", "changed", nil, map[string]any{"changes": 90000}))
	body, _ := json.Marshal(page)
	srv.Inject(fmt.Sprintf("GET %s/pulls/%d/files", repoPath, n), githubtest.Response{Body: string(body)})
	var all []*forgev1.DiffFile
	cursor := ""
	for range 5 {
		got, err := p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: "octocat/Hello-World", PullNumber: uint64(n), Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		if got.GetFilesChanged() != 150 {
			t.Fatalf("files_changed %d, want 150", got.GetFilesChanged())
		}
		all = append(all, got.GetFiles()...)
		if cursor = got.GetNextCursor(); cursor == "" {
			break
		}
		srv.Inject(fmt.Sprintf("GET %s/pulls/%d/files", repoPath, n), githubtest.Response{Body: string(body)})
	}
	if len(all) != 150 {
		t.Fatalf("read %d files of 150", len(all))
	}
	tail := all[146:]
	for i, want := range []struct {
		status, prev string
		tooLarge     bool
	}{{"renamed", "old.txt", false}, {"deleted", "", false}, {"added", "", false}, {"modified", "", true}} {
		if f := tail[i]; f.GetStatus() != want.status || f.GetPreviousPath() != want.prev || f.GetTooLarge() != want.tooLarge {
			t.Errorf("%s: status %s prev %q too_large %v; want %+v", f.GetPath(), f.GetStatus(), f.GetPreviousPath(), f.GetTooLarge(), want)
		}
	}
}

// A patch that is not a unified diff is refused, not guessed at.
func TestGetPullRequestDiffRefusesAnUnreadablePatch(t *testing.T) {
	srv, p := stateful(t)
	n := srv.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Broken", Head: "feature", Files: []githubtest.Change{{Path: "x", Patch: "@@ -1,2 +1,2 @@\n-a\n+b\n+c\n+d"}}})
	_, err := p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: "octocat/Hello-World", PullNumber: uint64(n)})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, "diff of x could not be read", "forge_read_file")
}

// compare reads head's commit, then compares base with that commit:
// the counts both ways, the commits ahead oldest first, and the files
// changed from the merge base, with their hunks.
func TestCompare(t *testing.T) {
	srv, p := stateful(t)
	const repo = "octocat/Hello-World"
	base := srv.Head(repo, "main")
	first := srv.Commit(repo, "feature", "Add a\n\nbody", githubtest.File{Path: "a.txt", Content: "one\ntwo\n"})
	second := srv.Commit(repo, "feature", "Change README", githubtest.File{Path: "README.md", Content: "# Hello-World\nmore\n"})
	srv.Commit(repo, "main", "Elsewhere", githubtest.File{Path: "b.txt", Content: "b\n"})
	mark := len(srv.Requests())
	got, err := p.Compare(ctx, noCall, &gatewayv1.CompareRequest{Repo: repo, Base: "main", Head: "feature"})
	if err != nil {
		t.Fatal(err)
	}
	wantSent(t, srv, mark, "GET "+repoPath+"/commits/feature", "GET "+repoPath+"/compare/main..."+second)
	if got.GetAheadBy() != 2 || got.GetBehindBy() != 1 || got.GetBaseSha() != base || got.GetHeadSha() != second {
		t.Errorf("ahead %d behind %d base %s head %s", got.GetAheadBy(), got.GetBehindBy(), got.GetBaseSha(), got.GetHeadSha())
	}
	if len(got.GetCommits()) != 2 || got.GetCommits()[0].GetSha() != first || got.GetCommits()[0].GetTitle() != "Add a" || got.GetCommits()[1].GetSha() != second {
		t.Errorf("commits %v", got.GetCommits())
	}
	if got.GetFilesChanged() != 2 || len(got.GetFiles()) != 2 {
		t.Fatalf("files %v", got.GetFiles())
	}
	readme, added := got.GetFiles()[0], got.GetFiles()[1]
	if readme.GetPath() != "README.md" || !strings.Contains(readme.GetHunks(), "R2 +more\n") || readme.GetStatus() != "modified" {
		t.Errorf("README.md: %v", readme)
	}
	if added.GetPath() != "a.txt" || added.GetStatus() != "added" || !strings.Contains(added.GetHunks(), "R1 +one\nR2 +two\n") {
		t.Errorf("a.txt: %v", added)
	}
	// The path filter reads one file of the same compare.
	paged, err := p.Compare(ctx, noCall, &gatewayv1.CompareRequest{Repo: repo, Base: "main", Head: "feature", Path: "a.txt"})
	if err != nil || len(paged.GetFiles()) != 1 || paged.GetFiles()[0].GetPath() != "a.txt" {
		t.Fatalf("path filter: %v %v", paged, err)
	}
}

// Refs git could never name are refused before anything is sent; an
// unknown ref is not_found.
func TestCompareRefs(t *testing.T) {
	srv, p := stateful(t)
	mark := len(srv.Requests())
	for _, ref := range []string{"main..feature", "a?b", "x#y", "%2e%2e", "a b", "a\x01"} {
		_, err := p.Compare(ctx, noCall, &gatewayv1.CompareRequest{Repo: "octocat/Hello-World", Base: ref, Head: "feature"})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "base")
	}
	wantSent(t, srv, mark)
	_, err := p.Compare(ctx, noCall, &gatewayv1.CompareRequest{Repo: "octocat/Hello-World", Base: "main", Head: "nope"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "head", "nope")
	_, err = p.Compare(ctx, noCall, &gatewayv1.CompareRequest{Repo: "octocat/Hello-World", Base: "nope", Head: "feature"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "nope")
}

// A branch's history is read a page at a time from the commit the first
// page resolved, however the branch moves meanwhile: no gap, no repeat.
func TestListCommitsPages(t *testing.T) {
	srv, p := stateful(t)
	const repo = "octocat/Hello-World"
	var shas []string
	for i := range 5 {
		shas = append(shas, srv.Commit(repo, "main", fmt.Sprintf("Commit %d\n\nbody", i), githubtest.File{Path: fmt.Sprintf("f%d", i), Content: "x"}))
	}
	head := shas[4]
	limit := uint32(2)
	mark := len(srv.Requests())
	var got []string
	cursor := ""
	for page := 0; page < 4; page++ {
		out, err := p.ListCommits(ctx, noCall, &gatewayv1.ListCommitsRequest{Repo: repo, Limit: &limit, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		if out.GetRef() != "main" {
			t.Errorf("ref %q", out.GetRef())
		}
		for _, c := range out.GetCommits() {
			got = append(got, c.GetSha())
		}
		if page == 0 {
			if c := out.GetCommits()[0]; c.GetTitle() != "Commit 4" || c.GetAuthor() != "octocat" || c.GetAuthoredAt() == "" || !strings.HasSuffix(c.GetUrl(), "/commit/"+head) {
				t.Errorf("first commit %v", c)
			}
			srv.Commit(repo, "main", "After the first page", githubtest.File{Path: "late", Content: "x"})
		}
		if cursor = out.GetNextCursor(); cursor == "" {
			break
		}
	}
	want := []string{shas[4], shas[3], shas[2], shas[1], shas[0]}
	if len(got) != 6 || !reflect.DeepEqual(got[:5], want) {
		t.Errorf("history %q, want %q and the initial commit", got, want)
	}
	q := func(page string) string {
		v := url.Values{"sha": {head}, "per_page": {"2"}, "page": {page}}
		return "GET " + repoPath + "/commits?" + v.Encode()
	}
	wantSent(t, srv, mark, "GET "+repoPath, "GET "+repoPath+"/commits/main", q("1"), "GET "+repoPath, q("2"), "GET "+repoPath, q("3"))
}

// path and since filter the history on the forge; a cursor the provider
// did not issue is refused with nothing sent.
func TestListCommitsFilters(t *testing.T) {
	srv, p := stateful(t)
	const repo = "octocat/Hello-World"
	a := srv.Commit(repo, "feature", "Touch docs", githubtest.File{Path: "docs/a.md", Content: "a"})
	srv.Commit(repo, "feature", "Touch code", githubtest.File{Path: "main.go", Content: "package main"})
	out, err := p.ListCommits(ctx, noCall, &gatewayv1.ListCommitsRequest{Repo: repo, Ref: "feature", Path: "/docs/"})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.GetCommits()) != 1 || out.GetCommits()[0].GetSha() != a || out.GetNextCursor() != "" {
		t.Errorf("docs history %v", out.GetCommits())
	}
	all, err := p.ListCommits(ctx, noCall, &gatewayv1.ListCommitsRequest{Repo: repo, Ref: "feature"})
	if err != nil || len(all.GetCommits()) != 3 {
		t.Fatalf("feature history %v %v", all, err)
	}
	at, err := time.Parse(time.RFC3339, all.GetCommits()[0].GetAuthoredAt())
	if err != nil {
		t.Fatal(err)
	}
	mark := len(srv.Requests())
	recent, err := p.ListCommits(ctx, noCall, &gatewayv1.ListCommitsRequest{Repo: repo, Ref: "feature", Since: timestamppb.New(at)})
	if err != nil || len(recent.GetCommits()) != 1 || recent.GetCommits()[0].GetTitle() != "Touch code" {
		t.Errorf("since %s: %v %v", at, recent.GetCommits(), err)
	}
	if got := srv.Requests()[len(srv.Requests())-1].Query.Get("since"); got != at.UTC().Format(time.RFC3339) {
		t.Errorf("since sent as %q", got)
	}
	mark = len(srv.Requests())
	for _, c := range []string{"nope", "cAAAA.x.2", "c" + strings.Repeat("A", 27) + ".02.2"} {
		_, err := p.ListCommits(ctx, noCall, &gatewayv1.ListCommitsRequest{Repo: repo, Cursor: c})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "cursor")
	}
	wantSent(t, srv, mark)
	// Well formed, but naming a commit the repository does not have: the
	// forge's 404 says so.
	_, err = p.ListCommits(ctx, noCall, &gatewayv1.ListCommitsRequest{Repo: repo, Ref: "main", Cursor: "c" + strings.Repeat("A", 27) + ".2.2"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "cursor", "does not have")
	// A ref that would climb out of the repository's path is refused
	// before anything is sent.
	mark = len(srv.Requests())
	_, err = p.ListCommits(ctx, noCall, &gatewayv1.ListCommitsRequest{Repo: repo, Ref: "../../../other/secret/commits/main"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "ref")
	wantSent(t, srv, mark)
	_, err = p.ListCommits(ctx, noCall, &gatewayv1.ListCommitsRequest{Repo: repo, Ref: "nope"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "nope")
}

// A forge ignoring per_page answers more commits than a page: refused,
// not shown past the page (the next page's offset would be wrong).
func TestListCommitsRefusesAnOversizedPage(t *testing.T) {
	srv, p := stateful(t)
	for i := range 4 {
		srv.Commit("octocat/Hello-World", "main", fmt.Sprint("c", i), githubtest.File{Path: fmt.Sprint(i), Content: "x"})
	}
	// The fake's own answer of all five, sent for a page of two.
	req, _ := http.NewRequest(http.MethodGet, srv.APIURL()+"repos/octocat/Hello-World/commits?per_page=100", nil)
	req.Header.Set("Authorization", "Bearer "+authorToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	srv.Inject("GET "+repoPath+"/commits", githubtest.Response{Body: string(body)})
	limit := uint32(2)
	_, err = p.ListCommits(ctx, noCall, &gatewayv1.ListCommitsRequest{Repo: "octocat/Hello-World", Limit: &limit})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, "5 commits for a page of 2")
}

// A forge naming a next page of files forever is read for thirty pages
// (GitHub's 3,000 files at a hundred a page) and no more.
func TestGetPullRequestDiffStopsAtGitHubsFileCap(t *testing.T) {
	srv, p := stateful(t)
	n := srv.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Endless", Head: "feature"})
	one := "@@ -1 +1 @@\n-a\n+b"
	route := fmt.Sprintf("GET %s/pulls/%d/files", repoPath, n)
	for i := range 40 {
		body, _ := json.Marshal([]map[string]any{diffEntry(fmt.Sprintf("f%02d", i), "modified", &one, nil)})
		next := fmt.Sprintf(`<%srepos/octocat/Hello-World/pulls/%d/files?per_page=100&page=%d>; rel="next"`, srv.APIURL(), n, i+2)
		srv.Inject(route, githubtest.Response{Body: string(body), Header: http.Header{"Link": {next}}})
	}
	mark := len(srv.Requests())
	got, err := p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: "octocat/Hello-World", PullNumber: uint64(n)})
	if err != nil {
		t.Fatal(err)
	}
	if sent := len(srv.Requests()) - mark; sent != 31 || got.GetFilesChanged() != 30 {
		t.Errorf("%d requests, %d files; want the pull request and 30 pages of one file", sent, got.GetFilesChanged())
	}
}
