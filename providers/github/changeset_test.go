package github

import (
	"slices"
	"strings"
	"testing"
	"time"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/github/githubtest"
)

// The change set on GitHub's git data API, against the stateful fake
// (held to GitHub's description): one commit whose parent is the head
// read, or nothing on the branch.

const helloRepo = "octocat/Hello-World"

// seedFeature gives feature an update target, a delete target and an
// untouched file, and returns its head.
func seedFeature(srv *githubtest.Server) string {
	return srv.Commit(helloRepo, "feature", "Seed",
		githubtest.File{Path: "src/app.go", Content: "package app\n"},
		githubtest.File{Path: "docs/old.md", Content: "old\n"},
		githubtest.File{Path: "docs/keep.md", Content: "keep\n"})
}

// writesSince are the requests from index from on that are not reads.
func writesSince(srv *githubtest.Server, from int) []string {
	var out []string
	for _, r := range srv.Requests()[from:] {
		if r.Method != "GET" {
			out = append(out, r.Method+" "+strings.TrimPrefix(r.Path, "/repos/"+helloRepo))
		}
	}
	return out
}

func threeFiles(head, appSHA, oldSHA string) *gatewayv1.CommitFilesRequest {
	return &gatewayv1.CommitFilesRequest{Repo: helloRepo, Branch: "feature", Message: "Fix and tidy", ExpectedHeadSha: head, Files: []*gatewayv1.FileChange{
		{Path: "src/app.go", Content: "package app // fixed\n", ExpectedSha: appSHA},
		{Path: "docs/new/guide.md", Content: "# Guide\n"},
		{Path: "docs/old.md", Delete: true, ExpectedSha: oldSHA},
	}}
}

func TestCommitFilesIsOneCommit(t *testing.T) {
	srv, p := stateful(t)
	head := seedFeature(srv)
	before := len(srv.Requests())
	got, err := p.CommitFiles(ctx, noCall, threeFiles(head[:12], forgemodel.BlobSHA("package app\n"), forgemodel.BlobSHA("old\n")[:7]))
	if err != nil {
		t.Fatal(err)
	}
	if w := writesSince(srv, before); !slices.Equal(w, []string{"POST /git/blobs", "POST /git/blobs", "POST /git/trees", "POST /git/commits", "PATCH /git/refs/heads/feature"}) {
		t.Errorf("writes %v", w)
	}
	now := srv.Head(helloRepo, "feature")
	if got.GetCommitSha() != now || got.GetParentSha() != head || now == head {
		t.Errorf("commit %s parent %s; branch at %s, was %s", got.GetCommitSha(), got.GetParentSha(), now, head)
	}
	for path, want := range map[string]string{"src/app.go": "package app // fixed\n", "docs/new/guide.md": "# Guide\n", "docs/keep.md": "keep\n", "README.md": "# Hello-World\n"} {
		if text, ok := srv.FileAt(helloRepo, now, path); !ok || text != want {
			t.Errorf("%s at the commit: %q, %v", path, text, ok)
		}
	}
	if _, ok := srv.FileAt(helloRepo, now, "docs/old.md"); ok {
		t.Error("docs/old.md survived its delete")
	}
	var statuses []string
	for _, f := range got.GetFiles() {
		statuses = append(statuses, f.GetPath()+" "+f.GetStatus()+" "+f.GetBlobSha())
	}
	want := []string{"src/app.go updated " + forgemodel.BlobSHA("package app // fixed\n"), "docs/new/guide.md created " + forgemodel.BlobSHA("# Guide\n"), "docs/old.md deleted "}
	if !slices.Equal(statuses, want) {
		t.Errorf("files %q, want %q", statuses, want)
	}
	if got.GetUrl() != "https://github.com/octocat/Hello-World/commit/"+now {
		t.Errorf("url %s", got.GetUrl())
	}
}

