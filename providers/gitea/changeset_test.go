package gitea_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// TestCommitFiles: a change set is one POST .../contents of files[]
// (create, update, delete, each update and delete with the file's full
// blob sha, content base64), as Gitea's swagger describes
// ChangeFilesOptions; the result names the commit, its parent and each
// file's new blob. A stale sha anywhere, a stale head or a create over an
// existing file refuses the set and the branch stays where it was.
func TestCommitFiles(t *testing.T) {
	for _, forgejo := range []bool{false, true} {
		s := fake(t, forgejo)
		p := provider(t, s, forgejo, 0)
		ctx := context.Background()
		if _, err := p.CreateBranch(ctx, noCall, &gatewayv1.CreateBranchRequest{Repo: repo, Branch: "fix"}); err != nil {
			t.Fatal(err)
		}
		read := func(path string) string {
			t.Helper()
			f, err := p.ReadFile(ctx, noCall, &gatewayv1.ReadFileRequest{Repo: repo, Path: path, Ref: "fix"})
			if err != nil {
				t.Fatal(err)
			}
			return f.GetSha()
		}
		mainBlob, readmeBlob := read("src/main.go"), read("README.md")
		head := s.Head(repo, "fix")
		set := func(mainSHA, head string) *gatewayv1.CommitFilesRequest {
			return &gatewayv1.CommitFilesRequest{Repo: repo, Branch: "fix", Message: "Fix and tidy", ExpectedHeadSha: head, Files: []*gatewayv1.FileChange{
				{Path: "src/main.go", Content: "package main // fixed\n", ExpectedSha: mainSHA},
				{Path: "src/fix.go", Content: "package main\n"},
				{Path: "README.md", Delete: true, ExpectedSha: readmeBlob[:7]},
			}}
		}
		for name, tc := range map[string]struct {
			req  *gatewayv1.CommitFilesRequest
			want string
		}{
			"stale blob":   {set(readmeBlob, ""), "is now blob " + mainBlob},
			"stale head":   {set(mainBlob, "abcdef0"), "not at the expected_head_sha abcdef0"},
			"create again": {&gatewayv1.CommitFilesRequest{Repo: repo, Branch: "fix", Message: "m", Files: []*gatewayv1.FileChange{{Path: "src/new.go", Content: "x"}, {Path: "README.md", Content: "x"}}}, "already exists"},
		} {
			_, err := p.CommitFiles(ctx, noCall, tc.req)
			wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, tc.want, "nothing was written")
			if s.Head(repo, "fix") != head {
				t.Fatalf("%s: the branch moved", name)
			}
			if _, found := s.File(repo, "fix", "src/new.go"); found {
				t.Fatalf("%s: a refused set wrote src/new.go", name)
			}
		}
		_, err := p.CommitFiles(ctx, noCall, &gatewayv1.CommitFilesRequest{Repo: repo, Branch: "main", Message: "m", Files: []*gatewayv1.FileChange{{Path: "x", Content: "y"}}})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "default branch")

		before := len(s.Requests())
		done, err := p.CommitFiles(ctx, noCall, set(mainBlob[:12], head[:12]))
		if err != nil {
			t.Fatal(err)
		}
		if done.GetCommitSha() != s.Head(repo, "fix") || done.GetParentSha() != head || done.GetUrl() == "" {
			t.Errorf("committed %v; head %s, was %s", done, s.Head(repo, "fix"), head)
		}
		var posts []map[string]any
		for _, r := range s.Requests()[before:] {
			if r.Method == http.MethodGet {
				continue
			}
			if r.Method != http.MethodPost || r.Path != "/repos/acme/widgets/contents" {
				t.Errorf("sent %s %s", r.Method, r.Path)
				continue
			}
			var body map[string]any
			if err := json.Unmarshal(r.Body, &body); err != nil {
				t.Fatal(err)
			}
			posts = append(posts, body)
		}
		if len(posts) != 1 || posts[0]["branch"] != "fix" || posts[0]["message"] != "Fix and tidy" {
			t.Fatalf("the change set sent %v", posts)
		}
		files, _ := posts[0]["files"].([]any)
		if len(files) != 3 {
			t.Fatalf("files[] %v", posts[0]["files"])
		}
		for i, want := range []struct{ op, path, content, sha string }{
			{"update", "src/main.go", "package main // fixed\n", mainBlob}, {"create", "src/fix.go", "package main\n", ""}, {"delete", "README.md", "", readmeBlob},
		} {
			f, _ := files[i].(map[string]any)
			raw, _ := f["content"].(string)
			content, _ := base64.StdEncoding.DecodeString(raw)
			sha, _ := f["sha"].(string)
			if f["operation"] != want.op || f["path"] != want.path || string(content) != want.content || sha != want.sha {
				t.Errorf("files[%d] = %v, want %v", i, f, want)
			}
		}
		for i, want := range []string{"updated", "created", "deleted"} {
			f := done.GetFiles()[i]
			if f.GetStatus() != want || (want == "deleted") != (f.GetBlobSha() == "") {
				t.Errorf("file %d: %v, want %s", i, f, want)
			}
		}
		if got := read("src/main.go"); got != done.GetFiles()[0].GetBlobSha() {
			t.Errorf("src/main.go reads blob %s, the result said %s", got, done.GetFiles()[0].GetBlobSha())
		}
		if _, found := s.File(repo, "fix", "README.md"); found {
			t.Error("README.md is still there")
		}
	}
}
