package export_test

import (
	"strings"
	"testing"

	"github.com/forgetools/forgetools/runtime"
	"github.com/forgetools/forgetools/runtime/export"
)

func TestMarkdown(t *testing.T) {
	doc, err := export.Markdown(toolset(t, "Use forges.\nStay in scope."))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# forge tools\n",
		"\nUse forges.\n\nStay in scope.\n\n",
		"| [`forge_get_issue`](#forge_get_issue) | read | Does forge_get_issue. |\n",
		"| [`forge_submit_review`](#forge_submit_review) | write | Does forge_submit_review. |\n",
		"\n## forge_get_issue\n\nDoes forge_get_issue. Second sentence.\n\n- Approval: read\n- Hints: read-only, idempotent, open-world\n",
		"- Approval: write\n- Hints: destructive, open-world\n",
		"| Parameter | Type | Required | Bounds | Description |\n|---|---|---|---|---|\n",
		"| `repo` | string | yes | 1-200 characters; not blank | Repository (owner/name) or Linear team key. |\n",
		"| `issue_number` | integer | yes | >= 1 | Issue number. |\n",
		"| `forge_provider` | string | no | one of `github`, `gitlab`, `linear` | Forge to act on; omit for the default forge. |\n",
		"| `forge_host` | string | no | at most 253 characters; pattern `^[a-z.]*$` | Forge instance host. |\n",
		"| `comments` | array of object | no | <= 50 items | Inline comments \\| on the diff. |\n",
		"| `comments[].path` | string | yes | at least 1 character; not blank | File path in the diff. |\n",
		"| `comments[].side` | string | no | one of `LEFT`, `RIGHT` | Diff side; omitted = RIGHT. |\n",
		"| `labels` | array of string | no | unique items; each item: 1-100 characters |  |\n",
		"| `title` | string | no | not \"root\"; default `\"x\"`; format uri |  |\n",
		"| `dry_run` | boolean | no | always `true` |  |\n",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("markdown lacks %q\n---\n%s", want, doc)
		}
	}

	ro, err := export.Markdown(toolset(t, "", runtime.WithReadOnly()))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ro, "forge_submit_review") {
		t.Error("a filtered tool is documented")
	}
}

// A hand-built table may leave a tool's schema out; the document names it
// rather than rendering a tool without parameters.
func TestMarkdownRejectsMissingSchema(t *testing.T) {
	bad := tool("x_bad", runtime.ApprovalRead, runtime.Hints{}, `{}`)
	bad.InputSchema = nil
	table := &runtime.Table{Name: "x", Tools: []*runtime.Tool{bad}}
	ts, err := runtime.NewToolset(table, runtime.NewBroker(nil))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := export.Markdown(ts); err == nil || !strings.Contains(err.Error(), "x_bad") {
		t.Errorf("err %v", err)
	}
}

// The risk and action class an Approver sees are part of what a reviewer
// reads: in the Markdown next to the approval, and in the definition the
// tool snapshots pin; a tool without them shows neither.
func TestGovernanceIsDocumented(t *testing.T) {
	push := tool("forge_write_file", runtime.ApprovalPush, runtime.Hints{Destructive: true, OpenWorld: true}, getIssueSchema)
	push.Risk, push.ActionClass = runtime.RiskHigh, "vcs:push"
	plain := tool("forge_get_issue", runtime.ApprovalRead, runtime.Hints{ReadOnly: true}, getIssueSchema)
	ts, err := runtime.NewToolset(&runtime.Table{Name: "forge", Tools: []*runtime.Tool{push, plain}}, runtime.NewBroker(nil))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := export.Markdown(ts)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| [`forge_write_file`](#forge_write_file) | push |",
		"- Approval: push (risk high, action class vcs:push)\n- Hints: destructive, open-world\n",
		"- Approval: read\n- Hints: read-only\n",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("markdown lacks %q\n---\n%s", want, doc)
		}
	}
	if d := export.Define(push); d.Approval != "push" || d.Risk != "high" || d.ActionClass != "vcs:push" {
		t.Errorf("definition %+v", d)
	}
	if m := roundTrip(t, export.Define(plain)); m["risk"] != nil || m["action_class"] != nil {
		t.Errorf("a tool without risk or action class exports them: %v", m)
	}
}
