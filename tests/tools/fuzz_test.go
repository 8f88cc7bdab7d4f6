package tools_test

import (
	"context"
	"strings"
	"testing"

	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/proto"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/runtime"
)

// FuzzExecute sends arbitrary arguments to every generated tool through the
// whole runtime path (generated decoder, protovalidate, text policy, build,
// broker, unwrap, render). Whatever the bytes: no panic reaches the
// recovery in Execute, a failure is one line naming the tool, and anything
// that reaches the wire is a request the gateway's own validation accepts.
func FuzzExecute(f *testing.F) {
	for i, c := range contracts {
		f.Add(uint8(i), []byte(c.args))
		for _, r := range c.rejects {
			f.Add(uint8(i), []byte(r.args))
		}
	}
	f.Add(uint8(0), []byte(`{"repo":"a/b","issue_number":1e400}`))
	f.Add(uint8(5), []byte(`{"repo":"a/b","pull_number":1,"verdict":"approve","comments":[{"path":"x","line":1,"body":"y","side":null}]}`))

	validator, err := protovalidate.New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, pick uint8, args []byte) {
		c := contracts[int(pick)%len(contracts)]
		var sent proto.Message
		ts, err := runtime.NewToolset(gatewayv1tools.ForgeTools, runtime.NewBroker(runtime.TransportFunc(
			func(_ context.Context, req proto.Message) (proto.Message, error) {
				sent = req
				res := proto.Clone(c.success).(*gatewayv1.ForgeCallResult)
				return res, nil
			})))
		if err != nil {
			t.Fatal(err)
		}
		res := ts.Execute(context.Background(), runtime.Call{ID: "call_f", Name: c.tool, Args: args})
		if strings.Contains(res.Text, "the tool crashed") {
			t.Fatalf("%s panicked on %q", c.tool, args)
		}
		if res.IsError && (!strings.HasPrefix(res.Text, c.tool+" failed: ") || strings.Contains(res.Text, "\n")) {
			t.Fatalf("%s failure is not one line naming the tool: %q", c.tool, res.Text)
		}
		if sent != nil {
			if err := validator.Validate(sent); err != nil {
				t.Fatalf("%s sent a request the gateway refuses (%v) for %q", c.tool, err, args)
			}
			if res.IsError {
				t.Fatalf("%s reached the wire but failed: %q", c.tool, res.Text)
			}
		}
	})
}
