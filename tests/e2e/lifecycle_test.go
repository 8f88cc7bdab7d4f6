package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// TestServeLifecycle: SIGTERM stops serve cleanly and removes its sockets;
// a restarted serve on the same store still replays a create; a socket
// left by a killed serve is replaced, and a live one is never taken over.
func TestServeLifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg, st, dir := writeConfig(t, aliceConfig), storetest.SQLite(t), socketDir(t)
	args := []string{"--config", cfg, "--store", st, "--socket-dir", dir}
	const issue = `{"repo":"demo/app","title":"Survives restarts"}`

	srv := e.serve(2, args...)
	e.call("forge_create_issue", issue, "--id", "r1", "--gateway", srv.Sockets[0]).
		want(t, 0, `Created issue #1 in demo/app: .*`)

	// A second gateway on the same sockets refuses to start.
	second := e.run(append([]string{"serve"}, args...)...)
	if second.code != 1 || !strings.Contains(second.stderr, "alice-1.sock is in use by a running process") {
		t.Errorf("a second serve on live sockets: %v", second)
	}

	if code := srv.Stop(syscall.SIGTERM); code != 0 {
		t.Fatalf("serve exited %d on SIGTERM\nstderr:\n%s", code, srv.Stderr.String())
	}
	if !strings.Contains(srv.Stderr.String(), `msg="gateway stopped"`) {
		t.Errorf("serve did not log a graceful stop:\n%s", srv.Stderr.String())
	}
	for _, s := range srv.Sockets {
		if _, err := os.Lstat(strings.TrimPrefix(s, "unix://")); !os.IsNotExist(err) {
			t.Errorf("%s after SIGTERM: %v, want it removed", s, err)
		}
	}

	// Restarted on the same store, the create still replays.
	srv = e.serve(2, args...)
	e.call("forge_create_issue", issue, "--id", "r1", "--gateway", srv.Sockets[0]).
		want(t, 0, `Issue #1 in demo/app already created by an earlier attempt`)

	// Killed, serve leaves its socket files; the next serve replaces them.
	srv.Stop(syscall.SIGKILL)
	if _, err := os.Lstat(filepath.Join(dir, "alice-1.sock")); err != nil {
		t.Fatalf("after SIGKILL the socket file should remain (stale): %v", err)
	}
	srv = e.serve(2, args...)
	e.call("forge_get_issue", `{"repo":"demo/app","issue_number":1}`, "--gateway", srv.Sockets[0]).record(t)
	if code := srv.Stop(syscall.SIGINT); code != 0 {
		t.Errorf("serve exited %d on SIGINT", code)
	}
}

// TestServeRefusesToStart: a configuration or listener error is reported
// with what is wrong, serve announces no listener and leaves no socket file.
func TestServeRefusesToStart(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "E2E_TOKEN=ftk_e2e_token_only_0123456789")
	cases := []struct {
		name, yaml string
		args       []string
		code       int
		want       string
	}{
		{"literal secret", "forges:\n  - provider: github\n    token: ghp_literal\n", nil, 1, "name the environment variable"},
		{"unset credential", "forges:\n  - {provider: github, token_env: FORGETOOLS_E2E_UNSET}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n",
			nil, 1, "environment variable FORGETOOLS_E2E_UNSET is not set"},
		{"bad scope", "forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s], scope: [\"demo/*/app\"]}\n",
			nil, 1, `scope entry "demo/*/app" is not`},
		{"tokens without a TCP listener", "forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, token_envs: [E2E_TOKEN]}\n",
			nil, 2, "nothing to listen on"},
		{"bad TCP address", aliceConfig, []string{"--listen", "127.0.0.1:99999"}, 1, "invalid port"},
	}
	for _, c := range cases {
		dir := socketDir(t)
		args := append([]string{"serve", "--config", writeConfig(t, c.yaml), "--store", storetest.SQLite(t), "--socket-dir", dir}, c.args...)
		r := e.run(args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.want) || r.stdout != "" {
			t.Errorf("%s: want exit %d, no stdout and stderr mentioning %q; got %v", c.name, c.code, c.want, r)
		}
		if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) > 0 {
			t.Errorf("%s: serve left %v behind", c.name, left)
		}
	}
}
