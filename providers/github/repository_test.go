package github

import (
	"encoding/base64"
	"strings"
	"testing"
	"unicode/utf8"

	gh "github.com/google/go-github/v84/github"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

const readmeSHA = "2c778d197831b2182626e14670e5d4da3265fd3d"

var hello = "octocat/Hello-World"

// repoRead is the lookup of the default branch a read without a ref makes.
func repoRead(t *testing.T, reply string) exchange {
	return exchange{method: "GET", path: repoPath, accept: acceptRepo, reply: reply}
}

// openPulls is the one-item page GetRepo counts open pull requests with.
func openPulls(f *fakeGitHub, reply string, lastPage int) exchange {
	query := q("state", "open", "per_page", "1")
	ex := exchange{method: "GET", path: repoPath + "/pulls", query: query, reply: reply}
	if lastPage > 1 {
		ex.header = f.linkNext(repoPath+"/pulls", query, 2, lastPage)
	}
	return ex
}

// GitHub counts open pull requests as open issues; the read does not.
func TestGetRepo(t *testing.T) {
	f := newFake(t)
	f.expect(repoRead(t, fixture(t, "repo.json")), openPulls(f, "["+fixture(t, "pull.json")+"]", 0))
	got, err := f.provider(t).GetRepo(ctx, noCall, &gatewayv1.GetRepoRequest{Repo: hello})
	if err != nil {
		t.Fatal(err)
	}
	wantProto(t, got, &forgev1.Repository{
		Forge: githubCo, Repo: hello, DefaultBranch: "main", Description: "This your first repo!",
		Visibility: "public", Permission: "write", OpenIssues: 1, Url: "https://github.com/octocat/Hello-World",
	})

	f.expect(repoRead(t, fixtureWith(t, "repo.json", "open_issues_count", 40)), openPulls(f, "["+fixture(t, "pull.json")+"]", 25))
	got, err = f.provider(t).GetRepo(ctx, noCall, &gatewayv1.GetRepoRequest{Repo: hello})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetOpenIssues() != 15 {
		t.Errorf("open issues = %d, want 40 - 25 open pull requests (the last page of a one-item listing)", got.GetOpenIssues())
	}
}

func TestPermission(t *testing.T) {
	yes := gh.Ptr(true)
	for want, p := range map[string]*gh.RepositoryPermissions{
		"admin":    {Admin: yes, Maintain: yes, Push: yes, Triage: yes, Pull: yes},
		"maintain": {Maintain: yes, Push: yes, Triage: yes, Pull: yes},
		"write":    {Push: yes, Triage: yes, Pull: yes},
		"triage":   {Triage: yes, Pull: yes},
		"read":     {Pull: yes},
		"":         nil,
	} {
		if got := permission(p); got != want {
			t.Errorf("permission(%v) = %q, want %q", p, got, want)
		}
	}
}

func contentsRead(path, ref, reply string) exchange {
	return exchange{method: "GET", path: repoPath + "/contents/" + path, query: q("ref", ref), reply: reply}
}

// A read without a ref reads the default branch, and says so.
func TestReadFile(t *testing.T) {
	f := newFake(t, repoRead(t, fixture(t, "repo.json")), contentsRead("README.md", "main", fixture(t, "content_file.json")))
	got, err := f.provider(t).ReadFile(ctx, noCall, &gatewayv1.ReadFileRequest{Repo: hello, Path: "/README.md"})
	if err != nil {
		t.Fatal(err)
	}
	wantProto(t, got, &forgev1.FileContent{
		Forge: githubCo, Repo: hello, Path: "README.md", Ref: "main", Sha: readmeSHA, Size: 46,
		Content: "# Hello-World\n\nMy first repository on GitHub!\n",
		Url:     "https://github.com/octocat/Hello-World/blob/main/README.md",
	})
}

// fileReply is the documented file answer with other content.
func fileReply(t *testing.T, content []byte) string {
	return fixtureWith(t, "content_file.json", "content", base64.StdEncoding.EncodeToString(content))
}

func TestReadFileBinaryAndTruncated(t *testing.T) {
	long := strings.Repeat("a", maxFileBytes-1) + "é and more"
	f := newFake(t,
		contentsRead("README.md", "v1.0", fileReply(t, []byte("GIF89a\x00\x01\x02"))),
		contentsRead("README.md", "v1.0", fileReply(t, []byte(long))),
		contentsRead("README.md", "v1.0", fileReply(t, []byte("caf\xe9\n"))),
	)
	p := f.provider(t)
	read := func() *forgev1.FileContent {
		got, err := p.ReadFile(ctx, noCall, &gatewayv1.ReadFileRequest{Repo: hello, Path: "README.md", Ref: "v1.0"})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := read(); !got.GetBinary() || got.GetContent() != "" || got.GetSize() != 46 {
		t.Errorf("binary file: binary %v, content %q, size %d", got.GetBinary(), got.GetContent(), got.GetSize())
	}
	// The cut falls inside "é": the character goes whole.
	if got := read(); !got.GetTruncated() || got.GetContent() != long[:maxFileBytes-1] {
		t.Errorf("long file: truncated %v, %d bytes", got.GetTruncated(), len(got.GetContent()))
	}
	// Latin-1 text is text, its stray bytes shown as U+FFFD.
	if got := read(); got.GetBinary() || got.GetContent() != "caf\uFFFD\n" {
		t.Errorf("latin-1 file: binary %v, content %q", got.GetBinary(), got.GetContent())
	}
}

// Files over 1 MB come without content in the JSON form; the read fetches
// the blob the answer names raw, by sha, and keeps all of it up to the
// cap every forge reads to.
func TestReadFileOverOneMegabyte(t *testing.T) {
	big := strings.Repeat("0123456789\n", 150000)
	f := newFake(t,
		contentsRead("data/big.csv", "main", fixture(t, "content_large.json")),
		exchange{method: "GET", path: repoPath + "/git/blobs/8a9f4afdddc3eaf074a01117aa5dea6336758b0e", accept: mediaRaw, reply: big},
	)
	got, err := f.provider(t).ReadFile(ctx, noCall, &gatewayv1.ReadFileRequest{Repo: hello, Path: "data/big.csv", Ref: "main"})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetTruncated() || got.GetContent() != big || got.GetSize() != 1500000 {
		t.Errorf("truncated %v, %d bytes, size %d", got.GetTruncated(), len(got.GetContent()), got.GetSize())
	}
}

func TestReadFileNotAFile(t *testing.T) {
	for _, tc := range []struct {
		reply, want string
	}{
		{fixture(t, "content_dir.json"), "is a directory (4 entries); list it with forge_list_dir"},
		{fixture(t, "content_symlink.json"), `is a symbolic link to "/path/to/symlink/target"`},
		{fixture(t, "content_submodule.json"), "is a submodule (git://github.com/jquery/qunit.git)"},
	} {
		f := newFake(t, contentsRead("lib", "main", tc.reply))
		_, err := f.provider(t).ReadFile(ctx, noCall, &gatewayv1.ReadFileRequest{Repo: hello, Path: "lib", Ref: "main"})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "lib in octocat/Hello-World at main "+tc.want)
	}
}

func TestReadFileNotFound(t *testing.T) {
	f := newFake(t, exchange{method: "GET", path: repoPath + "/contents/nope.txt", query: q("ref", "main"), status: 404, reply: fixture(t, "error_404.json")})
	_, err := f.provider(t).ReadFile(ctx, noCall, &gatewayv1.ReadFileRequest{Repo: hello, Path: "nope.txt", Ref: "main"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "read nope.txt in octocat/Hello-World: GitHub answered 404 Not Found")
}

// A path that could change the URL, or that the contents API refuses, never
// reaches GitHub.
func TestBadPathsNeverReachGitHub(t *testing.T) {
	f := newFake(t)
	p := f.provider(t)
	for path, want := range map[string]string{
		"":        "names no file",
		"/":       "names no file",
		"../etc":  `contains ".."`,
		"a/../b":  `contains ".."`,
		"a//b":    "empty",
		"a/./b":   `"."`,
		"a\x00b":  "control character",
		"a\nb.go": "control character",
	} {
		_, err := p.ReadFile(ctx, noCall, &gatewayv1.ReadFileRequest{Repo: hello, Path: path, Ref: "main"})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, want)
		_, err = p.WriteFile(ctx, noCall, &gatewayv1.WriteFileRequest{Repo: hello, Path: path, Branch: "x", Message: "m"})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, want)
	}
	if n := f.requests(); n != 0 {
		t.Errorf("%d requests reached GitHub", n)
	}
}

