package tools_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/runtime"
)

// gateway is an in-process transport: it keeps every request it carries
// and answers with result, its call_id set from the request.
type gateway struct {
	got    []*gatewayv1.ForgeCallRequest
	result *gatewayv1.ForgeCallResult
}

func (g *gateway) Forge(_ context.Context, m proto.Message) (proto.Message, error) {
	req := m.(*gatewayv1.ForgeCallRequest)
	g.got = append(g.got, proto.Clone(req).(*gatewayv1.ForgeCallRequest))
	res := proto.Clone(g.result).(*gatewayv1.ForgeCallResult)
	res.CallId = req.GetCallId()
	return res, nil
}

// run executes one call of tool over a fresh toolset and gateway.
func run(t *testing.T, tool, args string, result *gatewayv1.ForgeCallResult) (runtime.Result, *gateway, *runtime.Broker) {
	t.Helper()
	g := &gateway{result: result}
	b := runtime.NewBroker(g)
	ts, err := runtime.NewToolset(gatewayv1tools.ForgeTools, b)
	if err != nil {
		t.Fatal(err)
	}
	res := ts.Execute(context.Background(), runtime.Call{ID: "call_7", Name: tool, Args: []byte(args)})
	return res, g, b
}

func TestEveryToolHasARow(t *testing.T) {
	var rows, tools []string
	for _, c := range contracts {
		rows = append(rows, c.tool)
	}
	for _, tool := range gatewayv1tools.ForgeTools.Tools {
		tools = append(tools, tool.Name)
	}
	if !slices.Equal(rows, tools) {
		t.Errorf("contract rows %v\n      tools %v", rows, tools)
	}
}

func TestWireRequest(t *testing.T) {
	selector := `"forge_provider":"github","forge_host":"ghe.example.com:8443"`
	for _, c := range contracts {
		t.Run(c.tool, func(t *testing.T) {
			for _, tc := range []struct {
				name  string
				args  string
				forge *forgev1.ForgeRef
			}{
				{"no selector", c.args, nil},
				{"selector", strings.Replace(c.args, "{", "{"+selector+",", 1),
					&forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, Host: "ghe.example.com:8443"}},
				{"host only", strings.Replace(c.args, "{", `{"forge_host":"ghe.example.com",`, 1),
					&forgev1.ForgeRef{Host: "ghe.example.com"}},
			} {
				res, g, b := run(t, c.tool, tc.args, c.success)
				if res.IsError || len(g.got) != 1 {
					t.Fatalf("%s: %+v, %d requests sent", tc.name, res, len(g.got))
				}
				want := proto.Clone(c.call).(*gatewayv1.ForgeCallRequest)
				want.CallId, want.Forge = "call_7", tc.forge
				if c.create {
					want.ClientRequestId = b.IdempotencyKey("call_7")
				}
				if !proto.Equal(g.got[0], want) {
					t.Errorf("%s: wire request\n got %v\nwant %v", tc.name, g.got[0], want)
				}
			}
		})
	}
}

// The idempotency key is the broker's nonce, then ":", then the tool call
// id: two brokers (two agent sessions) sending the same call id must not
// share a key, and one broker must repeat its key for a retried call.
func TestIdempotencyKeyIsNoncePrefixed(t *testing.T) {
	for _, c := range contracts {
		if !c.create {
			continue
		}
		t.Run(c.tool, func(t *testing.T) {
			_, g1, b1 := run(t, c.tool, c.args, c.success)
			_, g2, _ := run(t, c.tool, c.args, c.success)
			k1, k2 := g1.got[0].GetClientRequestId(), g2.got[0].GetClientRequestId()
			nonce, id, ok := strings.Cut(k1, ":")
			if !ok || nonce == "" || id != "call_7" {
				t.Errorf("key %q: want <nonce>:call_7", k1)
			}
			if k1 == k2 {
				t.Errorf("two brokers sent the same key %q for one call id", k1)
			}
			if b1.IdempotencyKey("call_7") != k1 {
				t.Errorf("the broker's key for call_7 is %q, the wire carried %q", b1.IdempotencyKey("call_7"), k1)
			}
		})
	}
}

// fenceNonce matches a fence marker's nonce, so a read renders to a fixed
// text once each nonce is spelled NONCE.
var fenceNonce = regexp.MustCompile(`(<<<(?:\w+|…)-|>>>)([0-9a-f]{8})\b`)

