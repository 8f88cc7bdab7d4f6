package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// One structured line per call, with who/what/where/outcome and no bodies;
// and no configured secret anywhere in the logs or the results, whatever
// the traffic (good tokens, bad tokens, errors that quote a credential).
func TestLogsCarryNoSecretsOrBodies(t *testing.T) {
	h := start(t, storetest.SQLite(t))
	ctx := context.Background()
	var results []string
	record := func(res *gatewayv1.ForgeCallResult) { results = append(results, res.String()) }

	record(h.call("alice-1", createIssue("acme/web", "SECRET-TITLE", "SECRET-BODY "+aliceToken, "k")))
	record(h.call("alice-1", createIssue("acme/web", "SECRET-TITLE", "SECRET-BODY "+aliceToken, "k")))
	record(h.call("bob-1", getIssue("acme/web", 1)))
	for _, token := range []string{aliceToken, bobToken, bobToken + "0"} {
		res, err := h.tcpClient(token).Forge(ctx, connect.NewRequest(getIssue("acme/web", 1)))
		if err == nil {
			record(res.Msg)
		} else {
			results = append(results, err.Error())
		}
	}
	h.github.FailWith(errors.New("GET https://api.github.com: bad credential " + forgeSecret + " for token " + aliceToken))
	record(h.call("alice-1", getIssue("acme/web", 1)))
	h.github.FailWith(nil)

	logs := h.logs.String()
	for _, secret := range []string{aliceToken, bobToken, forgeSecret} {
		if strings.Contains(logs, secret) {
			t.Errorf("a configured secret %.8s... appears in the logs", secret)
		}
		for _, r := range results {
			if strings.Contains(r, secret) && !strings.Contains(r, "SECRET-BODY") {
				t.Errorf("a configured secret %.8s... appears in a result: %s", secret, r)
			}
		}
	}
	if strings.Contains(logs, "SECRET-TITLE") || strings.Contains(logs, "SECRET-BODY") {
		t.Error("a title or body was logged")
	}
	if !strings.Contains(logs, "[REDACTED]") {
		t.Error("the internal error's cause was not logged (redacted)")
	}

	var calls []map[string]any
	sc := bufio.NewScanner(strings.NewReader(logs))
	for sc.Scan() {
		var line map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("log line is not JSON: %s", sc.Text())
		}
		if line["msg"] == "forge call" {
			calls = append(calls, line)
		}
	}
	if len(calls) != 6 { // two creates, bob's get, two token gets, the failing get
		t.Fatalf("%d call log lines, want 6:\n%s", len(calls), logs)
	}
	first, replay, bob := calls[0], calls[1], calls[2]
	for k, want := range map[string]any{"account": "alice", "session": "alice-1", "tool": "forge_create_issue",
		"forge": "github/github.com", "repo": "acme/web", "outcome": "ok"} {
		if first[k] != want {
			t.Errorf("create log %s = %v, want %v", k, first[k], want)
		}
	}
	if d, ok := first["duration_ms"].(float64); !ok || d < 0 || d != float64(int64(d)) {
		t.Errorf("duration_ms = %v, want whole milliseconds", first["duration_ms"])
	}
	if replay["replay"] != true {
		t.Errorf("the replay's log line does not say so: %v", replay)
	}
	if bob["outcome"] != "permission_denied" || bob["account"] != "bob" {
		t.Errorf("bob's log line = %v", bob)
	}
	if last := calls[5]; last["outcome"] != "internal" || last["level"] != "ERROR" {
		t.Errorf("internal failure log line = %v", last)
	}
}
