package e2e_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// TestPeerCheckedSessions: a session's socket that names the uid (or gid)
// allowed to connect refuses `forgetools call` from any other, with a
// failure line and exit 1, and serve logs it; the session naming this
// process's own uid and gid works.
func TestPeerCheckedSessions(t *testing.T) {
	t.Parallel()
	uid, gid := os.Getuid(), os.Getgid()
	cfg := fmt.Sprintf(`
forges:
  - provider: local
accounts:
  - name: alice
    agent_handle: alice-bot
    owner_handle: alice
    scope: ["demo/*"]
    sessions:
      - {name: alice-other, uid: %d}
      - {name: alice-group, gid: %d}
      - {name: alice-self, uid: %d, gid: %d}
`, uid+1, gid+1, uid, gid)
	e := newEnv(t)
	srv := e.serve(3, "--config", writeConfig(t, cfg), "--store", storetest.SQLite(t), "--socket-dir", socketDir(t))
	for _, sock := range srv.Sockets[:2] {
		r := e.call("forge_create_issue", `{"repo":"demo/app","title":"refused"}`, "--gateway", sock)
		r.want(t, 1, `forge_create_issue failed: .*permission_denied.*session alice-(other|group) allows only .*`)
	}
	e.call("forge_create_issue", `{"repo":"demo/app","title":"allowed"}`, "--gateway", srv.Sockets[2]).
		want(t, 0, `Created issue #1 in demo/app: .*`)
	if n := strings.Count(srv.Stderr.String(), "refused a connection"); n < 2 {
		t.Errorf("serve logged %d refusals, want one per refused call at least:\n%s", n, srv.Stderr.String())
	}
}
