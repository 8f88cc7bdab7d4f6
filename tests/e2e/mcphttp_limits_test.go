package e2e_test

import (
	"io"
	"net/http"
	"strings"
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

// TestMCPOverHTTPSessionCap: a token holds at most --max-sessions open;
// past it a new session is refused with 429 and a reason, and another
// token is unaffected.
func TestMCPOverHTTPSessionCap(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "ALICE_GATEWAY_TOKEN="+aliceGatewayToken, "E2E_BOB_MCP_TOKEN="+bobMCPToken)
	_, endpoint := e.mcpHTTP("--config", writeConfig(t, accessConfig), "--store", storetest.SQLite(t),
		"--token-env", "E2E_BOB_MCP_TOKEN", "--session", "bob-1", "--max-sessions", "2")
	for range 2 {
		if code, id, body := mcpPost(t, endpoint, aliceGatewayToken, initializeBody, nil); code != http.StatusOK || id == "" {
			t.Fatalf("initialize: %d %q %s", code, id, body)
		}
	}
	code, _, body := mcpPost(t, endpoint, aliceGatewayToken, initializeBody, nil)
	if code != http.StatusTooManyRequests || !strings.Contains(body, "already has 2 open MCP sessions") {
		t.Fatalf("third session: %d %s, want 429 saying why", code, body)
	}
	if code, id, body := mcpPost(t, endpoint, bobMCPToken, initializeBody, nil); code != http.StatusOK || id == "" {
		t.Errorf("bob's first session: %d %s", code, body)
	}
}

// TestMCPOverHTTPSessionIdle: a session with no request for --session-idle
// closes: its id is then unknown (404) and it no longer counts against the
// cap. The expiry is polled for (by opening sessions, which does not touch
// the idle one), with no fixed sleep.
func TestMCPOverHTTPSessionIdle(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "ALICE_GATEWAY_TOKEN="+aliceGatewayToken)
	_, endpoint := e.mcpHTTP("--config", writeConfig(t, accessConfig), "--store", storetest.SQLite(t),
		"--max-sessions", "1", "--session-idle", "50ms")
	code, idle, body := mcpPost(t, endpoint, aliceGatewayToken, initializeBody, nil)
	if code != http.StatusOK || idle == "" {
		t.Fatalf("initialize: %d %q %s", code, idle, body)
	}
	deadline := time.Now().Add(commandTimeout)
	for {
		code, _, _ = mcpPost(t, endpoint, aliceGatewayToken, initializeBody, nil)
		if code == http.StatusOK {
			break
		}
		if code != http.StatusTooManyRequests || time.Now().After(deadline) {
			t.Fatalf("waiting for the idle session to expire: %d", code)
		}
		time.Sleep(10 * time.Millisecond)
	}
	ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	headers := map[string]string{"Mcp-Session-Id": idle, "Mcp-Protocol-Version": "2025-06-18"}
	if code, _, body := mcpPost(t, endpoint, aliceGatewayToken, ping, headers); code != http.StatusNotFound {
		t.Errorf("the idle session after expiry: %d %s, want 404", code, body)
	}
}
