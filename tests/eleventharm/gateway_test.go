package eleventharm_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/server"
	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/runtime"
	"github.com/forgetools/forgetools/tests/eleventharm/examplev1/examplev1handler"
	"github.com/forgetools/forgetools/tests/eleventharm/examplev1/examplev1tools"
	"github.com/forgetools/forgetools/toolserver"
)

// The eleventh arm end to end: the gateway serves the example table beside
// the forge table on one session socket, dispatches forge_close_issue
// through the generated examplev1handler to the local forge's one extra
// method, and applies the policy the proto declares (scope, stamping)
// with no code of its own for it.
func TestTheEleventhArmThroughTheGateway(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		g := startGateway(t, dsn)
		forge, example := g.toolset(t, gatewayv1tools.ForgeTools), g.toolset(t, examplev1tools.ForgeTools)

		created := call(t, forge, "forge_create_issue", `{"repo": "acme/widgets", "title": "Crash on start"}`)
		if !strings.HasPrefix(created, "Created issue #1 in acme/widgets: ") {
			t.Fatalf("create = %q", created)
		}
		closedText := call(t, example, "forge_close_issue", `{"repo": "acme/widgets", "issue_number": 1, "comment": "Fixed in #2."}`)
		if closedText != "Closed issue #1 in acme/widgets: https://local.test/acme/widgets/issues/1" {
			t.Fatalf("close = %q", closedText)
		}

		// The forge holds a closed issue whose closing comment the gateway
		// stamped: the comment field is marked ATTRIBUTION_STAMP.
		stored, err := g.closer.GetIssue(ctx, toolserver.Call{}, &gatewayv1.GetIssueRequest{Repo: "acme/widgets", IssueNumber: 1})
		if err != nil {
			t.Fatal(err)
		}
		if stored.GetState() != "closed" || len(stored.GetComments()) != 1 ||
			stored.GetComments()[0].GetBody() != "> forgetools agent `agent-7` on behalf of `owner-a`, session `s1`\n\nFixed in #2." {
			t.Fatalf("stored issue = %v", stored)
		}
		read := call(t, forge, "forge_get_issue", `{"repo": "acme/widgets", "issue_number": 1}`)
		if !strings.Contains(read, "closed") || !strings.Contains(read, "Fixed in #2.") || !strings.Contains(read, "agent-7") {
			t.Errorf("read back = %q", read)
		}

		// Scope applies to the new arm before any provider: the request's
		// repo field is marked SCOPE_REPOSITORY.
		res := example.Execute(ctx, runtime.Call{ID: "c-out", Name: "forge_close_issue", Args: json.RawMessage(`{"repo": "evil/repo", "issue_number": 1}`)})
		if !res.IsError || !strings.Contains(res.Text, "permission_denied") || !strings.Contains(res.Text, "outside the scope") {
			t.Errorf("out of scope = %+v", res)
		}

		// A forge without the method answers unimplemented, in band.
		res = example.Execute(ctx, runtime.Call{ID: "c-other", Name: "forge_close_issue",
			Args: json.RawMessage(`{"repo": "acme/widgets", "issue_number": 1, "forge_provider": "local", "forge_host": "plain.test"}`)})
		want := "forge_close_issue failed: unimplemented: local has no issues, so close_issue cannot run on forge local/plain.test"
		if !res.IsError || res.Text != want {
			t.Errorf("forge without the method = %q, want %q", res.Text, want)
		}
	})
}

type testGateway struct {
	socket string
	closer closer
}

// startGateway serves both tables on one session socket, with the local
// forge (plus its close method) as the default forge and a plain local
// forge beside it.
func startGateway(t *testing.T, dsn string) *testGateway {
	t.Helper()
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	st, err := store.Open(ctx, dsn, store.Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	newLocal := func(host, base string) *local.Forge {
		f, err := local.New(ctx, st.DB(), local.Options{Dialect: string(st.Dialect()), Host: host, BaseURL: base, Logger: log, GitDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	c := closer{newLocal("local.test", "https://local.test")}
	svc, err := gateway.New(gateway.Config{
		Tables: []*toolserver.Table{gatewayv1handler.ForgeTable, examplev1handler.ForgeTable},
		Forges: []gateway.Forge{{Provider: c, Default: true}, {Provider: newLocal("plain.test", "https://plain.test")}},
		Accounts: []gateway.Account{{
			Name: "alice", AgentHandle: "agent-7", OwnerHandle: "owner-a",
			// An entry naming no forge covers the default forge only; the
			// second forge is named.
			Scope: []string{"acme/*", "plain.test:acme/*"}, Sessions: []string{"s1"},
			// The arm's dispatch is under test, not the gate: neither the
			// policy nor a flow rule (a read on one forge, then a write on
			// the other) holds its calls.
			Policy: gateway.Unattended(), Flow: gateway.FlowRules{AllowPrivateToPublic: true, AllowUntrustedContent: true},
		}},
		Store:  st,
		Logger: log,
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(svc, server.Options{Logger: log})
	dir, err := os.MkdirTemp("", "ft11") // short: socket paths have a length limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if _, err := srv.ListenSockets(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	return &testGateway{socket: filepath.Join(dir, "s1.sock"), closer: c}
}

// toolset runs table's tools through the runtime over the session socket.
func (g *testGateway) toolset(t *testing.T, table *runtime.Table) *runtime.Toolset {
	t.Helper()
	transport, err := runtime.DialGateway(table, "unix://"+g.socket)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := runtime.NewToolset(table, runtime.NewBroker(transport))
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func call(t *testing.T, ts *runtime.Toolset, name, args string) string {
	t.Helper()
	res := ts.Execute(context.Background(), runtime.Call{ID: "call-" + name, Name: name, Args: json.RawMessage(args)})
	if res.IsError {
		t.Fatalf("%s: %s", name, res.Text)
	}
	return res.Text
}
