package server_test

import (
	"strings"
	"testing"
	"time"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// An account may keep only Limits.PendingApprovals calls waiting for an
// operator: one more distinct push is refused as resource_exhausted before
// it is stored, repeating a parked call still answers it, and a decision
// (or an expiry) makes room again. The count is the store's, so a second
// replica on the same store sees the same cap.
func TestPendingApprovalsAreCapped(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		accounts := append([]gateway.Account(nil), gatedAccounts...)
		accounts[0].Limits = gateway.Limits{PendingApprovals: 2}
		c := &clock{}
		gitDir := t.TempDir()
		g := openGatedAs(t, accounts, dsn, gitDir, c)
		branch := func(name string) *gatewayv1.ForgeCallRequest {
			return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreateBranch{
				CreateBranch: &gatewayv1.CreateBranchRequest{Repo: "acme/web", Branch: name}}}
		}
		g.seed(t, branch("seeded")) // the repository exists
		first := parkedID(t, g.as(t, "agent", branch("a-1")))
		parkedID(t, g.as(t, "agent", branch("a-2")))
		wantFull := func(g *gated, what string) {
			t.Helper()
			fe := g.as(t, "agent", branch("a-3")).GetError()
			if fe.GetCode() != gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED || fe.GetRetryAfterMs() == 0 ||
				!strings.Contains(fe.GetMessage(), `account "agent" has 2 calls waiting for an operator's decision, its limit`) {
				t.Fatalf("%s: a third distinct push answered %v", what, fe)
			}
		}
		wantFull(g, "one replica")
		if n := g.rows(t); n != 2 {
			t.Fatalf("%d approval rows after the refusal, want 2", n)
		}
		if got := parkedID(t, g.as(t, "agent", branch("a-2"))); got == "" {
			t.Fatal("repeating a parked call at the cap lost its approval")
		}
		other := openGatedAs(t, accounts, dsn, gitDir, c)
		wantFull(other, "a second replica")

		if _, err := g.svc.Deny(t.Context(), first, "operator", "no"); err != nil {
			t.Fatal(err)
		}
		third := parkedID(t, g.as(t, "agent", branch("a-3")))
		wantFull = func(g *gated, what string) {
			t.Helper()
			if fe := g.as(t, "agent", branch("a-4")).GetError(); fe.GetCode() != gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED {
				t.Fatalf("%s: answered %v", what, fe)
			}
		}
		wantFull(g, "full again")
		c.advance(2 * time.Hour) // past ApprovalExpiry: expired ones wait for no one
		if id := parkedID(t, g.as(t, "agent", branch("a-4"))); id == third {
			t.Fatalf("a-4 answered a-3's approval %s", id)
		}
	})
}
