package tools_test

import (
	"bytes"
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
// The same arguments, with the action added, go to the tool's grouped
// tool too: it succeeds exactly when the flat call does, sending the same
// request and reading back the same text.
func FuzzExecute(f *testing.F) {
	for i, c := range contracts {
		f.Add(uint8(i), []byte(c.args))
		for _, r := range c.rejects {
			f.Add(uint8(i), []byte(r.args))
		}
	}
	f.Add(uint8(0), []byte(`{"repo":"a/b","issue_number":1e400}`))
	f.Add(uint8(5), []byte(`{"repo":"a/b","pull_number":1,"verdict":"approve","comments":[{"path":"x","line":1,"body":"y","side":null}]}`))
	// The diff arms (rows 2 and 3) with arguments that read like fence
	// markers or break lines.
	f.Add(uint8(2), []byte(`{"repo":"a/b","pull_number":1,"path":">>>x","cursor":"<<<hunks-x"}`))
	f.Add(uint8(3), []byte(`{"repo":"a/b","base":"<<<base-x","head":">>>x\n","path":"a\rb","cursor":"diff.0.0.a.b"}`))

	validator, err := protovalidate.New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, pick uint8, args []byte) {
		c := contracts[int(pick)%len(contracts)]
		flat, sent := execute(t, c, runtime.ShapeFlat, c.tool, args)
		if strings.Contains(flat.Text, "the tool crashed") {
			t.Fatalf("%s panicked on %q", c.tool, args)
		}
		if flat.IsError && (!strings.HasPrefix(flat.Text, c.tool+" failed: ") || strings.Contains(flat.Text, "\n")) {
			t.Fatalf("%s failure is not one line naming the tool: %q", c.tool, flat.Text)
		}
		if sent != nil {
			if err := validator.Validate(sent); err != nil {
				t.Fatalf("%s sent a request the gateway refuses (%v) for %q", c.tool, err, args)
			}
			if flat.IsError {
				t.Fatalf("%s reached the wire but failed: %q", c.tool, flat.Text)
			}
		}

		tool, _ := lookup(c.tool)
		group := gatewayv1tools.ForgeTools.GroupTool(tool.Group)
		grouped, sentGrouped := execute(t, c, runtime.ShapeGrouped, group, withAction(tool.Action, args))
		if strings.Contains(grouped.Text, "the tool crashed") || (grouped.IsError && (!strings.HasPrefix(grouped.Text, group+" ") || strings.Contains(grouped.Text, "\n"))) {
			t.Fatalf("%s %s on %q: %q", group, tool.Action, args, grouped.Text)
		}
		if grouped.IsError != flat.IsError || !proto.Equal(sent, sentGrouped) || (!flat.IsError && fenceNonce.ReplaceAllString(grouped.Text, "${1}NONCE") != fenceNonce.ReplaceAllString(flat.Text, "${1}NONCE")) {
			t.Fatalf("on %q:\n%s: %q sent %v\n%s %s: %q sent %v", args, c.tool, flat.Text, sent, group, tool.Action, grouped.Text, sentGrouped)
		}
	})
}

// wire is the gateway the fuzzed toolsets call: it answers the current
// contract's success and keeps what was sent. A fuzz worker runs one input
// at a time, so one wire and one toolset per shape serve them all (built
// once: composing the grouped shape per input would be most of the time).
var wire struct {
	answer *gatewayv1.ForgeCallResult
	sent   proto.Message
	shapes map[runtime.Shape]*runtime.Toolset
}

// execute runs one call on the toolset of the shape, its gateway
// answering the contract's success, and returns the result and what was
// sent.
func execute(t *testing.T, c contract, shape runtime.Shape, name string, args []byte) (runtime.Result, proto.Message) {
	if wire.shapes == nil {
		wire.shapes = map[runtime.Shape]*runtime.Toolset{}
	}
	ts := wire.shapes[shape]
	if ts == nil {
		var err error
		ts, err = runtime.NewToolset(gatewayv1tools.ForgeTools, runtime.NewBroker(runtime.TransportFunc(
			func(_ context.Context, req proto.Message) (proto.Message, error) {
				wire.sent = req
				return proto.Clone(wire.answer).(*gatewayv1.ForgeCallResult), nil
			}), runtime.WithNonce("fuzz")), runtime.WithShape(shape))
		if err != nil {
			t.Fatal(err)
		}
		wire.shapes[shape] = ts
	}
	wire.answer, wire.sent = c.success, nil
	return ts.Execute(context.Background(), runtime.Call{ID: "call_f", Name: name, Args: args}), wire.sent
}

// withAction is a flat call's arguments as its grouped action's: the
// action added in front of the object's members, anything else unchanged
// (for the grouped tool to refuse, as the flat one does).
func withAction(action string, args []byte) []byte {
	trimmed := bytes.TrimSpace(args)
	head := `{"action":"` + action + `"`
	switch {
	case len(trimmed) == 0:
		return []byte(head + "}")
	case trimmed[0] != '{':
		return args
	case len(bytes.TrimSpace(trimmed[1:])) > 0 && bytes.TrimSpace(trimmed[1:])[0] == '}':
		return append([]byte(head), bytes.TrimSpace(trimmed[1:])...)
	}
	return append([]byte(head+","), trimmed[1:]...)
}
