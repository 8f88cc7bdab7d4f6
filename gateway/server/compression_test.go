package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"connectrpc.com/connect"
	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1connect"
)

// encodings is an http.RoundTripper that notes the Content-Encoding of every
// response, so a test sees whether the gateway compressed it (the Connect
// client inflates the body either way).
type encodings struct {
	next http.RoundTripper
	mu   sync.Mutex
	seen []string
}

func (e *encodings) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := e.next.RoundTrip(r)
	if err == nil {
		e.mu.Lock()
		e.seen = append(e.seen, res.Header.Get("Content-Encoding"))
		e.mu.Unlock()
	}
	return res, err
}

func (e *encodings) last() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.seen[len(e.seen)-1]
}

// bigIssue files an issue whose read is well over the compression
// threshold and returns its number.
func bigIssue(t *testing.T, h *harness) uint64 {
	t.Helper()
	body := strings.Repeat("A long report that compresses well. ", 200) // 7 KiB
	res := h.call("alice-1", createIssue("acme/web", "Big", body, "big-1"))
	if res.GetIssue() == nil {
		t.Fatalf("create: %v", res)
	}
	return res.GetIssue().GetNumber()
}

// TestLocalCallsAreUncompressed: a client that accepts gzip (Connect's
// default) still gets uncompressed answers over a Unix socket and from
// loopback TCP, where compressing costs CPU and saves nothing.
func TestLocalCallsAreUncompressed(t *testing.T) {
	h := start(t, storetest.SQLite(t))
	n := bigIssue(t, h)

	sock := &encodings{next: unixTransport(filepath.Join(h.dir, "alice-1.sock"))}
	tcp := &encodings{next: http.DefaultTransport}
	for name, c := range map[string]struct {
		client gatewayv1connect.AgentGatewayClient
		enc    *encodings
	}{
		"unix socket": {gatewayv1connect.NewAgentGatewayClient(&http.Client{Transport: sock}, "http://gateway"), sock},
		"loopback tcp": {gatewayv1connect.NewAgentGatewayClient(&http.Client{Transport: tcp}, "http://"+h.tcp.String(),
			connect.WithInterceptors(bearer(aliceToken))), tcp},
	} {
		res, err := c.client.Forge(context.Background(), connect.NewRequest(getIssue("acme/web", n)))
		if err != nil || res.Msg.GetIssue() == nil {
			t.Fatalf("%s: %v %v", name, err, res)
		}
		if got := c.enc.last(); got != "" {
			t.Errorf("%s: a %d-byte read came back with Content-Encoding %q, want none", name, len(res.Msg.GetIssue().GetBody()), got)
		}
	}
}

// TestRemoteCallsCompressAboveThreshold: mounted on a listener of one's
// own, where the gateway cannot tell a peer is local, the handler still
// gzips a large answer for a client that accepts it, and leaves a small one
// alone.
func TestRemoteCallsCompressAboveThreshold(t *testing.T) {
	h := start(t, storetest.SQLite(t))
	n := bigIssue(t, h)
	id, _ := h.svc.SessionIdentity("alice-1")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.srv.Handler().ServeHTTP(w, r.WithContext(gateway.WithIdentity(r.Context(), id)))
	}))
	defer srv.Close()
	enc := &encodings{next: http.DefaultTransport}
	client := gatewayv1connect.NewAgentGatewayClient(&http.Client{Transport: enc}, srv.URL)

	for _, tc := range []struct {
		name string
		req  *gatewayv1.ForgeCallRequest
		want string
	}{
		{"large read", getIssue("acme/web", n), "gzip"},
		{"small failure", getIssue("acme/web", n+100), ""},
	} {
		if _, err := client.Forge(context.Background(), connect.NewRequest(tc.req)); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := enc.last(); got != tc.want {
			t.Errorf("%s: Content-Encoding %q, want %q", tc.name, got, tc.want)
		}
	}
}
