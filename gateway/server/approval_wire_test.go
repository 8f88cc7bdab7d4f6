package server_test

import (
	"context"
	"testing"

	"connectrpc.com/connect"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/server"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// policy replaces alice's approval policy.
func policy(p gateway.Policy) option {
	return func(c *gateway.Config, _ *server.Options) { c.Accounts[0].Policy = p }
}

// The gate holds a call whichever way it arrives: on a session socket and
// over TCP with a bearer token, a call the policy parks never reaches the
// forge; approving one runs it once; the other, denied, never runs; the
// transport's own answer for each repeat is the decision.
func TestGateHoldsOnEveryListener(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		h := start(t, dsn, policy(gateway.Policy{Levels: map[string]gateway.Decision{"write": gateway.Operator}}))
		send := map[string]func(*gatewayv1.ForgeCallRequest) *gatewayv1.ForgeCallResult{
			"socket": func(req *gatewayv1.ForgeCallRequest) *gatewayv1.ForgeCallResult { return h.call("alice-1", req) },
			"tcp": func(req *gatewayv1.ForgeCallRequest) *gatewayv1.ForgeCallResult {
				res, err := h.tcpClient(aliceToken).Forge(ctx, connect.NewRequest(req))
				if err != nil {
					t.Fatalf("Forge over TCP: %v", err)
				}
				return res.Msg
			},
		}
		for name, call := range send {
			t.Run(name, func(t *testing.T) {
				before := h.github.Total()
				approve, deny := createIssue("acme/web", "Via "+name, "Body", ""), createIssue("acme/web", "Not via "+name, "Body", "")
				yes, no := parkedID(t, call(approve)), parkedID(t, call(deny))
				if parkedID(t, call(approve)) != yes || h.github.Total() != before {
					t.Fatalf("parked calls reached the forge %d times", h.github.Total()-before)
				}
				if _, err := h.svc.Approve(ctx, yes, "ops", ""); err != nil {
					t.Fatal(err)
				}
				if _, err := h.svc.Deny(ctx, no, "ops", "duplicate"); err != nil {
					t.Fatal(err)
				}
				if res := call(approve); res.GetIssue().GetNumber() == 0 {
					t.Fatalf("the approved create read back %v", res)
				}
				wantError(t, call(deny), gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "duplicate")
				if got := h.github.Total() - before; got != 1 {
					t.Fatalf("%d calls reached the forge, want the approved one", got)
				}
			})
		}
	})
}
