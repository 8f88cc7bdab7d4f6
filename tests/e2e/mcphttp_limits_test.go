package e2e_test

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// initializeBody is an MCP initialize request as a client first sends it.
const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e-raw","version":"0"}}}`

// mcpPost posts body to endpoint with the token and headers given, and
// returns the status, the session id it names and the body.
func mcpPost(t *testing.T, endpoint, token, body string, headers map[string]string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), string(b)
}

// TestMCPOverHTTPOrigin: a browser page's request is answered 403 unless
// its Origin is loopback (the listener is) or named by --allow-origin,
// whatever token it carries; a request without Origin (a non-browser
// client) goes on to the bearer check. The allowed origins also come from
// FORGETOOLS_ALLOW_ORIGIN.
func TestMCPOverHTTPOrigin(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "ALICE_GATEWAY_TOKEN="+aliceGatewayToken, "FORGETOOLS_ALLOW_ORIGIN=https://env.example")
	_, endpoint := e.mcpHTTP("--config", writeConfig(t, accessConfig), "--store", storetest.SQLite(t),
		"--allow-origin", "https://app.example.com", "--allow-origin", "http://tool.example:8000")
	for origin, want := range map[string]int{
		"":                          http.StatusOK,
		"http://localhost:6274":     http.StatusOK,
		"http://127.0.0.1":          http.StatusOK,
		"https://app.example.com":   http.StatusOK,
		"http://tool.example:8000":  http.StatusOK,
		"http://evil.example":       http.StatusForbidden,
		"null":                      http.StatusForbidden,
		"https://app.example.com.x": http.StatusForbidden,
		"http://tool.example:8001":  http.StatusForbidden,
		"https://env.example":       http.StatusForbidden, // the flag was given: it wins over the variable
	} {
		headers := map[string]string{}
		if origin != "" {
			headers["Origin"] = origin
		}
		code, _, body := mcpPost(t, endpoint, aliceGatewayToken, initializeBody, headers)
		if code != want {
			t.Errorf("Origin %q: %d %s, want %d", origin, code, body, want)
		}
		if code == http.StatusForbidden && !strings.Contains(body, "Origin not allowed") {
			t.Errorf("Origin %q: 403 body %q does not say why", origin, body)
		}
	}
	// A refused origin is refused before the token is looked at.
	if code, _, _ := mcpPost(t, endpoint, "", initializeBody, map[string]string{"Origin": "http://evil.example"}); code != http.StatusForbidden {
		t.Errorf("evil origin without a token: %d, want 403", code)
	}

	e2 := newEnv(t, "ALICE_GATEWAY_TOKEN="+aliceGatewayToken, "FORGETOOLS_ALLOW_ORIGIN=https://env.example,https://env2.example")
	_, endpoint2 := e2.mcpHTTP("--config", writeConfig(t, accessConfig), "--store", storetest.SQLite(t))
	for _, origin := range []string{"https://env.example", "https://env2.example"} {
		if code, _, body := mcpPost(t, endpoint2, aliceGatewayToken, initializeBody, map[string]string{"Origin": origin}); code != http.StatusOK {
			t.Errorf("FORGETOOLS_ALLOW_ORIGIN %q: %d %s, want 200", origin, code, body)
		}
	}
}

// TestMCPOverHTTPSessionCap: a token holds at most --max-sessions open; a
// new one past it closes the token's idlest session (the one whose last
// request is oldest), keeps the others, and leaves another token's alone.
func TestMCPOverHTTPSessionCap(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "ALICE_GATEWAY_TOKEN="+aliceGatewayToken, "E2E_BOB_MCP_TOKEN="+bobMCPToken)
	srv, endpoint := e.mcpHTTP("--config", writeConfig(t, accessConfig), "--store", storetest.SQLite(t),
		"--token-env", "E2E_BOB_MCP_TOKEN", "--session", "bob-1", "--max-sessions", "2", "--log-level", "info")
	open := func(token string) string {
		t.Helper()
		code, id, body := mcpPost(t, endpoint, token, initializeBody, nil)
		if code != http.StatusOK || id == "" {
			t.Fatalf("initialize: %d %q %s", code, id, body)
		}
		return id
	}
	ping := func(token, id string) int {
		t.Helper()
		code, _, _ := mcpPost(t, endpoint, token, `{"jsonrpc":"2.0","id":2,"method":"ping"}`,
			map[string]string{"Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18"})
		return code
	}
	bob := open(bobMCPToken)
	a, b := open(aliceGatewayToken), open(aliceGatewayToken)
	if code := ping(aliceGatewayToken, a); code != http.StatusOK {
		t.Fatalf("ping a: %d", code)
	}
	c := open(aliceGatewayToken) // b is the idlest now
	for id, want := range map[string]int{a: http.StatusOK, b: http.StatusNotFound, c: http.StatusOK} {
		if code := ping(aliceGatewayToken, id); code != want {
			t.Errorf("after the third session, ping %s: %d, want %d", id, code, want)
		}
	}
	open(aliceGatewayToken) // a or c goes; bob's stays
	if code := ping(bobMCPToken, bob); code != http.StatusOK {
		t.Errorf("bob's session after alice's evictions: %d", code)
	}
	srv.Stop(syscall.SIGTERM)
	if !strings.Contains(srv.Stderr.String(), "closed the idlest MCP session of a token at --max-sessions") {
		t.Errorf("the eviction was not logged:\n%s", srv.Stderr.String())
	}
}