// GitHub lists a submodule as a file with a tree for git_url; the listing
// calls it what it is.
func TestListDir(t *testing.T) {
	f := newFake(t, contentsRead("lib", "main", fixture(t, "content_dir.json")))
	got, err := f.provider(t).ListDir(ctx, noCall, &gatewayv1.ListDirRequest{Repo: hello, Path: "lib/", Ref: "main"})
	if err != nil {
		t.Fatal(err)
	}
	wantProto(t, got, &forgev1.DirListing{Forge: githubCo, Repo: hello, Path: "lib", Ref: "main", Entries: []*forgev1.DirEntry{
		{Name: "hello.go", Type: "file", Size: 12, Sha: "55c21f80aa6524ff206213a9453abd5e759c8f48"},
		{Name: "octokit", Type: "dir", Sha: "a84d88e7554fc1fa21bcbc4efae3c782a70d2b9d"},
		{Name: "qunit", Type: "submodule", Sha: "6ca3721222109997540bd6d9ccd396902e0ad2f9"},
		{Name: "current", Type: "symlink", Size: 8, Sha: "aef4023ef8db93fa7d34fb67c51aedf68ea723d7"},
	}})
}

func TestListDirRootAndFile(t *testing.T) {
	f := newFake(t,
		exchange{method: "GET", path: repoPath + "/contents/", reply: "[]"},
		repoRead(t, fixtureWith(t, "repo.json", "default_branch", "trunk")),
		contentsRead("README.md", "trunk", fixture(t, "content_file.json")),
	)
	p := f.provider(t)
	got, err := p.ListDir(ctx, noCall, &gatewayv1.ListDirRequest{Repo: hello})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetRef() != "trunk" || got.GetPath() != "" || len(got.GetEntries()) != 0 {
		t.Errorf("root listing: %v", got)
	}
	_, err = p.ListDir(ctx, noCall, &gatewayv1.ListDirRequest{Repo: hello, Path: "README.md", Ref: "trunk"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "README.md in octocat/Hello-World at trunk is a file, not a directory; read it with forge_read_file")
}

// Without a ref, the listing is one request: GitHub reads the default
// branch and names it in each entry's url, so no repository lookup is
// sent (only an empty answer, above, names nothing and costs one).
func TestListDirNamesTheDefaultBranchFromItsAnswer(t *testing.T) {
	dir := strings.ReplaceAll(fixture(t, "content_dir.json"), "?ref=main", "?ref=release%2F2.x")
	f := newFake(t, exchange{method: "GET", path: repoPath + "/contents/lib", reply: dir})
	got, err := f.provider(t).ListDir(ctx, noCall, &gatewayv1.ListDirRequest{Repo: hello, Path: "lib"})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetRef() != "release/2.x" || len(got.GetEntries()) != 4 {
		t.Errorf("listing: ref %q, %d entries; want release/2.x, 4", got.GetRef(), len(got.GetEntries()))
	}
}

func TestFileTextKeepsCharactersWhole(t *testing.T) {
	for _, tail := range []string{"é", "€", "😀"} {
		b := []byte(strings.Repeat("x", maxFileBytes-1) + tail)
		text, binary, truncated := fileText(b)
		if binary || !truncated || !utf8.ValidString(text) || len(text) != maxFileBytes-1 {
			t.Errorf("%q at the cap: %d bytes, valid %v, truncated %v", tail, len(text), utf8.ValidString(text), truncated)
		}
	}
}
