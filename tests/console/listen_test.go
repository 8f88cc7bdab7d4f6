package console_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/internal/testkit"
)

// serveFails runs serve with the test configuration and extra arguments,
// and returns its stderr once it has exited, which it must.
func serveFails(t *testing.T, env []string, args ...string) string {
	t.Helper()
	dir := t.TempDir()
	cfg := writeConfig(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, forgetools, append([]string{"serve", "--config", cfg, "--store", filepath.Join(dir, "f.db"),
		"--socket-dir", filepath.Join(dir, "sockets")}, args...)...)
	cmd.Env = append(append(os.Environ(), "FORGETOOLS_DATA_DIR="+dir), env...)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("serve %q started:\n%s", args, out)
	}
	return string(out)
}

func TestConsoleNeedsTLSOffLoopback(t *testing.T) {
	out := serveFails(t, tokenEnv, "--console", "0.0.0.0:0")
	if !strings.Contains(out, "not a loopback address and there is no TLS") {
		t.Fatalf("serve --console 0.0.0.0:0 without TLS:\n%s", out)
	}
}

func TestConsoleRefusesAnAgentTokenAsOperatorToken(t *testing.T) {
	out := serveFails(t, []string{"FT_AGENT_TOKEN=" + agentToken, "FT_OPERATOR_TOKEN=" + agentToken}, "--console", "127.0.0.1:0")
	if !strings.Contains(out, "FT_OPERATOR_TOKEN holds the same token as the account token FT_AGENT_TOKEN") || strings.Contains(out, agentToken) {
		t.Fatalf("serve with an agent's token as the operator's:\n%s", out)
	}
}
