package server_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/server"
	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/testforge"
)

// peers sets alice's per-session peer rules.
func peers(rules map[string]gateway.Peer) option {
	return func(c *gateway.Config, _ *server.Options) { c.Accounts[0].Peers = rules }
}

func id(v int) *uint32 {
	u := uint32(v)
	return &u
}

// A session that names the uid and/or gid allowed to connect refuses every
// other process: its calls fail with Connect permission_denied, nothing
// reaches a forge, and the gateway logs the refusal with who tried. The
// test runs as one user, so "another user" is a rule naming a uid or gid
// other than the test's own.
func TestPeerCredentials(t *testing.T) {
	uid, gid := os.Getuid(), os.Getgid()
	h := start(t, storetest.SQLite(t), peers(map[string]gateway.Peer{
		"alice-1": {UID: id(uid + 1)},           // someone else
		"alice-2": {UID: id(uid), GID: id(gid)}, // this process
	}))
	res, err := h.client("alice-1").Forge(context.Background(), connect.NewRequest(getIssue("acme/web", 1)))
	wantConnectError(t, err, connect.CodePermissionDenied)
	if res != nil || !strings.Contains(err.Error(), fmt.Sprintf("uid %d", uid)) || !strings.Contains(err.Error(), fmt.Sprintf("uid %d", uid+1)) {
		t.Errorf("refusal = %v, want it to name the process's uid and the allowed one", err)
	}
	if h.github.Total() != 0 {
		t.Fatal("a refused connection's call reached the forge")
	}
	logs := h.logs.String()
	if !strings.Contains(logs, `"msg":"refused a connection: its peer credentials are not allowed on this session"`) ||
		!strings.Contains(logs, `"session":"alice-1"`) || !strings.Contains(logs, fmt.Sprintf(`"peer_uid":%d`, uid)) {
		t.Errorf("the refusal was not logged with the session and peer:\n%s", logs)
	}

	// h.call fails on a Connect error; the allowed call reaches the forge
	// (which has no such issue).
	wantError(t, h.call("alice-2", getIssue("acme/web", 1)), gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)
	if h.github.Total() != 1 {
		t.Errorf("the allowed call did not reach the forge")
	}

	// gid alone.
	g := start(t, storetest.SQLite(t), peers(map[string]gateway.Peer{"alice-1": {GID: id(gid + 1)}, "alice-2": {GID: id(gid)}}))
	_, err = g.client("alice-1").Forge(context.Background(), connect.NewRequest(getIssue("acme/web", 1)))
	wantConnectError(t, err, connect.CodePermissionDenied)
	wantError(t, g.call("alice-2", getIssue("acme/web", 1)), gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)
}

// A rule for a session the account does not have is a configuration error.
func TestPeerRuleForUnknownSession(t *testing.T) {
	st, err := store.Open(context.Background(), storetest.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, err = gateway.New(gateway.Config{
		Accounts: []gateway.Account{{Name: "a", AgentHandle: "h", OwnerHandle: "o", Sessions: []string{"s"},
			Peers: map[string]gateway.Peer{"t": {UID: id(1)}}}},
		Forges: []gateway.Forge{{Provider: testforge.New(forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, "github.com")}},
		Store:  st,
	})
	if err == nil || !strings.Contains(err.Error(), `peer rule for session "t"`) {
		t.Fatalf("err = %v, want the unknown session named", err)
	}
}
