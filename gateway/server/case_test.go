package server_test

import (
	"testing"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// TestRepositoryCaseAcrossAccounts: scope compares case-folded names, and
// so does the local forge, so the two can never disagree about which
// repository a spelling names. An account whose scope does not cover
// acme/widgets is refused under every spelling of it, before the forge; an
// account whose scope does cover it reaches the one repository, never a
// second one another account made by changing case.
func TestRepositoryCaseAcrossAccounts(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		g := serveLocal(t, dsn,
			gateway.Account{Name: "alice", AgentHandle: "a", OwnerHandle: "o", Scope: []string{"acme/widgets"}, Sessions: []string{"alice-1"}},
			gateway.Account{Name: "mallory", AgentHandle: "m", OwnerHandle: "o", Scope: []string{"evil/*", "acme/widgets-fork", "acme"}, Sessions: []string{"mallory-1"}},
			gateway.Account{Name: "carol", AgentHandle: "c", OwnerHandle: "o", Scope: []string{"Acme/*"}, Sessions: []string{"carol-1"}},
		)
		first := g.call(t, "alice-1", createIssue("acme/widgets", "alice's", "", "k1")).GetIssue()
		if first.GetNumber() != 1 {
			t.Fatalf("alice's create = %v", first)
		}

		spellings := []string{"Acme/Widgets", "ACME/WIDGETS", "acme/Widgets", "aCmE/wIdGeTs", "ACME/widgets"}
		attempts, refused := 0, 0
		for _, repo := range spellings {
			for _, req := range everyArm(repo) {
				attempts++
				res := g.call(t, "mallory-1", req)
				if fe := res.GetError(); fe != nil && fe.GetCode() == gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED {
					refused++
					continue
				}
				t.Errorf("mallory %v = %v, want permission_denied", req.GetCall(), res)
			}
		}
		t.Logf("cross-account case attempts refused: %d of %d", refused, attempts)

		// carol's scope "Acme/*" covers acme/widgets: her create in another
		// spelling lands in alice's repository, numbered after alice's issue
		// and shown in the spelling the repository was created with.
		second := g.call(t, "carol-1", createIssue("ACME/Widgets", "carol's", "", "k2")).GetIssue()
		if second.GetNumber() != 2 || second.GetRepo() != "acme/widgets" {
			t.Fatalf("carol's create in ACME/Widgets = #%d in %q; want #2 in acme/widgets, the one repository", second.GetNumber(), second.GetRepo())
		}
		for _, repo := range spellings {
			got := g.call(t, "alice-1", getIssue(repo, 1)).GetIssue()
			if got.GetTitle() != "alice's" || got.GetRepo() != "acme/widgets" {
				t.Fatalf("alice reads %s#1 = %v; want her own issue in acme/widgets", repo, got)
			}
		}
		list := g.call(t, "alice-1", &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_ListIssues{
			ListIssues: &gatewayv1.ListIssuesRequest{Repo: "Acme/Widgets"}}}).GetIssues().GetIssues()
		if len(list) != 2 {
			t.Fatalf("listing Acme/Widgets = %v, want both issues of the one repository", list)
		}
		var repos int
		if err := g.store.DB().QueryRow("SELECT count(*) FROM local_repos").Scan(&repos); err != nil || repos != 1 {
			t.Fatalf("%d local repositories (%v), want 1", repos, err)
		}
	})
}
