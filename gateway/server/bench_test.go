package server_test

import (
	"context"
	"fmt"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/testkit"
	"github.com/forgetools/forgetools/toolserver"
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
	// The account localService makes by default, with write limits no
	// benchmark reaches: the meter still runs, it never refuses.
	demo := gateway.Account{Name: "demo", AgentHandle: "agent", OwnerHandle: "me", Scope: []string{"*"}, Sessions: []string{"demo"},
		Limits: gateway.Limits{WriteCallsPerMinute: 1 << 30, WriteBytesPerMinute: 1 << 40}}
	svc, _, forge := localService(b, storetest.SQLite(b), nil, demo)
	id := svc.Sessions()[0]
	call := toolserver.Call{Account: "demo", Session: id.Session}
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
	// perOp is the last run's CPU ns/op of each sub-benchmark (the
	// process's, all threads: wall time on a shared machine says little),
	// for the shares.
	perOp := map[string]int64{}
	cpu := func(b *testing.B, name string) func() {
		start := testkit.ProcessCPU()
		return func() {
			if b.N == 0 {
				return
			}
			perOp[name] = (testkit.ProcessCPU() - start).Nanoseconds() / int64(b.N)
			b.ReportMetric(float64(perOp[name]), "cpu-ns/op")
		}
	}

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
		defer cpu(b, "get_issue/gateway")()
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
		defer cpu(b, "create_issue/gateway")()
		for b.Loop() {
			n++
			gateway(b, createIssue("acme/web", "Crash", "Body", fmt.Sprint("key-", n)))
		}
	})
	// The approval gate's policy on an allowed call (the account's default
	// policy: reads and writes run) and the information-flow step Call
	// runs for it (both rules on, the default: for the read, recording
	// what it showed the session; for the create, the check against what
	// the session read, in the store), each alone, and their share of the
	// call through the gateway (printed with -v).
	create := createIssue("acme/web", "Crash", "Body", "")
	policy := func(name string, req *gatewayv1.ForgeCallRequest) {
		b.Run(name+"/policy", func(b *testing.B) {
			b.ReportAllocs()
			defer cpu(b, name+"/policy")()
			for b.Loop() {
				if hs, err := svc.PolicyFor(ctx, id, req); err != nil || hs != nil {
					b.Fatal(hs, err)
				}
			}
		})
	}
	flow := func(name string, req *gatewayv1.ForgeCallRequest, result proto.Message) {
		step, err := svc.FlowCheck(ctx, id, req)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/flow", func(b *testing.B) {
			b.ReportAllocs()
			defer cpu(b, name+"/flow")()
			for b.Loop() {
				if hs, err := step(result); err != nil || hs != nil {
					b.Fatal(hs, err)
				}
			}
		})
	}
	issue, err := forge.GetIssue(ctx, call, get.GetGetIssue())
	if err != nil {
		b.Fatal(err)
	}
	policy("get_issue", get)
	flow("get_issue", get, issue)
	policy("create_issue", create)
	flow("create_issue", create, nil)
	if testing.Verbose() {
		for _, name := range []string{"get_issue", "create_issue"} {
			p, f, g := perOp[name+"/policy"], perOp[name+"/flow"], perOp[name+"/gateway"]
			fmt.Printf("policy and flow checks on an allowed %s: %d + %d CPU ns of %d CPU ns per call through the gateway (policy %.2f%%, flow %.2f%%, together %.2f%%)\n",
				name, p, f, g, share(p, g), share(f, g), share(p+f, g))
		}
	}
}

// share is part as a percentage of whole.
func share(part, whole int64) float64 {
	if whole == 0 {
		return 0
	}
	return 100 * float64(part) / float64(whole)
}
