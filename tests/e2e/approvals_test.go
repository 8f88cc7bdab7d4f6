package e2e_test

import (
	"strings"
	"testing"
	"time"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// TestApprovalsCommand: `forgetools approvals` on each store backend. The
// embedded default parks a push; list and show it (show says what it
// will do: a new branch, a file's diff); approve runs it and the same call
// reads the result; deny needs a reason and the model reads it; approving
// twice, after a denial, after the expiry or an unknown id is an error and
// runs nothing.
func TestApprovalsCommand(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, dsn string) {
		e := newEnv(t)
		branch := func(name string) result {
			return e.call("forge_create_branch", `{"repo":"demo/app","branch":"`+name+`"}`, "--store", dsn)
		}
		approvals := func(args ...string) result {
			return e.run(append(append([]string{"approvals"}, args...), "--store", dsn)...)
		}
		parked := `forge_create_branch failed: pending_approval: approval (ap-[a-z2-7]+): this call waits for an operator and has not reached the forge: .*`

		id := branch("a").want(t, 1, parked)[1]
		if again := branch("a").want(t, 1, parked)[1]; again != id {
			t.Fatalf("the repeat parked %s, want %s", again, id)
		}
		if list := approvals("list"); list.code != 0 || strings.Count(list.stdout, "\n") != 1 ||
			!strings.HasPrefix(list.stdout, id+"  pending   demo/demo  forge_create_branch demo/app on local/local  (push: operator, risk high: operator)") {
			t.Fatalf("list: %v", list)
		}
		show := approvals("show", id)
		for _, w := range []string{"approval " + id + ": pending\n", "creates branch a in demo/app, at the default branch\n",
			"held by:  push: operator: pushes (branches, commits, merges)", "branch: \"a\""} {
			if show.code != 0 || !strings.Contains(show.stdout, w) {
				t.Errorf("show lacks %q: %v", w, show)
			}
		}
		approvals("approve", id, "--operator", "ops", "--reason", "fine").want(t, 0, `Approved `+id+` \(forge_create_branch on demo/app\); the call ran\.`)
		branch("a").want(t, 0, `Created branch a in demo/app at [0-9a-f]{40}`)
		if r := approvals("approve", id); r.code != 1 || !strings.Contains(r.stderr, "already decided (done by ops at ") {
			t.Fatalf("approve twice: %v", r)
		}
		if r := approvals("show", id); !strings.Contains(r.stdout, "decision: approved by ops at ") || !strings.Contains(r.stdout, ": fine\n") {
			t.Fatalf("show after approval: %v", r)
		}

		// A file write shows its diff against the file at the branch head.
		write := e.call("forge_write_file", `{"repo":"demo/app","branch":"a","path":"notes.txt","content":"hello\nworld\n","message":"Add notes"}`, "--store", dsn)
		wid := write.want(t, 1, `forge_write_file failed: pending_approval: approval (ap-[a-z2-7]+): .*`)[1]
		if r := approvals("show", wid); !strings.Contains(r.stdout, "commits notes.txt to branch a of demo/app: \"Add notes\"\n  a new file\n  --- notes.txt (a)\n  +++ notes.txt (after the write)\n  +hello\n  +world\n") {
			t.Fatalf("show of a write: %v", r)
		}

		deny := branch("b").want(t, 1, parked)[1]
		if r := approvals("deny", deny); r.code != 2 || !strings.Contains(r.stderr, "deny needs --reason") {
			t.Fatalf("deny without a reason: %v", r)
		}
		approvals("deny", deny, "--operator", "ops", "--reason", "not now").want(t, 0, `Denied `+deny+` \(forge_create_branch on demo/app\): not now`)
		branch("b").want(t, 1, `forge_create_branch failed: permission_denied: approval `+deny+`: operator ops denied this call: not now`)
		if r := approvals("approve", deny); r.code != 1 || !strings.Contains(r.stderr, "already decided (denied by ops") {
			t.Fatalf("approve after deny: %v", r)
		}
		if r := approvals("approve", "ap-aaaaaaaaaaaaaaaa"); r.code != 1 || !strings.Contains(r.stderr, `approval "ap-aaaaaaaaaaaaaaaa": no approval has that id`) {
			t.Fatalf("approve an unknown id: %v", r)
		}
		if r := approvals("list", "--state", "all"); strings.Count(r.stdout, "\n") != 3 {
			t.Fatalf("list --state all: %v", r)
		}
		// Nothing ran twice: branch a exists once, b never.
		e.call("forge_list_dir", `{"repo":"demo/app","ref":"b"}`, "--store", dsn).want(t, 1, `forge_list_dir failed: not_found: .*`)
	})
}

// An approval not decided within approval_expiry cannot be approved; the
// same call then parks anew.
func TestApprovalExpires(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := writeConfig(t, "approval_expiry: 1s\nforges:\n  - provider: local\naccounts:\n"+
		"  - {name: demo, agent_handle: demo-agent, owner_handle: demo-owner, scope: [\"*\"], sessions: [demo]}\n")
	st := storetest.SQLite(t)
	parked := `forge_create_branch failed: pending_approval: approval (ap-[a-z2-7]+): .*`
	id := e.call("forge_create_branch", `{"repo":"demo/app","branch":"late"}`, "--config", cfg, "--store", st).want(t, 1, parked)[1]
	time.Sleep(1100 * time.Millisecond) // past the expiry whatever the machine's speed: the check only ever passes later
	if r := e.run("approvals", "approve", id, "--config", cfg, "--store", st); r.code != 1 || !strings.Contains(r.stderr, "expired before it was decided") {
		t.Fatalf("approve after the expiry: %v", r)
	}
	if fresh := e.call("forge_create_branch", `{"repo":"demo/app","branch":"late"}`, "--config", cfg, "--store", st).want(t, 1, parked)[1]; fresh == id {
		t.Fatal("the call after the expiry answered the expired approval")
	}
}
