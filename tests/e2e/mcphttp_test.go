package e2e_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgetools/forgetools/gateway/store/storetest"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/internal/testkit"
)

// bobMCPToken is given to bob (accessConfig) with --token-env.
const bobMCPToken = "bob-mcp-token-0123456789abcdef00"

// mcpHTTP starts `forgetools mcp --http 127.0.0.1:0 args...` and returns
// it with its endpoint URL.
func (e *env) mcpHTTP(args ...string) (*testkit.Server, string) {
	e.t.Helper()
	srv := testkit.Serve(e.t, e.command(context.Background(), append([]string{"mcp", "--http", "127.0.0.1:0"}, args...)...), 1)
	if !strings.HasSuffix(srv.TCP, "/mcp") {
		e.t.Fatalf("mcp --http announced %q, want an endpoint ending in /mcp", srv.TCP)
	}
	return srv, srv.TCP
}

// bearerTransport adds a bearer token to every request.
type bearerTransport struct {
	token string
	base  http.RoundTripper
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.token != "" {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return b.base.RoundTrip(r)
}

// httpSession connects the SDK's streamable HTTP client with token.
func httpSession(t *testing.T, endpoint, token string, base http.RoundTripper) (*mcp.ClientSession, error) {
	t.Helper()
	return httpSessionWith(t, endpoint, token, base, nil)
}

// httpSessionWith is httpSession with client options.
func httpSessionWith(t *testing.T, endpoint, token string, base http.RoundTripper, opts *mcp.ClientOptions) (*mcp.ClientSession, error) {
	t.Helper()
	if base == nil {
		base = http.DefaultTransport
	}
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "forgetools-e2e-http", Version: "0"}, opts)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   endpoint,
		HTTPClient: &http.Client{Transport: bearerTransport{token: token, base: base}},
	}, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

