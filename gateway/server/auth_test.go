package server_test

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/server"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// quiet keeps servers made outside the harness out of the test output.
var quiet = server.Options{Logger: slog.New(slog.DiscardHandler)}

// serveRaw serves handler on a fresh Unix socket with no identity binding.
func serveRaw(t *testing.T, handler http.Handler) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "ftraw")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "raw.sock")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: handler}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close(); os.RemoveAll(dir) })
	return path
}

func TestTheSocketNamesTheSession(t *testing.T) {
	h := start(t, storetest.SQLite(t))
	for _, tc := range []struct{ session, account string }{{"alice-1", "alice"}, {"alice-2", "alice"}} {
		if res := h.call(tc.session, createIssue("acme/web", "from "+tc.session, "", "")); res.GetIssue() == nil {
			t.Fatalf("create on %s = %v", tc.session, res)
		}
		if c := h.github.LastCall("CreateIssue"); c.Account != tc.account || c.Session != tc.session {
			t.Fatalf("call on %s reached the forge as %+v", tc.session, c)
		}
	}
	// bob's socket is bob, whatever the request says.
	wantError(t, h.call("bob-1", createIssue("acme/web", "t", "", "")), gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, `account "bob"`)
}

// A provider learns who the call is for from the account, never from the
// request: the handles a forge records as an author, and whether the
// operator lets this account push to a default branch.
func TestTheCallCarriesTheAccount(t *testing.T) {
	for _, allowed := range []bool{false, true} {
		h := start(t, storetest.SQLite(t), func(c *gateway.Config, _ *server.Options) {
			c.Accounts[0].PushToDefaultBranch = allowed
		})
		if res := h.call("alice-1", createIssue("acme/web", "t", "", "")); res.GetIssue() == nil {
			t.Fatalf("create = %v", res)
		}
		want := toolserver.Call{Account: "alice", Session: "alice-1", AgentHandle: "claude-7", OwnerHandle: "alice-h", PushToDefaultBranch: allowed}
		c := h.github.LastCall("CreateIssue")
		// The request carries no id, so the gateway derives the forge's
		// key from the session; its exact value is dedup's business.
		if !strings.HasPrefix(c.ClientRequestID, "derived:alice-1:") {
			t.Errorf("the forge saw key %q, want one derived for alice-1", c.ClientRequestID)
		}
		c.ClientRequestID = ""
		if !reflect.DeepEqual(c, want) {
			t.Errorf("the forge saw %+v, want %+v", c, want)
		}
	}
}

func TestUnboundConnectionsFailClosed(t *testing.T) {
	h := start(t, storetest.SQLite(t))
	// The Connect handler on a socket that binds no session.
	_, err := unixClient(serveRaw(t, h.srv.Handler())).Forge(context.Background(), connect.NewRequest(getIssue("acme/web", 1)))
	wantConnectError(t, err, connect.CodePermissionDenied)

	// A server without a ForgeCaller.
	_, err = unixClient(serveRaw(t, server.New(nil, quiet).Handler())).Forge(context.Background(), connect.NewRequest(getIssue("acme/web", 1)))
	wantConnectError(t, err, connect.CodeUnavailable)

	if h.github.Total() != 0 {
		t.Fatalf("an unbound call reached the forge")
	}
}

func TestTCPBearerTokens(t *testing.T) {
	h := start(t, storetest.SQLite(t))
	ctx := context.Background()
	for _, token := range []string{"", "not-a-token-at-all", aliceToken + "x", aliceToken[:len(aliceToken)-1]} {
		_, err := h.tcpClient(token).Forge(ctx, connect.NewRequest(createIssue("acme/web", "t", "", "")))
		wantConnectError(t, err, connect.CodeUnauthenticated)
	}
	// A scheme other than Bearer is no token either.
	req := connect.NewRequest(createIssue("acme/web", "t", "", ""))
	req.Header().Set("Authorization", "Basic "+aliceToken)
	_, err := h.tcpClient("").Forge(ctx, req)
	wantConnectError(t, err, connect.CodeUnauthenticated)
	if h.github.Total() != 0 {
		t.Fatalf("an unauthenticated call reached the forge")
	}

	res, err := h.tcpClient(aliceToken).Forge(ctx, connect.NewRequest(createIssue("acme/web", "over tcp", "", "")))
	if err != nil || res.Msg.GetIssue() == nil {
		t.Fatalf("create with alice's token = %v, %v", res, err)
	}
	if c := h.github.LastCall("CreateIssue"); c.Account != "alice" || c.Session != "alice-tcp" {
		t.Fatalf("token call reached the forge as %+v", c)
	}
	if a := res.Msg.GetIssue().GetAttribution(); a.GetSessionId() != "alice-tcp" || a.GetAgentHandle() != "claude-7" {
		t.Fatalf("attribution of a token call = %v", a)
	}
	// bob's token is bob (session defaults to the account name).
	res, err = h.tcpClient(bobToken).Forge(ctx, connect.NewRequest(createIssue("acme/web", "t", "", "")))
	if err != nil {
		t.Fatal(err)
	}
	wantError(t, res.Msg, gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, `account "bob"`)
}

func TestSocketFiles(t *testing.T) {
	h := start(t, storetest.SQLite(t))
	for _, s := range []string{"alice-1", "alice-2", "bob-1"} {
		fi, err := os.Stat(filepath.Join(h.dir, s+".sock"))
		if err != nil {
			t.Fatalf("socket for %s: %v", s, err)
		}
		if fi.Mode()&os.ModeSocket == 0 || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s.sock mode = %v, want a 0600 socket", s, fi.Mode())
		}
	}

	// A second gateway on the same directory must not steal live sockets.
	other := server.New(h.svc, quiet)
	if _, err := other.ListenSockets(h.dir); err == nil {
		other.Close()
		t.Fatal("a second gateway took over the sockets of a live one")
	}

	// Once the first is gone, its stale files are replaced.
	dir := h.dir
	h.srv.Close() // no graceful unlink: leave the files behind like a crash
	stale := filepath.Join(dir, "alice-1.sock")
	if _, err := os.Stat(stale); err != nil {
		// Close unlinks too; recreate a dead socket file to stand for a crash.
		l, err := net.Listen("unix", stale)
		if err != nil {
			t.Fatal(err)
		}
		l.(*net.UnixListener).SetUnlinkOnClose(false)
		l.Close()
	}
	next := server.New(h.svc, quiet)
	defer next.Close()
	if _, err := next.ListenSockets(dir); err != nil {
		t.Fatalf("ListenSockets over stale files: %v", err)
	}
	res, err := unixClient(stale).Forge(context.Background(), connect.NewRequest(getIssue("acme/web", 404)))
	if err != nil {
		t.Fatal(err)
	}
	wantError(t, res.Msg, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)

	// A regular file in a socket's place is never deleted.
	plain := t.TempDir()
	os.WriteFile(filepath.Join(plain, "alice-1.sock"), []byte("keep me"), 0o600)
	third := server.New(h.svc, quiet)
	if _, err := third.ListenSockets(plain); err == nil {
		third.Close()
		t.Fatal("ListenSockets replaced a regular file")
	}
}
