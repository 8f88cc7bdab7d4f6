// Package console_test drives the operator's web console in a real
// browser: `forgetools serve --console` as a subprocess, agents calling it
// with `forgetools call`, and headless Chromium (Debian's chromium, through
// chromedp) signing in, reading and deciding. Under make test
// (FORGETOOLS_REQUIRE_CHROMIUM=1) a missing browser fails the test rather
// than skipping it.
package console_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/forgetools/forgetools/gateway/store/storetest"
	"github.com/forgetools/forgetools/internal/testkit"
)

// forgetools is the binary under test, built once by TestMain.
var forgetools string

func TestMain(m *testing.M) { testkit.Main(m, &forgetools) }

// Tokens of the test gateway: an agent's bearer token and an operator's.
const (
	agentToken    = "agent-bearer-token-0123456789"
	operatorToken = "operator-console-token-0123456789"
)

// gatewayConfig is a local forge, the console's operator and two agent
// accounts: bot, reachable over a session socket and a bearer token, lets
// the person at the MCP client decide its parked calls; quiet does not (the
// default).
const gatewayConfig = `
forges:
  - provider: local
    base_url: http://forge.test/f
accounts:
  - name: bot
    agent_handle: bot-agent
    owner_handle: bot-owner
    scope: ["demo/*"]
    sessions: [bot-1]
    token_envs: [FT_AGENT_TOKEN]
    push_to_default_branch: true
    approvers: [mcp_client]
  - name: quiet
    agent_handle: quiet-agent
    owner_handle: quiet-owner
    scope: ["demo/*"]
    sessions: [quiet-1]
    push_to_default_branch: true
console:
  operator_token_envs: [FT_OPERATOR_TOKEN]
`

// tokenEnv is the environment the configuration's tokens are read from.
var tokenEnv = []string{"FT_AGENT_TOKEN=" + agentToken, "FT_OPERATOR_TOKEN=" + operatorToken}

// writeConfig writes gatewayConfig into dir and returns its path.
func writeConfig(t *testing.T, dir string) string {
	t.Helper()
	cfg := filepath.Join(dir, "forgetools.yaml")
	if err := os.WriteFile(cfg, []byte(gatewayConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// gateway is a running serve with its console.
type gateway struct {
	srv     *testkit.Server
	socket  string
	console string
	dir     string
}

var consoleLine = regexp.MustCompile(`(?m)^console on (http://\S+)$`)

// startGateway runs serve with its console on a fresh SQLite store.
func startGateway(t *testing.T) *gateway {
	t.Helper()
	return startGatewayOn(t, storetest.SQLite(t))
}

// startGatewayOn runs serve with its console on the store dsn names.
func startGatewayOn(t *testing.T, dsn string) *gateway {
	t.Helper()
	dir := t.TempDir()
	os.Chmod(dir, 0o700)
	sockets := filepath.Join(dir, "sockets")
	cmd := exec.Command(forgetools, "serve", "--config", writeConfig(t, dir), "--store", dsn,
		"--socket-dir", sockets, "--console", "127.0.0.1:0")
	cmd.Env = append(append(os.Environ(), "FORGETOOLS_DATA_DIR="+dir), tokenEnv...)
	srv := testkit.Serve(t, cmd, 2)
	m := consoleLine.FindStringSubmatch(srv.Stdout.String())
	if m == nil {
		t.Fatalf("serve printed no console address:\n%s", srv.Stdout.String())
	}
	return &gateway{srv: srv, socket: "unix://" + filepath.Join(sockets, "bot-1.sock"), console: m[1], dir: dir}
}

// callResult is one finished `forgetools call`.
type callResult struct {
	stdout, stderr string
	code           int
}

// call runs `forgetools call TOOL ARGS` as the agent, over its session
// socket.
func (g *gateway) call(t *testing.T, tool, args string) callResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, forgetools, "call", tool, args, "--gateway", g.socket)
	cmd.Env = append(os.Environ(), "FORGETOOLS_DATA_DIR="+g.dir)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if exit := (*exec.ExitError)(nil); errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("forgetools call %s: %v", tool, err)
	}
	return callResult{out.String(), errb.String(), code}
}

// ok fails t unless the call succeeded, and returns its output.
func (r callResult) ok(t *testing.T) string {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("call exited %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

// within bounds a browser step; a hang detector, not a performance check.
const within = 60 * time.Second

func contains(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Fatalf("%s does not show %q:\n%s", what, w, text)
		}
	}
}
