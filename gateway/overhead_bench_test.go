package gateway_test

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/testforge"
	"github.com/forgetools/forgetools/internal/testkit"
	"github.com/forgetools/forgetools/toolserver"
)

// BenchmarkOverhead is what the gateway itself spends on a read, with the
// store and the forge out of the way: forge_get_issue (an issue with two
// comments) through Service.Call on an in-memory forge, against a
// baseline in the same run, the same call made on the forge directly.
// After the first call the read is known to the flow rules, so no call
// touches the store: the difference is validation, scope, the approval
// gate, the result walk (forge, claims, redaction, flow reads) and the log
// line, formatted at info level and discarded. Each reports the process's
// CPU per call (cpu-ns/op); with -v the run prints the gateway's own.
//
//	go test ./gateway -run X -bench Overhead -benchmem [-v]
func BenchmarkOverhead(b *testing.B) {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(discard{}, nil))
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "gw.db"), store.Options{Logger: log})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	forge := testforge.New(forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, "github.com")
	svc, err := gateway.New(gateway.Config{
		Accounts: []gateway.Account{{Name: "alice", AgentHandle: "claude", OwnerHandle: "alice", Scope: []string{"acme/*"}, Sessions: []string{"s1"}}},
		Forges:   []gateway.Forge{{Provider: forge}},
		Store:    st,
		Logger:   log,
	})
	if err != nil {
		b.Fatal(err)
	}
	call := toolserver.Call{Account: "alice", Session: "s1", AgentHandle: "claude", OwnerHandle: "alice"}
	iss, err := forge.CreateIssue(ctx, call, &gatewayv1.CreateIssueRequest{Repo: "acme/web", Title: "Crash on start", Body: "Steps to reproduce: run it."})
	if err != nil {
		b.Fatal(err)
	}
	for _, body := range []string{"Reproduced on main.", "Fixed by the config check."} {
		if _, err := forge.CommentOnIssue(ctx, call, &gatewayv1.CommentOnIssueRequest{Repo: "acme/web", IssueNumber: iss.GetNumber(), Body: body}); err != nil {
			b.Fatal(err)
		}
	}
	get := &gatewayv1.GetIssueRequest{Repo: "acme/web", IssueNumber: iss.GetNumber()}
	req := &gatewayv1.ForgeCallRequest{CallId: "call-1", Call: &gatewayv1.ForgeCallRequest_GetIssue{GetIssue: get}}
	id := svc.Sessions()[0]
	perOp := map[string]int64{}
	cpu := func(b *testing.B, name string) func() {
		start := testkit.ProcessCPU()
		return func() {
			if b.N > 0 {
				perOp[name] = (testkit.ProcessCPU() - start).Nanoseconds() / int64(b.N)
				b.ReportMetric(float64(perOp[name]), "cpu-ns/op")
			}
		}
	}
	b.Run("get_issue/forge", func(b *testing.B) {
		b.ReportAllocs()
		defer cpu(b, "forge")()
		for b.Loop() {
			if _, err := forge.GetIssue(ctx, call, get); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("get_issue/gateway", func(b *testing.B) {
		b.ReportAllocs()
		defer cpu(b, "gateway")()
		for b.Loop() {
			out, err := svc.Call(ctx, id, req)
			if err != nil {
				b.Fatal(err)
			}
			if fe := out.(*gatewayv1.ForgeCallResult).GetError(); fe != nil {
				b.Fatal(fe)
			}
		}
	})
	if testing.Verbose() && perOp["gateway"] > 0 {
		fmt.Printf("forge_get_issue: %d CPU ns per call through the gateway, %d on the forge alone: the gateway's own %d\n",
			perOp["gateway"], perOp["forge"], perOp["gateway"]-perOp["forge"])
	}
}

// discard is an io.Writer that keeps nothing: the log line is formatted,
// as a gateway logging at info formats it, and dropped.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
