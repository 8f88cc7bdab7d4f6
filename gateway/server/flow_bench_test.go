package server_test

import (
	"context"
	"testing"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// BenchmarkFlowCheck measures what the information-flow rules add to an
// allowed call, in process on the local forge in the gateway's SQLite
// store: the same calls by an account with the rules on (the default) and
// one with both turned off, in the same run. The session has read a
// private repository and an untrusted author's issue; the comment goes
// back into that repository and is no push, so the write's check asks the
// store for one row either rule could act on (store.FlowReadsAnyOf),
// finds none and loads nothing; the read records nothing new after its
// first time.
//
//	go test ./gateway/server -run X -bench FlowCheck -benchmem
func BenchmarkFlowCheck(b *testing.B) {
	ctx := context.Background()
	// Write limits no benchmark reaches (the default 120 a minute would
	// refuse the comments): the meter still runs, it never refuses.
	unlimited := gateway.Limits{WriteCallsPerMinute: 1 << 30, WriteBytesPerMinute: 1 << 40}
	on := gateway.Account{Name: "on", AgentHandle: "a", OwnerHandle: "o", Scope: []string{"*"}, Sessions: []string{"on-1"}, Limits: unlimited}
	off := gateway.Account{Name: "off", AgentHandle: "a", OwnerHandle: "o", Scope: []string{"*"}, Sessions: []string{"off-1"},
		Flow: gateway.FlowRules{AllowPrivateToPublic: true, AllowUntrustedContent: true}, Limits: unlimited}
	other := gateway.Account{Name: "other", AgentHandle: "x", OwnerHandle: "y", Scope: []string{"*"}, Sessions: []string{"other-1"}}
	svc, _, _ := localService(b, storetest.SQLite(b), nil, on, off, other)
	ids := map[string]gateway.Identity{}
	for _, id := range svc.Sessions() {
		ids[id.Account] = id
	}
	call := func(b *testing.B, who string, req *gatewayv1.ForgeCallRequest) {
		b.Helper()
		out, err := svc.Call(ctx, ids[who], req)
		if err != nil {
			b.Fatal(err)
		}
		if fe := out.(*gatewayv1.ForgeCallResult).GetError(); fe != nil {
			b.Fatal(fe)
		}
	}
	call(b, "other", createIssue("acme/secret", "Untrusted", "By another account", ""))
	for _, who := range []string{"on", "off"} {
		call(b, who, getIssue("acme/secret", 1))
	}
	for _, c := range []struct {
		name string
		req  *gatewayv1.ForgeCallRequest
	}{
		{"get_issue", getIssue("acme/secret", 1)},
		{"comment_on_issue", comment("acme/secret", 1, "ok")},
	} {
		for _, who := range []string{"off", "on"} {
			b.Run(c.name+"/flow-"+who, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					call(b, who, c.req)
				}
			})
		}
	}
}
