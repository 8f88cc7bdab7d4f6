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
	// The approval gate's policy on an allowed call (the account's default
	// policy: reads and writes run), alone, and its share of the call.
	create := createIssue("acme/web", "Crash", "Body: git log shows the crash since the refactor", "")
	policy := func(req *gatewayv1.ForgeCallRequest) func(b *testing.B) {
		return func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if hs, err := svc.PolicyFor(ctx, id, req); err != nil || hs != nil {
					b.Fatal(hs, err)
				}
			}
		}
	}
	b.Run("get_issue/policy", policy(get))
	b.Run("create_issue/policy", policy(create))
	if !testing.Verbose() {
		return
	}
	for _, c := range []struct {
		name string
		req  *gatewayv1.ForgeCallRequest
		call func(b *testing.B)
	}{
		{"get_issue", get, func(b *testing.B) {
			for b.Loop() {
				gateway(b, get)
			}
		}},
		{"create_issue", create, func(b *testing.B) {
			for b.Loop() {
				n++
				gateway(b, createIssue("acme/web", "Crash", "Body: git log shows the crash since the refactor", fmt.Sprint("share-", n)))
			}
		}},
	} {
		whole, alone := testing.Benchmark(c.call), testing.Benchmark(policy(c.req))
		fmt.Printf("approval policy on an allowed %s: %d ns of %d ns per call through the gateway (%.2f%%)\n",
			c.name, alone.NsPerOp(), whole.NsPerOp(), 100*float64(alone.NsPerOp())/float64(whole.NsPerOp()))
	}
}
