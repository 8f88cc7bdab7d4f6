package server_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/server"
	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1connect"
	"github.com/forgetools/forgetools/internal/testforge"
	"github.com/forgetools/forgetools/internal/testkit"
	"github.com/forgetools/forgetools/subscriptions"
)

// Credential-looking values configured in every harness; no log line or
// result may ever contain them.
const (
	aliceToken  = "ftk_alice_8f3b2c1d9e7a6b5c4d3e2f1a"
	bobToken    = "ftk_bob_0a9b8c7d6e5f4a3b2c1d0e9f"
	forgeSecret = "ghp_T8kW3xQ6zM1vR9pN4bL7cY2hF5dJ0gS6aE2y"
)

// harness is a gateway served over real Unix sockets (and TCP), with
// in-memory forges that count the calls reaching them.
type harness struct {
	t      *testing.T
	store  *store.Store
	github *testforge.Forge // github/github.com, the default forge
	ghe    *testforge.Forge // github/ghe.example.com
	linear *testforge.Forge // linear/linear.app, issues only
	svc    *gateway.Service
	srv    *server.Server
	dir    string
	tcp    net.Addr
	logs   *testkit.Buffer
}

type option func(*gateway.Config, *server.Options)

// scope replaces alice's scope.
func scope(entries ...string) option {
	return func(c *gateway.Config, _ *server.Options) { c.Accounts[0].Scope = entries }
}

// scopeRefresh sets how long the gateway keeps a stored scope.
func scopeRefresh(d time.Duration) option {
	return func(c *gateway.Config, _ *server.Options) { c.ScopeRefresh = d }
}

func dedupWindow(d time.Duration) option {
	return func(c *gateway.Config, _ *server.Options) { c.DedupWindow = d }
}

func maxRequestBytes(n int) option {
	return func(_ *gateway.Config, o *server.Options) { o.MaxRequestBytes = n }
}

// start serves a gateway on the store at dsn. Accounts: alice (sessions
// alice-1 and alice-2, token aliceToken as session alice-tcp, scope
// acme/web and tools/* on github.com, acme/web on ghe.example.com and ENG
// on linear.app: an entry covers its forge only) and bob (session bob-1, token bobToken, empty
// scope).
func start(t *testing.T, dsn string, opts ...option) *harness {
	t.Helper()
	logs := &testkit.Buffer{}
	log := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	st, err := store.Open(context.Background(), dsn, store.Options{Logger: log})
	if err != nil {
		t.Fatalf("store.Open: %v", err)
	}
	h := &harness{
		t:      t,
		store:  st,
		github: testforge.New(forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, "github.com"),
		ghe:    testforge.New(forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, "ghe.example.com"),
		linear: testforge.New(forgev1.ForgeProvider_FORGE_PROVIDER_LINEAR, "linear.app"),
		logs:   logs,
	}
	cfg := gateway.Config{
		Accounts: []gateway.Account{
			{
				Name: "alice", AgentHandle: "claude-7", OwnerHandle: "alice-h",
				Scope:    []string{"acme/web", "tools/*", "ghe.example.com:acme/web", "linear.app:ENG"},
				Sessions: []string{"alice-1", "alice-2"},
				Tokens:   []gateway.Token{{Session: "alice-tcp", Secret: aliceToken}},
			},
			{
				Name: "bob", AgentHandle: "codex", OwnerHandle: "bob-h",
				Sessions: []string{"bob-1"},
				Tokens:   []gateway.Token{{Secret: bobToken}},
			},
		},
		Forges: []gateway.Forge{
			{Provider: subscriptions.Serve(h.github, st), Default: true},
			{Provider: subscriptions.Serve(h.ghe, st)},
			{Provider: h.linear.IssuesOnly()},
		},
		Store:  st,
		Logger: log,
		Redact: []string{forgeSecret},
	}
	sopts := server.Options{Logger: log}
	for _, o := range opts {
		o(&cfg, &sopts)
	}
	h.svc, err = gateway.New(cfg)
	if err != nil {
		t.Fatalf("gateway.New: %v", err)
	}
	h.srv = server.New(h.svc, sopts)
	// t.TempDir is too long for a socket path under a long test name.
	h.dir, err = os.MkdirTemp("", "ftgw")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.srv.ListenSockets(h.dir); err != nil {
		t.Fatalf("ListenSockets: %v", err)
	}
	if h.tcp, err = h.srv.ListenTCP("127.0.0.1:0"); err != nil {
		t.Fatalf("ListenTCP: %v", err)
	}
	t.Cleanup(h.stop)
	return h
}

// stop shuts the gateway down gracefully and closes its store, as a
// restart would; it is safe to call twice.
func (h *harness) stop() {
	if h.srv == nil {
		return
	}
	if err := h.srv.Shutdown(context.Background()); err != nil {
		h.t.Errorf("Shutdown: %v", err)
	}
	h.store.Close()
	os.RemoveAll(h.dir)
	h.srv = nil
}

