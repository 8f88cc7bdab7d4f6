package server_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/handler"
)

// BenchmarkChokepoint measures what the gateway adds to a provider call, in
// process (no socket, no agent) on the local forge in the gateway's SQLite
// store: each tool through gateway.Service.Call, against a baseline in the
// same run, the same call made on the provider directly. For a read that is
// the checks, the result walk and the log line; for a create, the dedup key
// and ownership row, committed with the issue in one transaction.
//
//	go test ./gateway/server -run X -bench Chokepoint -benchmem
func BenchmarkChokepoint(b *testing.B) {
	ctx := context.Background()
	svc, _, forge := localService(b, storetest.SQLite(b), nil)
	id := svc.Sessions()[0]
	call := handler.Call{Account: "demo", Session: id.Session}
	gateway := func(b *testing.B, req *gatewayv1.ForgeCallRequest) {
		b.Helper()
		out, err := svc.Call(ctx, id, req)
		if err != nil {
			b.Fatal(err)
		}
		if fe := out.(*gatewayv1.ForgeCallResult).GetError(); fe != nil {
			b.Fatal(fe)
		}
	}
	gateway(b, createIssue("acme/web", "Read me", "Body", "seed"))
	get := getIssue("acme/web", 1)
	n := 0 // a new key for each create through the gateway

	b.Run("get_issue/provider", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := forge.GetIssue(ctx, call, get.GetGetIssue()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("get_issue/gateway", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			gateway(b, get)
		}
	})
	b.Run("create_issue/provider", func(b *testing.B) {
		b.ReportAllocs()
		req := createIssue("acme/web", "Crash", "Body", "").GetCreateIssue()
		for b.Loop() {
			if _, err := forge.CreateIssue(ctx, call, req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("create_issue/gateway", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			n++
			gateway(b, createIssue("acme/web", "Crash", "Body", fmt.Sprint("key-", n)))
		}
	})
}
