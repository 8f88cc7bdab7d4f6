package github

import (
	"strings"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

const (
	acceptSHA  = "application/vnd.github.v3.sha"
	refSHA     = "aa218f56b14c9653891f9e74264a383fa43fefbd"
	blobSHA    = "95b966ae1c166bd92f8ae7d1c313e738c731dfc3"
	commitSHA  = "7638417db6d59f3c431d3e1f261cc637155684cd"
	currentSHA = "3d21ec53a331a6f037a91c368710b99387d012c1"
)

func commitRead(ref string, status int, reply string) exchange {
	return exchange{method: "GET", path: repoPath + "/commits/" + ref, accept: acceptSHA, status: status, reply: reply}
}

func TestCreateBranch(t *testing.T) {
	f := newFake(t,
		commitRead("v1.0", 200, refSHA),
		exchange{method: "POST", path: repoPath + "/git/refs", status: 201,
			body: `{"ref":"refs/heads/featureA","sha":"` + refSHA + `"}`, reply: fixture(t, "ref_created.json")},
	)
	got, err := f.provider(t).CreateBranch(ctx, noCall, &gatewayv1.CreateBranchRequest{Repo: hello, Branch: "refs/heads/featureA", FromRef: "v1.0"})
	if err != nil {
		t.Fatal(err)
	}
	wantProto(t, got, &forgev1.BranchRef{
		Forge: githubCo, Repo: hello, Branch: "featureA", Sha: refSHA, Url: "https://github.com/octocat/Hello-World/tree/featureA",
	})
}

// Without from_ref the branch starts at the default branch's head.
func TestCreateBranchFromDefaultBranch(t *testing.T) {
	f := newFake(t,
		repoRead(t, fixtureWith(t, "repo.json", "default_branch", "trunk")),
		commitRead("trunk", 200, refSHA),
		exchange{method: "POST", path: repoPath + "/git/refs", status: 201,
			body: `{"ref":"refs/heads/fix/crash","sha":"` + refSHA + `"}`, reply: fixture(t, "ref_created.json")},
	)
	if _, err := f.provider(t).CreateBranch(ctx, noCall, &gatewayv1.CreateBranchRequest{Repo: hello, Branch: "fix/crash"}); err != nil {
		t.Fatal(err)
	}
}

func TestCreateBranchFailures(t *testing.T) {
	f := newFake(t, commitRead("no-such-ref", 422, fixture(t, "error_422_no_commit.json")))
	p := f.provider(t)
	_, err := p.CreateBranch(ctx, noCall, &gatewayv1.CreateBranchRequest{Repo: hello, Branch: "featureA", FromRef: "no-such-ref"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, `create branch featureA in octocat/Hello-World: from_ref "no-such-ref" is not a branch, tag or commit`,
		"No commit found for SHA: no-such-ref", "nothing was created")

	f.expect(commitRead("main", 200, refSHA),
		exchange{method: "POST", path: repoPath + "/git/refs", status: 422,
			body: `{"ref":"refs/heads/featureA","sha":"` + refSHA + `"}`, reply: fixture(t, "error_422_ref_exists.json")})
	_, err = p.CreateBranch(ctx, noCall, &gatewayv1.CreateBranchRequest{Repo: hello, Branch: "featureA", FromRef: "main"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_ALREADY_EXISTS, "branch featureA already exists in octocat/Hello-World")
}

func TestBadBranchNamesNeverReachGitHub(t *testing.T) {
	f := newFake(t)
	p := f.provider(t)
	for _, b := range []string{"refs/heads/", "@", "a b", "a~1", "a^", "a:b", "a?", "a*", "a[", `a\b`, "a..b", "a@{1}", "a//b",
		"-x", "/x", "x/", "x.", "x.lock", "a/.b", ".hidden", "a\x01"} {
		_, err := p.CreateBranch(ctx, noCall, &gatewayv1.CreateBranchRequest{Repo: hello, Branch: b})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "not a valid branch name")
		_, err = p.WriteFile(ctx, noCall, &gatewayv1.WriteFileRequest{Repo: hello, Branch: b, Path: "a", Message: "m"})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "not a valid branch name")
	}
	if n := f.requests(); n != 0 {
		t.Errorf("%d requests reached GitHub", n)
	}
}

// writeHello is the write the tests make: notes/hello.txt on fix-crash.
func writeHello(sha string) *gatewayv1.WriteFileRequest {
	return &gatewayv1.WriteFileRequest{Repo: hello, Branch: "fix-crash", Path: "notes/hello.txt", Content: "Hello!\n", Message: "Greet", ExpectedSha: sha}
}

// putHello is the PUT writeHello sends ("Hello!\n" in base64).
func putHello(sha string, status int, reply string) exchange {
	body := `{"message":"Greet","content":"SGVsbG8hCg==","branch":"fix-crash"}`
	if sha != "" {
		body = `{"message":"Greet","content":"SGVsbG8hCg==","sha":"` + sha + `","branch":"fix-crash"}`
	}
	return exchange{method: "PUT", path: repoPath + "/contents/notes/hello.txt", body: body, status: status, reply: reply}
}

func TestWriteFile(t *testing.T) {
	f := newFake(t, repoRead(t, fixture(t, "repo.json")), putHello(currentSHA, 200, fixture(t, "file_committed.json")))
	got, err := f.provider(t).WriteFile(ctx, noCall, writeHello(strings.ToUpper(currentSHA)))
	if err != nil {
		t.Fatal(err)
	}
	wantProto(t, got, &forgev1.FileCommit{
		Forge: githubCo, Repo: hello, Branch: "fix-crash", Path: "notes/hello.txt", CommitSha: commitSHA, BlobSha: blobSHA,
		Url: "https://github.com/octocat/Hello-World/commit/" + commitSHA,
	})
}

// GitHub refuses to overwrite without the current sha, and with a stale
// one: both say nothing was written and what to do.
func TestWriteFileStaleOrMissingSHA(t *testing.T) {
	f := newFake(t,
		repoRead(t, fixture(t, "repo.json")), putHello(blobSHA, 409, fixture(t, "error_409_stale_sha.json")),
		repoRead(t, fixture(t, "repo.json")), putHello("", 422, fixture(t, "error_422_sha_missing.json")),
	)
	p := f.provider(t)
	_, err := p.WriteFile(ctx, noCall, writeHello(blobSHA))
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "write notes/hello.txt to fix-crash in octocat/Hello-World: notes/hello.txt changed on fix-crash since you read it",
		"does not match "+currentSHA, "nothing was written", "forge_read_file")
	_, err = p.WriteFile(ctx, noCall, writeHello(""))
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "notes/hello.txt already exists on fix-crash and expected_sha was not given; nothing was written",
		"pass its sha as expected_sha")
}