// One stale sha, a stale head, a create over a file or a path through a
// file refuses the whole set before any write: no request but reads,
// and the branch where it was.
func TestCommitFilesRefusedWritesNothing(t *testing.T) {
	srv, p := stateful(t)
	head := seedFeature(srv)
	app, old := forgemodel.BlobSHA("package app\n"), forgemodel.BlobSHA("old\n")
	stale := threeFiles(head, app, forgemodel.BlobSHA("older\n"))
	movedHead := threeFiles(strings.Repeat("0", 40), app, old)
	overwrite := threeFiles(head, app, old)
	overwrite.Files[1].Path = "docs/keep.md"
	through := threeFiles(head, app, old)
	through.Files[1].Path = "src/app.go/x.md"
	dir := threeFiles(head, app, old)
	dir.Files[1].Path = "docs"
	gone := threeFiles(head, app, old)
	gone.Files[2].Path = "docs/none.md"
	for name, c := range map[string]struct {
		req  *gatewayv1.CommitFilesRequest
		want []string
	}{
		"stale sha":           {stale, []string{"docs/old.md on feature in octocat/Hello-World is now blob " + old, "it changed since you read it", "nothing was written"}},
		"stale head":          {movedHead, []string{"feature is at " + head + ", not the expected_head_sha", "nothing was written"}},
		"create over a file":  {overwrite, []string{"docs/keep.md on feature", "already exists", "pass its sha as expected_sha"}},
		"create through file": {through, []string{"src/app.go/x.md on feature", "cannot be a file: src/app.go is a file there"}},
		"create over a dir":   {dir, []string{"docs on feature", "is a directory"}},
		"delete of nothing":   {gone, []string{"docs/none.md on feature", "does not exist"}},
	} {
		t.Run(name, func(t *testing.T) {
			before := len(srv.Requests())
			_, err := p.CommitFiles(ctx, noCall, c.req)
			wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, c.want...)
			if w := writesSince(srv, before); len(w) != 0 {
				t.Errorf("a refused set wrote %v", w)
			}
			if srv.Head(helloRepo, "feature") != head {
				t.Error("a refused set moved the branch")
			}
		})
	}
	before := len(srv.Requests())
	main := threeFiles("", app, old)
	main.Branch = "main"
	_, err := p.CommitFiles(ctx, noCall, main)
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "main is the default branch", "nothing was written")
	if w := writesSince(srv, before); len(w) != 0 {
		t.Errorf("a set refused for the default branch wrote %v", w)
	}
}

// A push landing between the read and the ref update: the commit is
// made on the head read, GitHub refuses the update as no fast-forward,
// and the branch keeps the push, with none of the set on it.
func TestCommitFilesHeadMovedInBetween(t *testing.T) {
	srv, p := stateful(t)
	head := seedFeature(srv)
	release := make(chan struct{})
	srv.Delay("POST /repos/"+helloRepo+"/git/commits", release)
	done := make(chan error, 1)
	go func() {
		_, err := p.CommitFiles(ctx, noCall, threeFiles(head, forgemodel.BlobSHA("package app\n"), forgemodel.BlobSHA("old\n")))
		done <- err
	}()
	for len(srv.Pending()) > 0 { // until the commit is made and its answer held
		select {
		case err := <-done:
			t.Fatalf("the set ended before its commit: %v", err)
		default:
		}
		time.Sleep(time.Millisecond)
	}
	pushed := srv.Commit(helloRepo, "feature", "Someone else", githubtest.File{Path: "docs/keep.md", Content: "theirs\n"})
	close(release)
	err := <-done
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "feature moved since it was read at "+head, "Update is not a fast forward", "nothing was written to the branch")
	if now := srv.Head(helloRepo, "feature"); now != pushed {
		t.Errorf("branch at %s, want the push %s", now, pushed)
	}
	if text, _ := srv.FileAt(helloRepo, "feature", "src/app.go"); text != "package app\n" {
		t.Errorf("src/app.go on the branch: %q", text)
	}
	if _, ok := srv.FileAt(helloRepo, "feature", "docs/new/guide.md"); ok {
		t.Error("the set's create is on the branch")
	}
}

// Hostile answers: a ref naming no sha, a blob answer without one; the
// set stops there and the branch is not moved.
func TestCommitFilesHostileAnswers(t *testing.T) {
	srv, p := stateful(t)
	head := seedFeature(srv)
	req := threeFiles(head, forgemodel.BlobSHA("package app\n"), forgemodel.BlobSHA("old\n"))
	srv.Inject("GET /repos/"+helloRepo+"/git/ref/heads/feature", githubtest.Response{Status: 200,
		Body:           `{"ref":"refs/heads/feature","node_id":"REF_x","url":"https://api.github.com/x","object":{"type":"commit","sha":"../../../user","url":"https://api.github.com/x"}}`,
		OffDescription: "a hostile forge's ref naming a path, not a sha"})
	before := len(srv.Requests())
	_, err := p.CommitFiles(ctx, noCall, req)
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, `GitHub named the branch's head "../../../user", which is not a sha`)
	if w := writesSince(srv, before); len(w) != 0 {
		t.Errorf("wrote %v after a hostile ref", w)
	}
	srv.Inject("POST /repos/"+helloRepo+"/git/blobs", githubtest.Response{Status: 201, Body: `{"url":"https://api.github.com/x","sha":""}`})
	_, err = p.CommitFiles(ctx, noCall, req)
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, `GitHub named a blob it wrote "", which is not a sha`, "the branch was not moved")
	if srv.Head(helloRepo, "feature") != head {
		t.Error("the branch moved")
	}
}
