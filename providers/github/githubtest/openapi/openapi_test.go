package openapi

import (
	"os"
	"strings"
	"testing"
)

func load(t *testing.T) *Description {
	t.Helper()
	d, err := Dotcom()
	if err == ErrMissing && os.Getenv(EnvRequire) != "1" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Requests find the operation GitHub routes them to: literal segments
// over parameters, a last {path} or {ref} spanning slashes, an empty
// {path} for the root, and a renamed repository's /repositories/{id}/...
// held to the /repos/{owner}/{repo}/... operation it stands for.
func TestMatch(t *testing.T) {
	d := load(t)
	for _, tc := range []struct{ method, path, op, param, value string }{
		{"GET", "/repos/o/r/issues/comments", "issues/list-comments-for-repo", "", ""},
		{"GET", "/repos/o/r/issues/7", "issues/get", "issue_number", "7"},
		{"GET", "/repos/o/r/contents/docs/a%20b.md", "repos/get-content", "path", "docs/a b.md"},
		{"GET", "/repos/o/r/contents/", "repos/get-content", "path", ""},
		{"GET", "/repos/o/r/git/ref/heads/feature/x", "git/get-ref", "ref", "heads/feature/x"},
		{"GET", "/repos/o/r/branches/feature%2Fx", "repos/get-branch", "branch", "feature/x"},
		{"GET", "/repositories/1296269/issues/3", "issues/get", "issue_number", "3"},
		{"POST", "/repos/o/r/actions/workflows/ci.yml/dispatches", "actions/create-workflow-dispatch", "workflow_id", "ci.yml"},
	} {
		op, err := d.Match(tc.method, tc.path)
		if err != nil {
			t.Errorf("%s %s: %v", tc.method, tc.path, err)
			continue
		}
		if op.ID != tc.op || (tc.param != "" && op.params[tc.param] != tc.value) {
			t.Errorf("%s %s = %s %v, want %s %s=%q", tc.method, tc.path, op.ID, op.params, tc.op, tc.param, tc.value)
		}
	}
	for _, p := range []string{"/repos/o/r/issuez", "/repos/o/r/issues/7/extra/deep", "/repos/o"} {
		if op, err := d.Match("GET", p); err == nil {
			t.Errorf("GET %s matched %s", p, op)
		}
	}
}

// OpenAPI 3.0's nullable lets a value be null, and a nullable enum need
// not list null; oneOf is read as anyOf.
func TestNullableAndOneOf(t *testing.T) {
	doc := nullable(map[string]any{"properties": map[string]any{
		"a": map[string]any{"type": "string", "nullable": true, "enum": []any{"x"}},
		"b": map[string]any{"oneOf": []any{map[string]any{"type": "object"}, map[string]any{"type": "object"}}},
	}}).(map[string]any)
	a := doc["properties"].(map[string]any)["a"].(map[string]any)
	if br, ok := a["anyOf"].([]any); !ok || len(br) != 2 || br[0].(map[string]any)["type"] != "null" {
		t.Errorf("nullable a = %v", a)
	}
	b := doc["properties"].(map[string]any)["b"].(map[string]any)
	if _, ok := b["oneOf"]; ok || b["anyOf"] == nil {
		t.Errorf("oneOf b = %v", b)
	}
}

// The response of an undocumented status fails, naming the statuses
// the operation documents; a status GitHub answers anywhere is held to
// basic-error.
func TestResponseStatus(t *testing.T) {
	d := load(t)
	op, err := d.Match("GET", "/repos/o/r/issues/7")
	if err != nil {
		t.Fatal(err)
	}
	errs := d.CheckResponse(op, Exchange{Status: 418, ResponseType: "application/json", Response: []byte(`{}`)})
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "status 418 is not documented (documented: 200, 301, 304, 404, 410)") {
		t.Errorf("418: %v", errs)
	}
	errs = d.CheckResponse(op, Exchange{Status: 401, ResponseType: "application/json", Response: []byte(`{"message":7}`)})
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `at "/message": got number, want string`) {
		t.Errorf("401: %v", errs)
	}
}

// BenchmarkCheck is the per-exchange cost once the operation's schemas
// are compiled: an issue read, request and response.
func BenchmarkCheck(b *testing.B) {
	d, err := Dotcom()
	if err != nil {
		b.Skip(err)
	}
	body := []byte(`{"id":1,"node_id":"I_1","url":"https://api.github.com/repos/o/r/issues/1","repository_url":"https://api.github.com/repos/o/r","html_url":"https://github.com/o/r/issues/1","number":1,"state":"open","title":"t","body":null,"user":null,"labels":[],"assignee":null,"assignees":[],"milestone":null,"locked":false,"active_lock_reason":null,"comments":0,"closed_at":null,"created_at":"2024-01-01T00:00:00Z","updated_at":"2024-01-01T00:00:00Z","author_association":"OWNER"}`)
	ex := Exchange{Method: "GET", Path: "/repos/o/r/issues/1", Status: 200, ResponseType: "application/json", Response: body}
	if _, errs := d.Check(ex); len(errs) != 0 {
		b.Fatal(errs)
	}
	b.ResetTimer()
	for range b.N {
		d.Check(ex)
	}
}

// BenchmarkLoad is what a test binary pays once per description.
func BenchmarkLoad(b *testing.B) {
	dir := os.Getenv(EnvDir)
	if dir == "" {
		dir = defaultDir()
	}
	for range b.N {
		if _, err := Load(dir + "/api.github.com.json"); err != nil {
			b.Skip(err)
		}
	}
}
