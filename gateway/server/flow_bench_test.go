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
// private repository and an untrusted author's issue, so the write's check
// loads its reads and the private target's visibility (cached); the read
// records nothing new after its first time.
//
//	go test ./gateway/server -run X -bench FlowCheck -benchmem
func BenchmarkFlowCheck(b *testing.B) {
	ctx := context.Background()
	on := gateway.Account{Name: "on", AgentHandle: "a", OwnerHandle: "o", Scope: []string{"*"}, Sessions: []string{"on-1"}}
	off := gateway.Account{Name: "off", AgentHandle: "a", OwnerHandle: "o", Scope: []string{"*"}, Sessions: []string{"off-1"},
		Flow: gateway.FlowRules{AllowPrivateToPublic: true, AllowUntrustedContent: true}}
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
