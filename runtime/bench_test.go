package runtime_test

import (
	"context"
	"testing"

	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/testkit"
	"github.com/forgetools/forgetools/runtime"
)

// BenchmarkExecute measures a read and a create through Toolset.Execute over
// the in-process transport, against a baseline in the same run: the least a
// hand-written tool does (protojson decode, protovalidate, JSON encode of the
// result), so the figure to read is the ratio, not the absolute time. Each
// also reports cpu-ns/op, the process's CPU time per call (garbage
// collection included): on a shared machine the neighbours' load swings
// wall time per op far more than CPU time.
func BenchmarkExecute(b *testing.B) {
	reply := answer(issueResult)
	ts, err := runtime.NewToolset(testTable(), runtime.NewBroker(runtime.TransportFunc(
		func(_ context.Context, req proto.Message) (proto.Message, error) {
			return reply(req.(*gatewayv1.ForgeCallRequest))
		})))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	read := runtime.Call{ID: "call_1", Name: "forge_get_issue", Args: []byte(`{"repo":"acme/widgets","issue_number":12}`)}
	create := runtime.Call{ID: "call_2", Name: "forge_create_issue", Args: []byte(`{"repo":"acme/widgets","title":"Crash on start","body":"It crashes."}`)}

	b.Run("baseline", func(b *testing.B) {
		v, err := protovalidate.New()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			var req gatewayv1.GetIssueRequest
			if err := protojson.Unmarshal([]byte(`{"repo":"acme/widgets","issueNumber":12}`), &req); err != nil {
				b.Fatal(err)
			}
			if err := v.Validate(&req); err != nil {
				b.Fatal(err)
			}
			if _, err := protojson.Marshal(issue12); err != nil {
				b.Fatal(err)
			}
		}
	})
	// narrowed is the same toolset narrowed to two served forges: its
	// decoders parse the arguments a second time to check the selector.
	narrowed, err := runtime.NewToolset(testTable(), runtime.NewBroker(runtime.TransportFunc(
		func(_ context.Context, req proto.Message) (proto.Message, error) {
			return reply(req.(*gatewayv1.ForgeCallRequest))
		})), runtime.WithForges(runtime.Forge{Provider: "github", Host: "github.com"}, runtime.Forge{Provider: "linear", Host: "linear.app"}))
	if err != nil {
		b.Fatal(err)
	}
	// grouped is the grouped shape: the same calls through forge_issue,
	// which reads the action and hands the rest to the flat tool.
	grouped, err := runtime.NewToolset(testTable(), runtime.NewBroker(runtime.TransportFunc(
		func(_ context.Context, req proto.Message) (proto.Message, error) {
			return reply(req.(*gatewayv1.ForgeCallRequest))
		})), runtime.WithShape(runtime.ShapeGrouped))
	if err != nil {
		b.Fatal(err)
	}
	groupedCalls := []runtime.Call{
		{ID: read.ID, Name: "forge_issue", Args: []byte(`{"action":"get","repo":"acme/widgets","issue_number":12}`)},
		{ID: create.ID, Name: "forge_issue", Args: []byte(`{"action":"open","repo":"acme/widgets","title":"Crash on start","body":"It crashes."}`)},
	}
	for _, run := range []struct {
		prefix string
		ts     *runtime.Toolset
		calls  []runtime.Call
	}{{"", ts, []runtime.Call{read, create}}, {"narrowed/", narrowed, []runtime.Call{read, create}}, {"grouped/", grouped, groupedCalls}} {
		ts := run.ts
		for i, c := range run.calls {
			b.Run(run.prefix+[]string{read.Name, create.Name}[i], func(b *testing.B) {
				b.ReportAllocs()
				defer reportCPU(b)()
				for b.Loop() {
					if r := ts.Execute(ctx, c); r.IsError {
						b.Fatal(r.Text)
					}
				}
			})
		}
	}
}

// reportCPU starts counting the process's CPU time; the function it returns
// reports it per op as cpu-ns/op.
func reportCPU(b *testing.B) func() {
	start := testkit.ProcessCPU()
	return func() {
		if used := testkit.ProcessCPU() - start; used > 0 && b.N > 0 {
			b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
}
