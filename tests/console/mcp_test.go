package console_test

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgetools/forgetools/internal/testkit"
)

// elicitor is an MCP client's person: it answers every elicitation with
// answer and keeps what it was asked.
type elicitor struct {
	answer *mcp.ElicitResult
	mu     sync.Mutex
	asked  []string
}

func (e *elicitor) handle(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.asked = append(e.asked, req.Params.Message)
	return e.answer, nil
}

// mcpSession runs `forgetools mcp` (stdio, in-process gateway) as session
// on a store in dir, with the SDK's client answering elicitations.
func mcpSession(t *testing.T, dir, session string, e *elicitor) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(forgetools, "mcp", "--config", writeConfig(t, dir), "--store", filepath.Join(dir, "forgetools.db"), "--session", session)
	cmd.Env = append(append(os.Environ(), "FORGETOOLS_DATA_DIR="+dir), tokenEnv...)
	client := mcp.NewClient(&mcp.Implementation{Name: "console-test", Version: "1"}, &mcp.ClientOptions{ElicitationHandler: e.handle})
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Timeout)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// callText calls a tool and returns its text and whether it is an error.
func callText(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Timeout)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// pushREADME asks to rewrite README.md on main with line, at its current
// blob, and returns the call's text and error flag.
func pushREADME(t *testing.T, cs *mcp.ClientSession, line string) (string, bool) {
	t.Helper()
	read, _ := callText(t, cs, "forge_read_file", map[string]any{"repo": "demo/app", "path": "README.md"})
	sha := blobSHA.FindStringSubmatch(read)
	if sha == nil {
		t.Fatalf("forge_read_file shows no sha:\n%s", read)
	}
	return callText(t, cs, "forge_write_file", map[string]any{"repo": "demo/app", "branch": "main", "path": "README.md",
		"content": "# demo/app\n\n" + line + "\n", "message": "Change the README", "expected_sha": sha[1]})
}

func readmeHas(t *testing.T, cs *mcp.ClientSession, line string) bool {
	t.Helper()
	read, _ := callText(t, cs, "forge_read_file", map[string]any{"repo": "demo/app", "path": "README.md"})
	return strings.Contains(read, line)
}

// The person at the MCP client approves through elicitation: the parked
// push runs once and the tool call returns its real result.
func TestMCPClientApprovesThroughElicitation(t *testing.T) {
	e := &elicitor{answer: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	cs := mcpSession(t, t.TempDir(), "bot-1", e)
	text, isErr := pushREADME(t, cs, "Approved at the MCP client.")
	if isErr || strings.Contains(text, "pending_approval") {
		t.Fatalf("the approved push did not complete:\n%s", text)
	}
	if len(e.asked) != 1 || !strings.Contains(e.asked[0], "forge_write_file") || !strings.Contains(e.asked[0], "+Approved at the MCP client.") {
		t.Fatalf("the person was asked %q", e.asked)
	}
	if !readmeHas(t, cs, "Approved at the MCP client.") {
		t.Fatal("the approved push is not on main")
	}
}

// A denial at the client reaches the agent as permission_denied with the
// person's reason, and nothing is written.
func TestMCPClientDeniesThroughElicitation(t *testing.T) {
	e := &elicitor{answer: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": false, "reason": "not on main, please"}}}
	cs := mcpSession(t, t.TempDir(), "bot-1", e)
	text, isErr := pushREADME(t, cs, "Denied at the MCP client.")
	if !isErr || !strings.Contains(text, "permission_denied") || !strings.Contains(text, "not on main, please") {
		t.Fatalf("the denied push:\n%s", text)
	}
	if readmeHas(t, cs, "Denied at the MCP client.") {
		t.Fatal("the denied push reached main")
	}
}

// Cancelling the form decides nothing: the call stays parked for the
// console or forgetools approvals.
func TestMCPClientCancelLeavesTheCallParked(t *testing.T) {
	e := &elicitor{answer: &mcp.ElicitResult{Action: "cancel"}}
	cs := mcpSession(t, t.TempDir(), "bot-1", e)
	text, isErr := pushREADME(t, cs, "Cancelled.")
	if !isErr || !strings.Contains(text, "pending_approval") || len(e.asked) != 1 {
		t.Fatalf("after a cancelled elicitation (asked %d times):\n%s", len(e.asked), text)
	}
}

// Off by default: an account that does not name mcp_client is never
// asked, however willing the client; its push stays parked.
func TestMCPClientIsNotAskedUnlessTurnedOn(t *testing.T) {
	e := &elicitor{answer: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	cs := mcpSession(t, t.TempDir(), "quiet-1", e)
	text, isErr := pushREADME(t, cs, "Never asked.")
	if !isErr || !strings.Contains(text, "pending_approval") {
		t.Fatalf("the push of an account without mcp_client:\n%s", text)
	}
	if len(e.asked) != 0 {
		t.Fatalf("the client was asked %q", e.asked)
	}
	if readmeHas(t, cs, "Never asked.") {
		t.Fatal("the push reached main")
	}
}

// bearer adds the agent's bearer token to every request.
type bearer struct{ base http.RoundTripper }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+agentToken)
	return b.base.RoundTrip(r)
}

// Over MCP's streamable HTTP transport (mcp --http), the account the
// bearer token names decides its parked push at the client the same way.
func TestMCPClientApprovesOverHTTP(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(dir, 0o700)
	cmd := exec.Command(forgetools, "mcp", "--http", "127.0.0.1:0", "--config", writeConfig(t, dir), "--store", filepath.Join(dir, "forgetools.db"))
	cmd.Env = append(append(os.Environ(), "FORGETOOLS_DATA_DIR="+dir), tokenEnv...)
	srv := testkit.Serve(t, cmd, 1)
	e := &elicitor{answer: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	client := mcp.NewClient(&mcp.Implementation{Name: "console-test", Version: "1"}, &mcp.ClientOptions{ElicitationHandler: e.handle})
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Timeout)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.TCP, HTTPClient: &http.Client{Transport: bearer{http.DefaultTransport}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	text, isErr := pushREADME(t, cs, "Approved over HTTP.")
	if isErr || len(e.asked) != 1 || !readmeHas(t, cs, "Approved over HTTP.") {
		t.Fatalf("asked %d times; the push:\n%s", len(e.asked), text)
	}
}