func TestRenderedSuccess(t *testing.T) {
	for _, c := range contracts {
		t.Run(c.tool, func(t *testing.T) {
			res, _, _ := run(t, c.tool, c.args, c.success)
			if res.IsError {
				t.Fatalf("failed: %s", res.Text)
			}
			nonces := map[string]bool{}
			for _, m := range fenceNonce.FindAllStringSubmatch(res.Text, -1) {
				nonces[m[2]] = true
			}
			if len(nonces) > 1 {
				t.Errorf("one render used %d fence nonces; want one per render", len(nonces))
			}
			if got := fenceNonce.ReplaceAllString(res.Text, "${1}NONCE"); got != c.rendered {
				t.Errorf("rendered\n%s\nwant\n%s", got, c.rendered)
			}
		})
	}
}

// A create answered with an empty url is the gateway replaying what an
// earlier attempt made: the model must read that, not a broken link.
func TestReplayAck(t *testing.T) {
	for _, c := range contracts {
		if c.create != (c.replay != "") {
			t.Errorf("%s: a create row needs a replay text, and only a create row", c.tool)
		}
		if !c.create {
			continue
		}
		t.Run(c.tool, func(t *testing.T) {
			replayed := proto.Clone(c.success).(*gatewayv1.ForgeCallResult)
			arm := replayed.ProtoReflect()
			m := arm.Get(arm.WhichOneof(arm.Descriptor().Oneofs().ByName("result"))).Message()
			m.Clear(m.Descriptor().Fields().ByName("url"))
			res, _, _ := run(t, c.tool, c.args, replayed)
			if res != (runtime.Result{Text: c.replay}) {
				t.Errorf("got %+v\nwant %q", res, c.replay)
			}
		})
	}
}

func TestErrorArm(t *testing.T) {
	for _, c := range contracts {
		t.Run(c.tool, func(t *testing.T) {
			for _, tc := range []struct {
				code  gatewayv1.ErrorCode
				msg   string
				retry uint64
				want  string
			}{
				{gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "no such thing in acme/widgets", 0,
					c.tool + " failed: not_found: no such thing in acme/widgets"},
				{gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED, "rate limited by the forge", 1500,
					c.tool + " failed: resource_exhausted: rate limited by the forge; retry after 1500ms"},
				{gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED, "linear has no pull requests\nsecond line", 0,
					c.tool + " failed: unimplemented: linear has no pull requests second line"},
			} {
				errArm := &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_Error{Error: &gatewayv1.ForgeCallError{
					Code: tc.code, Message: tc.msg, RetryAfterMs: tc.retry}}}
				res, _, _ := run(t, c.tool, c.args, errArm)
				if res != (runtime.Result{Text: tc.want, IsError: true}) {
					t.Errorf("got %+v\nwant %q", res, tc.want)
				}
			}
		})
	}
}

func TestWrongArm(t *testing.T) {
	for _, c := range contracts {
		t.Run(c.tool, func(t *testing.T) {
			tool, _ := lookup(c.tool)
			if c.wrongName == tool.ResultArm {
				t.Fatalf("the row's wrong arm %s is the tool's own", c.wrongName)
			}
			for _, tc := range []struct {
				result *gatewayv1.ForgeCallResult
				got    string
			}{{c.wrong, c.wrongName}, {&gatewayv1.ForgeCallResult{}, "none"}} {
				res, _, _ := run(t, c.tool, c.args, tc.result)
				want := fmt.Sprintf("%s failed: protocol violation: expected result %s, got %s", c.tool, tool.ResultArm, tc.got)
				if res != (runtime.Result{Text: want, IsError: true}) {
					t.Errorf("got %+v\nwant %q", res, want)
				}
			}
		})
	}
}

// TestRejections checks each row's own rejections plus the two every tool
// shares: an unknown parameter (named, with the valid ones listed) and a
// JSON value of the wrong kind for the arguments as a whole.
func TestRejections(t *testing.T) {
	for _, c := range contracts {
		t.Run(c.tool, func(t *testing.T) {
			rejects := append(slices.Clone(c.rejects),
				reject{strings.Replace(c.args, "{", `{"bogus":1,`, 1), `unknown parameter "bogus"; valid parameters: ` + c.params},
				reject{`["` + c.tool + `"]`, "arguments must be a JSON object, got array"},
			)
			for _, r := range rejects {
				res, g, _ := run(t, c.tool, r.args, c.success)
				want := c.tool + " failed: invalid_argument: " + r.want
				if res != (runtime.Result{Text: want, IsError: true}) {
					t.Errorf("%s\n got %+v\nwant %q", r.args, res, want)
				}
				if len(g.got) != 0 {
					t.Errorf("%s: a rejected call reached the gateway", r.args)
				}
			}
		})
	}
}

func lookup(name string) (*runtime.Tool, bool) {
	i := slices.IndexFunc(gatewayv1tools.ForgeTools.Tools, func(t *runtime.Tool) bool { return t.Name == name })
	if i < 0 {
		return nil, false
	}
	return gatewayv1tools.ForgeTools.Tools[i], true
}