// The default branch is refused before anything is written, unless the
// call allows it; then the repository is not even looked up.
func TestWriteFileDefaultBranch(t *testing.T) {
	main := &gatewayv1.WriteFileRequest{Repo: hello, Branch: "Main", Path: "notes/hello.txt", Content: "Hello!\n", Message: "Greet"}
	f := newFake(t, repoRead(t, fixture(t, "repo.json")))
	_, err := f.provider(t).WriteFile(ctx, noCall, main)
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "main is the default branch of octocat/Hello-World, and this account may not commit to it; nothing was written",
		"forge_create_branch")

	main.Branch = "main"
	f.expect(exchange{method: "PUT", path: repoPath + "/contents/notes/hello.txt", status: 201,
		body: `{"message":"Greet","content":"SGVsbG8hCg==","branch":"main"}`, reply: fixture(t, "file_committed.json")})
	if _, err := f.provider(t).WriteFile(ctx, toolserver.Call{PushToDefaultBranch: true}, main); err != nil {
		t.Fatal(err)
	}
}

// The path is escaped segment by segment: a "#" or "?" in a file name
// would otherwise end the URL's path.
func TestWriteFileEscapesThePath(t *testing.T) {
	f := newFake(t, exchange{method: "PUT", path: repoPath + "/contents/docs/a b#c?.md", status: 201,
		body: `{"message":"m","content":"","branch":"docs"}`, reply: fixture(t, "file_committed.json")})
	_, err := f.provider(t).WriteFile(ctx, toolserver.Call{PushToDefaultBranch: true},
		&gatewayv1.WriteFileRequest{Repo: hello, Branch: "docs", Path: "docs/a b#c?.md", Message: "m"})
	if err != nil {
		t.Fatal(err)
	}
}

