package githubtest

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// The git data endpoints on the model's objects, held to GitHub's
// description: a blob written is readable by its git sha (JSON and raw),
// a tree on a base tree adds and deletes paths, a commit of it moves no
// ref, and the ref moves only by fast-forward unless forced.
func TestGitDataRoundTrip(t *testing.T) {
	s := seeded(t, Options{})
	const full, repo = "octocat/Hello-World", "/repos/octocat/Hello-World"
	head := s.Commit(full, "fix-crash", "Seed", File{Path: "src/a.go", Content: "a\n"}, File{Path: "src/b.go", Content: "b\n"})
	field := func(v any, k string) string { s, _ := v.(map[string]any)[k].(string); return s }

	status, _, got := do(t, s, token, "POST", repo+"/git/blobs", `{"content":"`+base64.StdEncoding.EncodeToString([]byte("new\n"))+`","encoding":"base64"}`)
	if blob := field(got, "sha"); status != 201 || blob != forgemodel.BlobSHA("new\n") {
		t.Fatalf("create blob: %d %v", status, got)
	}
	if status, _, got := do(t, s, token, "POST", repo+"/git/blobs", `{"content":"text\n"}`); status != 201 || field(got, "sha") != forgemodel.BlobSHA("text\n") {
		t.Errorf("create a utf-8 blob: %d %v", status, got)
	}
	if status, _, got := do(t, s, token, "GET", repo+"/git/blobs/"+forgemodel.BlobSHA("new\n"), ""); status != 200 || strings.TrimSpace(field(got, "content")) != base64.StdEncoding.EncodeToString([]byte("new\n")) {
		t.Errorf("get blob: %d %v", status, got)
	}
	if status, _, body := raw(t, s, "GET", s.APIURL()+"repos/octocat/Hello-World/git/blobs/"+forgemodel.BlobSHA("a\n"), mediaRaw, "", bearer(token)); status != 200 || body != "a\n" {
		t.Errorf("a committed blob raw: %d %q", status, body)
	}

	status, _, got = do(t, s, token, "GET", repo+"/git/commits/"+head, "")
	base := field(got.(map[string]any)["tree"], "sha")
	if status != 200 || base == "" {
		t.Fatalf("get commit: %d %v", status, got)
	}
	status, _, got = do(t, s, token, "POST", repo+"/git/trees", `{"base_tree":"`+base+`","tree":[`+
		`{"path":"src/c.go","mode":"100644","type":"blob","sha":"`+forgemodel.BlobSHA("new\n")+`"},`+
		`{"path":"src/b.go","mode":"100644","type":"blob","sha":null}]}`)
	tree := field(got, "sha")
	if status != 201 {
		t.Fatalf("create tree: %d %v", status, got)
	}
	status, _, got = do(t, s, token, "GET", repo+"/git/trees/"+tree+"?recursive=1", "")
	var paths []string
	for _, e := range got.(map[string]any)["tree"].([]any) {
		paths = append(paths, field(e, "path")+" "+field(e, "type"))
	}
	if status != 200 || strings.Join(paths, ", ") != "README.md blob, src tree, src/a.go blob, src/c.go blob" {
		t.Errorf("the tree: %d %v", status, paths)
	}
	if status, _, got := do(t, s, token, "POST", repo+"/git/trees", `{"tree":[{"path":"x","mode":"100644","type":"blob","sha":"`+strings.Repeat("1", 40)+`"}]}`); status != 422 {
		t.Errorf("a tree of a missing blob: %d %v", status, got)
	}

	status, _, got = do(t, s, token, "POST", repo+"/git/commits", `{"message":"Set","tree":"`+tree+`","parents":["`+head+`"]}`)
	made := field(got, "sha")
	if status != 201 || field(got.(map[string]any)["tree"], "sha") != tree || s.Head(full, "fix-crash") != head {
		t.Fatalf("create commit: %d %v (branch at %s)", status, got, s.Head(full, "fix-crash"))
	}
	moved := s.Commit(full, "fix-crash", "Theirs", File{Path: "x.txt", Content: "x\n"})
	if status, _, got := do(t, s, token, "PATCH", repo+"/git/refs/heads/fix-crash", `{"sha":"`+made+`","force":false}`); status != 422 || field(got, "message") != "Update is not a fast forward" || s.Head(full, "fix-crash") != moved {
		t.Errorf("a non-fast-forward update: %d %v", status, got)
	}
	if status, _, got := do(t, s, token, "PATCH", repo+"/git/refs/heads/no-such", `{"sha":"`+made+`"}`); status != 422 {
		t.Errorf("an update of a missing ref: %d %v", status, got)
	}
	if status, _, got := do(t, s, token, "PATCH", repo+"/git/refs/heads/fix-crash", `{"sha":"`+made+`","force":true}`); status != 200 || s.Head(full, "fix-crash") != made {
		t.Errorf("a forced update: %d %v", status, got)
	}
	if text, ok := s.FileAt(full, "fix-crash", "src/c.go"); !ok || text != "new\n" {
		t.Errorf("src/c.go on the branch: %q %v", text, ok)
	}
	if _, ok := s.FileAt(full, "fix-crash", "src/b.go"); ok {
		t.Error("src/b.go survived the tree's delete")
	}
}
