package server_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"connectrpc.com/connect"
	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/server"
	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/testforge"
	"github.com/forgetools/forgetools/subscriptions"
)

// How `forgetools serve` puts the pieces together: a store, the forges
// (any gateway.Provider, with subscriptions kept in the store; the CLI uses
// providers/local on st.DB()), the accounts, then the listeners.
func Example() {
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)

	st, err := store.Open(ctx, ":memory:", store.Options{Logger: log}) // or a file path, or postgres://...
	if err != nil {
		panic(err)
	}
	defer st.Close()

	svc, err := gateway.New(gateway.Config{
		Accounts: []gateway.Account{{
			Name: "demo", AgentHandle: "agent", OwnerHandle: "me",
			Scope:    []string{"*"},
			Sessions: []string{"demo"},
		}},
		Forges: []gateway.Forge{{Provider: subscriptions.Serve(testforge.New(forgev1.ForgeProvider_FORGE_PROVIDER_LOCAL, "local"), st), Default: true}},
		Store:  st,
		Logger: log,
	})
	if err != nil {
		panic(err)
	}

	srv := server.New(svc, server.Options{Logger: log})
	dir, _ := os.MkdirTemp("", "forgetools")
	defer os.RemoveAll(dir)
	if _, err := srv.ListenSockets(dir); err != nil { // <dir>/demo.sock
		panic(err)
	}
	// srv.ListenTCP("127.0.0.1:7777") would add bearer-token TCP.
	// A real `serve` then blocks in srv.Run(ctx) until a signal cancels ctx.
	defer srv.Shutdown(ctx)

	// An agent's call over the session's socket.
	req := &gatewayv1.ForgeCallRequest{CallId: "toolu_1", ClientRequestId: "nonce:toolu_1",
		Call: &gatewayv1.ForgeCallRequest_CreateIssue{CreateIssue: &gatewayv1.CreateIssueRequest{Repo: "acme/web", Title: "Hello"}}}
	res, err := unixClient(filepath.Join(dir, "demo.sock")).Forge(ctx, connect.NewRequest(req))
	if err != nil {
		panic(err)
	}
	fmt.Println("over the socket:", res.Msg.GetIssue().GetRepo(), res.Msg.GetIssue().GetNumber(), res.Msg.GetIssue().GetUrl())

	// `forgetools call` without a socket: the same chokepoint in process
	// (runtime.TransportFunc(svc.Transport(id)) for the runtime).
	id, _ := svc.SessionIdentity("demo")
	out, err := svc.Call(ctx, id, req)
	if err != nil {
		panic(err)
	}
	again := out.(*gatewayv1.ForgeCallResult)
	fmt.Printf("in process: %s %d url=%q\n", again.GetIssue().GetRepo(), again.GetIssue().GetNumber(), again.GetIssue().GetUrl())
	// Output:
	// over the socket: acme/web 1 https://local/acme/web/issues/1
	// in process: acme/web 1 url=""
}
