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

func TestMarkdownRejectsBadSchema(t *testing.T) {
	table := &runtime.Table{Name: "x", Tools: []*runtime.Tool{tool("x_bad", runtime.ApprovalRead, runtime.Hints{}, `not json`)}}
	ts, err := runtime.NewToolset(table, runtime.NewBroker(nil))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := export.Markdown(ts); err == nil || !strings.Contains(err.Error(), "x_bad") {
		t.Errorf("err %v", err)
	}
}
