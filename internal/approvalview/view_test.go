package approvalview

import (
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gateway"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// A change set's one-line summary names every file and what the set does
// to it; other calls' summaries are as they were.
func TestSummaryNamesEveryFileOfASet(t *testing.T) {
	set := &gatewayv1.CommitFilesRequest{Repo: "acme/app", Branch: "fix", Message: "m", Files: []*gatewayv1.FileChange{
		{Path: "a.go", Content: "x", ExpectedSha: "0123abc"}, {Path: "docs/b.md", Content: "y"}, {Path: "c.go", Delete: true, ExpectedSha: "abc0123"},
	}}
	a := gateway.Approval{ID: "ap-1", State: "pending", Account: "bot", Session: "s", Tool: "forge_commit_files", Repo: "acme/app", Forge: "local", Request: set,
		Holds: []gateway.ApprovalHold{{Rule: "push: operator"}}}
	if got, want := Summary(a), "forge_commit_files acme/app [update a.go, create docs/b.md, delete c.go] on local"; !strings.Contains(got, want) {
		t.Errorf("summary %q lacks %q", got, want)
	}
	a.Tool, a.Request = "forge_write_file", &gatewayv1.WriteFileRequest{Repo: "acme/app", Branch: "fix", Path: "a.go", Message: "m"}
	if got := Summary(a); strings.Contains(got, "[") || !strings.Contains(got, "forge_write_file acme/app on local") {
		t.Errorf("a write's summary %q", got)
	}
}
