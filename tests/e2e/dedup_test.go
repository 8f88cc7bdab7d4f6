package e2e_test

import (
	"testing"
)

// A create's promise holds on every surface: a client that retries the same
// create files one artifact. The runtime with call ids is covered in
// TestTenToolsOverSocket (--id); these cover the surfaces without ids.

// TestMCPRetryFilesOnce: MCP carries no tool-call id, so the gateway derives
// the dedup key; the SDK client's retry of the same create replays.
func TestMCPRetryFilesOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cs := e.mcpSession()
	const create = `{"repo":"demo/app","title":"Retried over MCP"}`
	wantCall(t, cs, "forge_create_issue", create, false, `Created issue #1 in demo/app: http://localhost/forge/demo/app/issues/1`)
	wantCall(t, cs, "forge_create_issue", create, false, `Issue #1 in demo/app already created by an earlier attempt`)
	// Other arguments are another create.
	wantCall(t, cs, "forge_create_issue", `{"repo":"demo/app","title":"Another one"}`, false,
		`Created issue #2 in demo/app: http://localhost/forge/demo/app/issues/2`)
	// Numbers are sequential: no #3 means the retry filed nothing.
	wantCall(t, cs, "forge_get_issue", `{"repo":"demo/app","issue_number":3}`, true, `forge_get_issue failed: not_found: .*`)
}

// TestCallWithoutIDFilesOnce: two `forgetools call` processes with the same
// create and no --id file one issue.
func TestCallWithoutIDFilesOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const create = `{"repo":"demo/app","title":"Retried from the shell"}`
	e.call("forge_create_issue", create).want(t, 0, `Created issue #1 in demo/app: http://localhost/forge/demo/app/issues/1`)
	e.call("forge_create_issue", create).want(t, 0, `Issue #1 in demo/app already created by an earlier attempt`)
	e.call("forge_get_issue", `{"repo":"demo/app","issue_number":2}`).want(t, 1, `forge_get_issue failed: not_found: .*`)
}