// direct performs a call in process, without a socket.
func (h *harness) direct(ctx context.Context, id gateway.Identity, req *gatewayv1.ForgeCallRequest) *gatewayv1.ForgeCallResult {
	h.t.Helper()
	res, err := h.svc.Call(ctx, id, req)
	if err != nil {
		h.t.Fatalf("Call: %v", err)
	}
	return res.(*gatewayv1.ForgeCallResult)
}

// unixClient is a real Connect client on the socket at path.
func unixClient(path string) gatewayv1connect.AgentGatewayClient {
	return gatewayv1connect.NewAgentGatewayClient(&http.Client{Transport: unixTransport(path)}, "http://gateway")
}

func unixTransport(path string) *http.Transport {
	return &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", path)
		},
	}
}

// sendCounter is an http.RoundTripper that reports each request it starts
// sending, so a test knows when its calls are on the wire.
type sendCounter struct {
	next http.RoundTripper
	sent chan<- struct{}
}

func (s sendCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	s.sent <- struct{}{}
	return s.next.RoundTrip(r)
}

func (h *harness) client(session string) gatewayv1connect.AgentGatewayClient {
	return unixClient(filepath.Join(h.dir, session+".sock"))
}

// tcpClient sends token (if any) as a bearer token.
func (h *harness) tcpClient(token string) gatewayv1connect.AgentGatewayClient {
	var opts []connect.ClientOption
	if token != "" {
		opts = append(opts, connect.WithInterceptors(bearer(token)))
	}
	return gatewayv1connect.NewAgentGatewayClient(http.DefaultClient, "http://"+h.tcp.String(), opts...)
}

type bearer string

func (b bearer) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
		req.Header().Set("Authorization", "Bearer "+string(b))
		return next(ctx, req)
	}
}
func (b bearer) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return next
}
func (b bearer) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return next
}

// call sends req on session's socket and fails the test on a Connect error.
func (h *harness) call(session string, req *gatewayv1.ForgeCallRequest) *gatewayv1.ForgeCallResult {
	h.t.Helper()
	res, err := h.client(session).Forge(context.Background(), connect.NewRequest(req))
	if err != nil {
		h.t.Fatalf("Forge on %s: %v", session, err)
	}
	return res.Msg
}

// wantError asserts an in-band error with code whose message contains
// every fragment.
func wantError(t *testing.T, res *gatewayv1.ForgeCallResult, code gatewayv1.ErrorCode, fragments ...string) {
	t.Helper()
	fe := res.GetError()
	if fe == nil {
		t.Fatalf("got %v, want in-band %s", res, code)
	}
	if fe.Code != code {
		t.Fatalf("code = %s (%q), want %s", fe.Code, fe.Message, code)
	}
	for _, f := range fragments {
		if !bytes.Contains([]byte(fe.Message), []byte(f)) {
			t.Errorf("message %q does not mention %q", fe.Message, f)
		}
	}
}

// wantConnectError asserts a Connect-level error with code.
func wantConnectError(t *testing.T, err error, code connect.Code) {
	t.Helper()
	var ce *connect.Error
	if !errors.As(err, &ce) || ce.Code() != code {
		t.Fatalf("error = %v, want Connect %s", err, code)
	}
}

// Request builders.

func createIssue(repo, title, body, key string) *gatewayv1.ForgeCallRequest {
	return &gatewayv1.ForgeCallRequest{
		CallId:          "call-create-issue",
		ClientRequestId: key,
		Call: &gatewayv1.ForgeCallRequest_CreateIssue{CreateIssue: &gatewayv1.CreateIssueRequest{
			Repo: repo, Title: title, Body: body,
		}},
	}
}

func createPR(repo, title, key string) *gatewayv1.ForgeCallRequest {
	return &gatewayv1.ForgeCallRequest{
		CallId:          "call-pr",
		ClientRequestId: key,
		Call: &gatewayv1.ForgeCallRequest_CreatePullRequest{CreatePullRequest: &gatewayv1.CreatePullRequestRequest{
			Repo: repo, Title: title, HeadRef: "feature",
		}},
	}
}

func getIssue(repo string, n uint64) *gatewayv1.ForgeCallRequest {
	return &gatewayv1.ForgeCallRequest{CallId: "get", Call: &gatewayv1.ForgeCallRequest_GetIssue{
		GetIssue: &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: n},
	}}
}

func withForge(req *gatewayv1.ForgeCallRequest, p forgev1.ForgeProvider, host string) *gatewayv1.ForgeCallRequest {
	req.Forge = &forgev1.ForgeRef{Provider: p, Host: host}
	return req
}