// TestMCPOverHTTP: the SDK's HTTP client lists the tools and calls them;
// the bearer token decides the account, and a missing or wrong token is
// refused before any tool runs.
func TestMCPOverHTTP(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "ALICE_GATEWAY_TOKEN="+aliceGatewayToken, "E2E_BOB_MCP_TOKEN="+bobMCPToken)
	srv, endpoint := e.mcpHTTP("--config", writeConfig(t, accessConfig), "--store", storetest.SQLite(t),
		"--token-env", "E2E_BOB_MCP_TOKEN", "--session", "bob-1")

	alice, err := httpSession(t, endpoint, aliceGatewayToken, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantTools(t, alice, localOnly)
	wantCall(t, alice, "forge_create_issue", `{"repo":"demo/app","title":"Over HTTP"}`, false,
		`Created issue #1 in demo/app: http://forge\.test/f/demo/app/issues/1`)
	text, _ := callText(t, alice, "forge_get_issue", `{"repo":"demo/app","issue_number":1}`)
	if !strings.Contains(text, "agent=alice-bot owner=alice session=alice\n") {
		t.Errorf("alice's issue over HTTP:\n%s", text)
	}

	bob, err := httpSession(t, endpoint, bobMCPToken, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantCall(t, bob, "forge_get_issue", `{"repo":"demo/app","issue_number":1}`, true,
		`forge_get_issue failed: permission_denied: repository "demo/app" is outside the scope of account "bob"`)
	text, _ = callText(t, bob, "forge_list_issues", `{"repo":"demo/app"}`)
	if !strings.Contains(text, `account "bob"`) {
		t.Errorf("bob's token acted as someone else: %s", text)
	}

	for name, token := range map[string]string{"no token": "", "wrong token": "not-a-token-of-anyone-at-all"} {
		if cs, err := httpSession(t, endpoint, token, nil); err == nil {
			cs.Close()
			t.Errorf("%s: connected, want a refusal", name)
		}
	}
	if code := srv.Stop(syscall.SIGTERM); code != 0 {
		t.Errorf("mcp --http exited %d\nstderr:\n%s", code, srv.Stderr.String())
	}
	if !strings.Contains(srv.Stderr.String(), "rejected an MCP HTTP request without a valid bearer token") {
		t.Errorf("the refusals were not logged:\n%s", srv.Stderr.String())
	}
	for _, secret := range []string{aliceGatewayToken, bobMCPToken, "not-a-token-of-anyone-at-all"} {
		if strings.Contains(srv.Stderr.String(), secret) {
			t.Errorf("a token reached the log")
		}
	}
}

// TestMCPOverHTTPResourceNotifications: over HTTP too, each subscription
// of the token's session is a resource, and a client subscribed to it
// hears of a write on the local forge.
func TestMCPOverHTTPResourceNotifications(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "ALICE_GATEWAY_TOKEN="+aliceGatewayToken)
	_, endpoint := e.mcpHTTP("--config", writeConfig(t, accessConfig), "--store", storetest.SQLite(t))
	got := updates(make(chan string, 10))
	alice, err := httpSessionWith(t, endpoint, aliceGatewayToken, nil, got.options())
	if err != nil {
		t.Fatal(err)
	}
	_, uri := subscribeResource(t, alice, "demo/app", nil)
	wantCall(t, alice, "forge_comment_on_pull_request", `{"repo":"demo/app","pull_number":1,"body":"Over HTTP."}`, false, `Commented on PR #1 .*`)
	if u := got.next(t, "a comment over HTTP"); u != uri {
		t.Fatalf("updated %q, want %q", u, uri)
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key, and returns
// their paths and a pool trusting it.
func selfSigned(t *testing.T) (cert, key string, pool *x509.CertPool) {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "forgetools e2e"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	parsed, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool = x509.NewCertPool()
	pool.AddCert(parsed)
	return cert, key, pool
}

// TestTLSListeners: the gateway's TCP listener (certificate from the
// config) and the MCP HTTP listener (from flags) serve TLS, and clients
// that trust the certificate get through.
func TestTLSListeners(t *testing.T) {
	t.Parallel()
	cert, key, pool := selfSigned(t)
	e := newEnv(t, "ALICE_GATEWAY_TOKEN="+aliceGatewayToken, "SSL_CERT_FILE="+cert)

	cfg := writeConfig(t, accessConfig+"tls_cert: "+cert+"\ntls_key: "+key+"\n")
	gw := e.serve(4, "--config", cfg, "--store", storetest.SQLite(t), "--socket-dir", socketDir(t))
	if !strings.HasPrefix(gw.TCP, "https://127.0.0.1:") {
		t.Fatalf("serve announced %q, want an https:// listener", gw.TCP)
	}
	e.call("forge_create_issue", `{"repo":"demo/app","title":"Over TLS"}`, "--gateway", gw.TCP, "--token-env", "ALICE_GATEWAY_TOKEN").
		want(t, 0, `Created issue #1 in demo/app: .*`)
	gw.Stop(syscall.SIGTERM)
	if strings.Contains(gw.Stderr.String(), "without TLS") || !strings.Contains(gw.Stderr.String(), "tls=true") {
		t.Errorf("a TLS listener warned about clear text, or did not say it serves TLS:\n%s", gw.Stderr.String())
	}

	_, endpoint := e.mcpHTTP("--config", writeConfig(t, accessConfig), "--store", storetest.SQLite(t), "--tls-cert", cert, "--tls-key", key)
	if !strings.HasPrefix(endpoint, "https://") {
		t.Fatalf("mcp --http with a certificate announced %q", endpoint)
	}
	trusting := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}
	cs, err := httpSession(t, endpoint, aliceGatewayToken, trusting)
	if err != nil {
		t.Fatal(err)
	}
	wantCall(t, cs, "forge_create_issue", `{"repo":"demo/app","title":"MCP over TLS"}`, false, `Created issue #1 in demo/app: .*`)
	if _, err := httpSession(t, strings.Replace(endpoint, "https://", "http://", 1), aliceGatewayToken, nil); err == nil {
		t.Error("plain HTTP to the TLS listener connected")
	}
}

// TestListenerWarnings: a bearer-token listener on a non-loopback address
// without TLS, or with no token configured, says so when it starts.
func TestListenerWarnings(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const clear = "is on a non-loopback address without TLS: bearer tokens cross the network in clear text"
	const refused = "has no account token configured: every call on it will be refused"

	gw := e.serve(2, "--config", writeConfig(t, aliceConfig), "--store", storetest.SQLite(t),
		"--socket-dir", socketDir(t), "--listen", "0.0.0.0:0")
	gw.Stop(syscall.SIGTERM) // stderr is complete once it has exited
	for _, w := range []string{"gateway TCP listener " + clear, "gateway TCP listener " + refused} {
		if !strings.Contains(gw.Stderr.String(), w) {
			t.Errorf("serve --listen 0.0.0.0:0 did not warn %q:\n%s", w, gw.Stderr.String())
		}
	}
	srv := testkit.Serve(t, e.command(context.Background(), "mcp", "--http", "0.0.0.0:0", "--store", storetest.SQLite(t)), 1)
	srv.Stop(syscall.SIGTERM)
	for _, w := range []string{"MCP HTTP listener " + clear, "MCP HTTP listener " + refused} {
		if !strings.Contains(srv.Stderr.String(), w) {
			t.Errorf("mcp --http 0.0.0.0:0 did not warn %q:\n%s", w, srv.Stderr.String())
		}
	}
	quiet := testkit.Serve(t, newEnv(t, "E2E_TOKEN="+aliceGatewayToken).command(context.Background(),
		"mcp", "--http", "127.0.0.1:0", "--token-env", "E2E_TOKEN", "--store", storetest.SQLite(t)), 1)
	if code := quiet.Stop(syscall.SIGTERM); code != 0 || strings.Contains(quiet.Stderr.String(), "level=WARN") {
		t.Errorf("a loopback listener with a token warned or failed (exit %d):\n%s", code, quiet.Stderr.String())
	}
}

// inspector is the MCP Inspector's CLI, a client no one here wrote:
// scripts/test installs it (FORGETOOLS_MCP_INSPECTOR names the binary).
func inspector(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("FORGETOOLS_MCP_INSPECTOR")
	if bin == "" {
		if os.Getenv("FORGETOOLS_REQUIRE_INSPECTOR") != "" {
			t.Fatal("FORGETOOLS_REQUIRE_INSPECTOR is set but FORGETOOLS_MCP_INSPECTOR names no inspector binary")
		}
		t.Skip("set FORGETOOLS_MCP_INSPECTOR to the mcp-inspector binary (make test installs it) to run the MCP Inspector checks")
	}
	return bin
}

// inspectorTools runs the Inspector's tools/list against target and
// returns the tool names it printed.
func inspectorTools(t *testing.T, e *env, bin string, target ...string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(append([]string{"--cli"}, target...), "--method", "tools/list")...)
	cmd.Env = append(os.Environ(), e.vars...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(cmd.Env, "HOME="+cmd.Dir) // the Inspector keeps a catalog in ~
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mcp-inspector %v: %v\n%s", target, err, out)
	}
	var list struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatalf("mcp-inspector %v printed no tool list: %v\n%s", target, err, out)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	return names
}

