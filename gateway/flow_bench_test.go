package gateway

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/testforge"
)

// BenchmarkFlowHolds is the flow check alone on an allowed push, against
// a SQLite file store: the session has read a private repository (the
// push goes back into it) and trusted text only, so the check's probe
// (store.FlowReadsAnyOf) finds no row either rule could act on and holds
// nothing without loading the reads. Compare with BenchmarkChokepoint's
// per-call figures for the share of a call it is.
//
//	go test ./gateway -run X -bench FlowHolds -benchmem
func BenchmarkFlowHolds(b *testing.B) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "gw.db"), store.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	svc, err := New(Config{
		Accounts: []Account{{Name: "alice", AgentHandle: "claude", OwnerHandle: "alice", Scope: []string{"acme/*"}, Sessions: []string{"s1"}}},
		Forges:   []Forge{{Provider: testforge.New(forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, "github.com")}},
		Store:    st,
	})
	if err != nil {
		b.Fatal(err)
	}
	gh := store.Forge{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, Host: "github.com"}
	if err := st.RecordFlowReads(ctx, []store.FlowRead{{Account: "alice", Session: "s1", Forge: gh, Repo: "acme/app", Tool: "forge_read_file", Visibility: "private"}}); err != nil {
		b.Fatal(err)
	}
	req := &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreateBranch{CreateBranch: &gatewayv1.CreateBranchRequest{Repo: "acme/app", Branch: "x"}}}
	table := svc.tables[0]
	o := &operation{id: Identity{Account: "alice", Session: "s1"}, table: table, acct: svc.cfg.accounts["alice"],
		repo: "acme/app", ref: &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, Host: "github.com"}}
	o.arm, o.req, o.env = table.Split(req)
	b.ReportAllocs()
	for b.Loop() {
		holds, err := svc.flowHolds(ctx, o)
		if err != nil || len(holds) != 0 {
			b.Fatal(holds, err)
		}
	}
}