// A write to a renamed repository is answered with a 301 that must not be
// followed: nothing was written.
func TestWriteFileRedirectIsNotFollowed(t *testing.T) {
	f := newFake(t)
	f.expect(exchange{method: "PUT", path: repoPath + "/contents/notes/hello.txt", status: 301,
		body:   `{"message":"Greet","content":"SGVsbG8hCg==","branch":"fix-crash"}`,
		header: hdr("Location", f.srv.URL+"/repositories/1296269/contents/notes/hello.txt"), reply: fixture(t, "moved_301.json")})
	_, err := f.provider(t).WriteFile(ctx, toolserver.Call{PushToDefaultBranch: true}, writeHello(""))
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "repository moved", "PUT", "nothing was written")
}

func TestShortSHAsNeverReachGitHub(t *testing.T) {
	f := newFake(t)
	p := f.provider(t)
	_, err := p.WriteFile(ctx, noCall, writeHello("95b966a"))
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, `expected_sha "95b966a" is not a full sha`)
	_, err = p.MergePullRequest(ctx, noCall, &gatewayv1.MergePullRequestRequest{Repo: hello, PullNumber: 1350, ExpectedHeadSha: "6dcb09b"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, `expected_head_sha "6dcb09b" is not a full sha`)
	if n := f.requests(); n != 0 {
		t.Errorf("%d requests reached GitHub", n)
	}
}

func mergePut(body string, status int, reply string) exchange {
	return exchange{method: "PUT", path: repoPath + "/pulls/1350/merge", body: body, status: status, reply: reply}
}

func TestMergePullRequest(t *testing.T) {
	f := newFake(t,
		mergePut(`{"merge_method":"squash","sha":"`+headSHA+`"}`, 200, fixture(t, "merged.json")),
		mergePut(`{"merge_method":"merge","sha":"`+headSHA+`"}`, 200, fixture(t, "merged.json")),
	)
	p := f.provider(t)
	got, err := p.MergePullRequest(ctx, noCall, &gatewayv1.MergePullRequestRequest{
		Repo: hello, PullNumber: 1350, Method: gatewayv1.MergeMethod_MERGE_METHOD_SQUASH, ExpectedHeadSha: headSHA,
	})
	if err != nil {
		t.Fatal(err)
	}
	wantProto(t, got, &forgev1.MergeResult{
		Forge: githubCo, Repo: hello, Number: 1350, Method: "squash", Sha: headSHA, Url: "https://github.com/octocat/Hello-World/pull/1350",
	})
	got, err = p.MergePullRequest(ctx, noCall, &gatewayv1.MergePullRequestRequest{Repo: hello, PullNumber: 1350, ExpectedHeadSha: headSHA})
	if err != nil || got.GetMethod() != "merge" {
		t.Errorf("default method: %v %v", got, err)
	}
}

// A moved head and a pull request GitHub cannot merge are both refused
// with nothing merged, each saying why.
func TestMergePullRequestRefused(t *testing.T) {
	body := `{"merge_method":"merge","sha":"` + headSHA + `"}`
	f := newFake(t,
		mergePut(body, 409, fixture(t, "error_409_head_modified.json")),
		mergePut(body, 405, fixture(t, "error_405_not_mergeable.json")),
	)
	p := f.provider(t)
	merge := &gatewayv1.MergePullRequestRequest{Repo: hello, PullNumber: 1350, ExpectedHeadSha: headSHA}
	_, err := p.MergePullRequest(ctx, noCall, merge)
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "merge pull request octocat/Hello-World#1350: its head moved since you reviewed 6dcb09b5b578",
		"Head branch was modified", "nothing was merged", "forge_get_pull_request")
	_, err = p.MergePullRequest(ctx, noCall, merge)
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "merge pull request octocat/Hello-World#1350: GitHub cannot merge it: Pull Request is not mergeable; nothing was merged")
}

// from_ref goes into a request path (commits/{ref}), and go-github resolves
// the path against the API root: a ref climbing out with ".." would read
// another repository's commit with the author's token. Such a ref is
// refused before any request.
func TestCreateBranchRefusesAFromRefThatLeavesTheRepository(t *testing.T) {
	srv, p := stateful(t)
	mark := len(srv.Requests())
	for _, ref := range []string{"../../other/repo/commits/main", "main/../../x", "a?b", "%2e%2e", "."} {
		_, err := p.CreateBranch(ctx, noCall, &gatewayv1.CreateBranchRequest{Repo: "octocat/Hello-World", Branch: "topic", FromRef: ref})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "from_ref")
	}
	wantSent(t, srv, mark)
}