// TestMCPInspector: the MCP Inspector lists every tool of `mcp --http`
// (with a bearer token) and of `mcp --github` over stdio with a dummy token.
func TestMCPInspector(t *testing.T) {
	t.Parallel()
	bin := inspector(t)
	var names []string
	for _, tool := range gatewayv1tools.ForgeTools.Tools {
		names = append(names, tool.Name)
	}
	want := strings.Join(names, ",")

	e := newEnv(t, "ALICE_GATEWAY_TOKEN="+aliceGatewayToken)
	_, endpoint := e.mcpHTTP("--config", writeConfig(t, accessConfig), "--store", storetest.SQLite(t))
	if got := strings.Join(inspectorTools(t, e, bin, endpoint, "--header", "Authorization: Bearer "+aliceGatewayToken), ","); got != want {
		t.Errorf("Inspector over HTTP listed %s, want %s", got, want)
	}

	gh := newEnv(t, "GITHUB_TOKEN=ghp_dummyTokenNeverSentAnywhere000000")
	got := inspectorTools(t, gh, bin, "-e", "GITHUB_TOKEN=ghp_dummyTokenNeverSentAnywhere000000",
		"-e", "FORGETOOLS_DATA_DIR="+gh.dataDir(), forgetools, "mcp", "--github", "--repo", "octocat/Hello-World")
	if strings.Join(got, ",") != want {
		t.Errorf("Inspector over stdio (mcp --github) listed %v, want %s", got, want)
	}
}
