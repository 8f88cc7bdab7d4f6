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
// The policy sub-benchmarks time the approval gate's policy alone on the
// same calls; with -v the run prints its share of each call.
//
//	go test ./gateway/server -run X -bench Chokepoint -benchmem [-v]
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
	// perOp is the last run's ns/op of each sub-benchmark, for the share.
	perOp := map[string]int64{}

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
		perOp["get_issue/gateway"] = b.Elapsed().Nanoseconds() / int64(b.N)
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
		perOp["create_issue/gateway"] = b.Elapsed().Nanoseconds() / int64(b.N)
	})
	// The approval gate's policy on an allowed call (the account's default
	// policy: reads and writes run), alone, and its share of the call
	// through the gateway (printed with -v).
	create := createIssue("acme/web", "Crash", "Body", "")
	policy := func(name string, req *gatewayv1.ForgeCallRequest) {
		b.Run(name+"/policy", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if hs, err := svc.PolicyFor(ctx, id, req); err != nil || hs != nil {
					b.Fatal(hs, err)
				}
			}
			perOp[name+"/policy"] = b.Elapsed().Nanoseconds() / int64(b.N)
		})
	}
	policy("get_issue", get)
	policy("create_issue", create)
	if testing.Verbose() {
		for _, name := range []string{"get_issue", "create_issue"} {
			fmt.Printf("approval policy on an allowed %s: %d ns of %d ns per call through the gateway (%.2f%%)\n",
				name, perOp[name+"/policy"], perOp[name+"/gateway"], 100*float64(perOp[name+"/policy"])/float64(perOp[name+"/gateway"]))
		}
	}
}
