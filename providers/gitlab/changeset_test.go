package gitlab_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// TestCommitFiles: a change set is one POST of commit actions (create,
// update, delete; updates and deletes carrying the file's last_commit_id,
// content base64), the result names the new commit, its parent and each
// file's new blob; a stale sha anywhere, a create over an existing file
// or a stale head refuses the set with nothing sent but reads.
func TestCommitFiles(t *testing.T) {
	s := fake(t)
	p := provider(t, s, 0)
	ctx := context.Background()
	if _, err := p.CreateBranch(ctx, noCall, &gatewayv1.CreateBranchRequest{Repo: proj, Branch: "scale"}); err != nil {
		t.Fatal(err)
	}
	values, err := p.ReadFile(ctx, noCall, &gatewayv1.ReadFileRequest{Repo: proj, Path: "charts/app/values.yaml", Ref: "scale"})
	if err != nil {
		t.Fatal(err)
	}
	readme, err := p.ReadFile(ctx, noCall, &gatewayv1.ReadFileRequest{Repo: proj, Path: "README.md", Ref: "scale"})
	if err != nil {
		t.Fatal(err)
	}
	head := s.Head(proj, "scale")
	set := func(valuesSHA, head string) *gatewayv1.CommitFilesRequest {
		return &gatewayv1.CommitFilesRequest{Repo: proj, Branch: "scale", Message: "Scale and tidy", ExpectedHeadSha: head, Files: []*gatewayv1.FileChange{
			{Path: "charts/app/values.yaml", Content: "replicas: 3\n", ExpectedSha: valuesSHA},
			{Path: "charts/app/NOTES.txt", Content: "scaled\n"},
			{Path: "README.md", Delete: true, ExpectedSha: readme.GetSha()[:7]},
		}}
	}
	writes := func(from int) (n int) {
		for _, r := range s.Requests()[from:] {
			if r.Method != http.MethodGet && r.Method != http.MethodHead {
				n++
			}
		}
		return n
	}
	for name, tc := range map[string]struct {
		req  *gatewayv1.CommitFilesRequest
		want string
	}{
		"stale blob":   {set(readme.GetSha(), ""), "is now blob " + values.GetSha()},
		"stale head":   {set(values.GetSha(), "abcdef0"), "not at the expected_head_sha abcdef0"},
		"create again": {&gatewayv1.CommitFilesRequest{Repo: proj, Branch: "scale", Message: "m", Files: []*gatewayv1.FileChange{{Path: "README.md", Content: "x"}}}, "changed on scale"},
	} {
		before := len(s.Requests())
		_, err := p.CommitFiles(ctx, noCall, tc.req)
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, tc.want)
		if s.Head(proj, "scale") != head {
			t.Fatalf("%s: the branch moved", name)
		}
		if name != "create again" && writes(before) != 0 {
			t.Errorf("%s: %d writes were sent", name, writes(before))
		}
	}
	_, err = p.CommitFiles(ctx, noCall, &gatewayv1.CommitFilesRequest{Repo: proj, Branch: "main", Message: "m", Files: []*gatewayv1.FileChange{{Path: "x", Content: "y"}}})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "default branch")

	before := len(s.Requests())
	done, err := p.CommitFiles(ctx, noCall, set(values.GetSha()[:12], head[:12]))
	if err != nil {
		t.Fatal(err)
	}
	if done.GetCommitSha() != s.Head(proj, "scale") || done.GetParentSha() != head || done.GetUrl() == "" {
		t.Errorf("committed %v; head %s, was %s", done, s.Head(proj, "scale"), head)
	}
	if writes(before) != 1 {
		t.Errorf("%d writes, want the one commit", writes(before))
	}
	var post struct {
		Branch        string `json:"branch"`
		CommitMessage string `json:"commit_message"`
		Actions       []struct {
			Action, FilePath, Content, Encoding, LastCommitID string
		} `json:"actions"`
	}
	for _, r := range s.Requests()[before:] {
		if r.Method == http.MethodPost {
			if r.Path != escaped+"/repository/commits" {
				t.Errorf("the commit went to %s", r.Path)
			}
			// The fields by GitLab's names (file_path, last_commit_id).
			var raw struct {
				Branch        string `json:"branch"`
				CommitMessage string `json:"commit_message"`
				Actions       []map[string]any
			}
			if err := json.Unmarshal(r.Body, &raw); err != nil {
				t.Fatal(err)
			}
			post.Branch, post.CommitMessage = raw.Branch, raw.CommitMessage
			for _, a := range raw.Actions {
				s := func(k string) string { v, _ := a[k].(string); return v }
				post.Actions = append(post.Actions, struct{ Action, FilePath, Content, Encoding, LastCommitID string }{
					s("action"), s("file_path"), s("content"), s("encoding"), s("last_commit_id")})
			}
		}
	}
	if post.Branch != "scale" || post.CommitMessage != "Scale and tidy" || len(post.Actions) != 3 {
		t.Fatalf("the commit sent %+v", post)
	}
	for i, want := range []struct{ action, path, content string }{{"update", "charts/app/values.yaml", "replicas: 3\n"}, {"create", "charts/app/NOTES.txt", "scaled\n"}, {"delete", "README.md", ""}} {
		a := post.Actions[i]
		content, _ := base64.StdEncoding.DecodeString(a.Content)
		if a.Action != want.action || a.FilePath != want.path || string(content) != want.content {
			t.Errorf("action %d: %+v, want %v", i, a, want)
		}
		if (a.Action == "create") != (a.LastCommitID == "") {
			t.Errorf("action %d: last_commit_id %q", i, a.LastCommitID)
		}
		if a.Action != "delete" && a.Encoding != "base64" {
			t.Errorf("action %d: encoding %q", i, a.Encoding)
		}
	}
	for i, want := range []string{"updated", "created", "deleted"} {
		f := done.GetFiles()[i]
		if f.GetStatus() != want || (want == "deleted") != (f.GetBlobSha() == "") {
			t.Errorf("file %d: %v, want %s", i, f, want)
		}
	}
	if got, _ := s.File(proj, "scale", "charts/app/NOTES.txt"); got != "scaled\n" {
		t.Errorf("NOTES.txt = %q", got)
	}
	if _, found := s.File(proj, "scale", "README.md"); found {
		t.Error("README.md is still there")
	}
	again, err := p.ReadFile(ctx, noCall, &gatewayv1.ReadFileRequest{Repo: proj, Path: "charts/app/values.yaml", Ref: "scale"})
	if err != nil || again.GetSha() != done.GetFiles()[0].GetBlobSha() {
		t.Errorf("values.yaml reads blob %s, the result said %s (%v)", again.GetSha(), done.GetFiles()[0].GetBlobSha(), err)
	}
}
