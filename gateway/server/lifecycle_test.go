package server_test

import (
	"context"
	"crypto/tls"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"connectrpc.com/connect"
	"github.com/forgetools/forgetools/gateway/server"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1connect"
)

// Shutdown lets a call in flight finish, then removes the sockets.
func TestGracefulShutdown(t *testing.T) {
	h := start(t, storetest.SQLite(t))
	release := h.github.Hold()
	done := make(chan *gatewayv1.ForgeCallResult, 1)
	go func() {
		res, err := h.client("alice-1").Forge(context.Background(), connect.NewRequest(createIssue("acme/web", "in flight", "", "k")))
		if err != nil {
			t.Errorf("call in flight: %v", err)
			done <- nil
			return
		}
		done <- res.Msg
	}()
	<-h.github.Entered()

	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- h.srv.Run(ctx) }()
	cancel() // Run starts a graceful shutdown

	release()
	if res := <-done; res.GetIssue().GetUrl() == "" {
		t.Fatalf("the call in flight during shutdown = %v", res)
	}
	if err := <-ran; err != nil {
		t.Fatalf("Run = %v, want nil after a requested shutdown", err)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "alice-1.sock")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("socket still there after shutdown: %v", err)
	}
	_, err := h.client("alice-2").Forge(context.Background(), connect.NewRequest(getIssue("acme/web", 1)))
	if err == nil {
		t.Fatal("a stopped gateway answered")
	}
}

// A caller that hangs up mid-create does not abort it: the create finishes
// and the retry replays it instead of filing it twice.
func TestHangUpDuringCreate(t *testing.T) {
	h := start(t, storetest.SQLite(t))
	release := h.github.Hold()
	ctx, cancel := context.WithCancel(context.Background())
	gone := make(chan error, 1)
	go func() {
		_, err := h.client("alice-1").Forge(ctx, connect.NewRequest(createIssue("acme/web", "t", "", "k")))
		gone <- err
	}()
	<-h.github.Entered()
	cancel()
	if err := <-gone; connect.CodeOf(err) != connect.CodeCanceled {
		t.Fatalf("hung-up call = %v", err)
	}
	release()
	res := h.call("alice-2", createIssue("acme/web", "t", "", "k"))
	if res.GetIssue().GetUrl() != "" || res.GetIssue().GetNumber() != 1 {
		t.Fatalf("retry = %v, want a replay of #1", res)
	}
	if h.github.Calls("CreateIssue") != 1 {
		t.Fatalf("forge saw %d creates, want 1", h.github.Calls("CreateIssue"))
	}
}

func TestTCPOverTLS(t *testing.T) {
	// httptest's self-signed certificate for 127.0.0.1, and a client that
	// trusts it.
	ts := httptest.NewTLSServer(http.NotFoundHandler())
	defer ts.Close()
	h := start(t, storetest.SQLite(t))
	srv := server.New(h.svc, server.Options{TLS: &tls.Config{Certificates: ts.TLS.Certificates}, Logger: quiet.Logger})
	defer srv.Close()
	addr, err := srv.ListenTCP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	client := gatewayv1connect.NewAgentGatewayClient(ts.Client(), "https://"+addr.String(),
		connect.WithInterceptors(bearer(aliceToken)))
	res, err := client.Forge(context.Background(), connect.NewRequest(createIssue("acme/web", "tls", "", "")))
	if err != nil || res.Msg.GetIssue() == nil {
		t.Fatalf("create over TLS = %v, %v", res, err)
	}
	plain := gatewayv1connect.NewAgentGatewayClient(http.DefaultClient, "http://"+addr.String(), connect.WithInterceptors(bearer(aliceToken)))
	if _, err := plain.Forge(context.Background(), connect.NewRequest(getIssue("acme/web", 1))); err == nil {
		t.Fatal("the TLS listener answered plain HTTP")
	}
}