// TestMCPOverHTTPSessionIdle: a session with no request for --session-idle
// closes, and its id is then unknown (404). A ping naming the session is
// itself activity, so the poll waits longer each time (from twice the idle
// time, doubling): no fixed sleep a slow machine could outrun.
func TestMCPOverHTTPSessionIdle(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "ALICE_GATEWAY_TOKEN="+aliceGatewayToken)
	const idle = 50 * time.Millisecond
	_, endpoint := e.mcpHTTP("--config", writeConfig(t, accessConfig), "--store", storetest.SQLite(t),
		"--session-idle", idle.String())
	code, id, body := mcpPost(t, endpoint, aliceGatewayToken, initializeBody, nil)
	if code != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d %q %s", code, id, body)
	}
	ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	headers := map[string]string{"Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18"}
	deadline := time.Now().Add(commandTimeout)
	for wait := 2 * idle; ; wait *= 2 {
		time.Sleep(wait)
		code, _, body = mcpPost(t, endpoint, aliceGatewayToken, ping, headers)
		if code == http.StatusNotFound {
			break
		}
		if code != http.StatusOK || time.Now().After(deadline) {
			t.Fatalf("waiting for the idle session to expire: %d %s", code, body)
		}
	}
	// With no --session-idle, the default keeps a session far longer.
	e2 := newEnv(t, "ALICE_GATEWAY_TOKEN="+aliceGatewayToken)
	_, endpoint2 := e2.mcpHTTP("--config", writeConfig(t, accessConfig), "--store", storetest.SQLite(t))
	_, id2, _ := mcpPost(t, endpoint2, aliceGatewayToken, initializeBody, nil)
	time.Sleep(4 * idle)
	if code, _, body := mcpPost(t, endpoint2, aliceGatewayToken, ping, map[string]string{"Mcp-Session-Id": id2, "Mcp-Protocol-Version": "2025-06-18"}); code != http.StatusOK {
		t.Errorf("a session under the default idle time: %d %s", code, body)
	}
}

// TestMCPOverHTTPSessionCapUnderConcurrency (adversarial pass): a token
// opening many sessions at once cannot get past --max-sessions by racing
// the count; afterwards at most that many of its sessions answer.
func TestMCPOverHTTPSessionCapUnderConcurrency(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "ALICE_GATEWAY_TOKEN="+aliceGatewayToken)
	_, endpoint := e.mcpHTTP("--config", writeConfig(t, accessConfig), "--store", storetest.SQLite(t), "--max-sessions", "3")
	const n = 24
	ids := make(chan string, n)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if code, id, _ := mcpPost(t, endpoint, aliceGatewayToken, initializeBody, nil); code == http.StatusOK {
				ids <- id
			}
		}()
	}
	wg.Wait()
	close(ids)
	alive := 0
	for id := range ids {
		code, _, _ := mcpPost(t, endpoint, aliceGatewayToken, `{"jsonrpc":"2.0","id":2,"method":"ping"}`,
			map[string]string{"Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18"})
		if code == http.StatusOK {
			alive++
		}
	}
	if alive == 0 || alive > 3 {
		t.Errorf("%d of %d concurrent sessions alive, want 1 to 3", alive, n)
	}
	t.Logf("%d concurrent initializations, %d sessions alive (cap 3)", n, alive)
}

// TestMCPOverHTTPNoCorsRequest (adversarial pass): a browser's no-cors
// request carries no Origin, but Sec-Fetch-Site says cross-site: 403.
func TestMCPOverHTTPNoCorsRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "ALICE_GATEWAY_TOKEN="+aliceGatewayToken)
	_, endpoint := e.mcpHTTP("--config", writeConfig(t, accessConfig), "--store", storetest.SQLite(t))
	if code, _, body := mcpPost(t, endpoint, aliceGatewayToken, initializeBody, map[string]string{"Sec-Fetch-Site": "cross-site"}); code != http.StatusForbidden {
		t.Errorf("cross-site without Origin: %d %s, want 403", code, body)
	}
	// The rebinding shape the conformance suite sends: Host and Origin not
	// loopback, on a loopback listener.
	if code, _, _ := mcpPost(t, endpoint, aliceGatewayToken, initializeBody, map[string]string{"Host": "evil.example", "Origin": "http://evil.example"}); code != http.StatusForbidden {
		t.Errorf("rebinding Host and Origin: %d, want 403", code)
	}
}
