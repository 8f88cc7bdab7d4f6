package runtime_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/runtime"
)

func TestIdempotencyKey(t *testing.T) {
	a, b := runtime.NewBroker(nil), runtime.NewBroker(nil)
	ka := a.IdempotencyKey("call_1")
	nonce, id, ok := strings.Cut(ka, ":")
	if !ok || id != "call_1" || len(nonce) < 16 {
		t.Fatalf("key %q is not nonce:call_id with a long nonce", ka)
	}
	if a.IdempotencyKey("call_1") != ka {
		t.Error("key is not stable for one broker")
	}
	if a.IdempotencyKey("call_2") != nonce+":call_2" {
		t.Error("one broker uses more than one nonce")
	}
	if kb := b.IdempotencyKey("call_1"); kb == ka {
		t.Errorf("two brokers share the key %q: sessions would dedup into each other", kb)
	}
	// Ids may contain the separator; the nonce is still the whole prefix.
	if got := a.IdempotencyKey("x:y"); got != nonce+":x:y" {
		t.Errorf("key for x:y = %q", got)
	}
}

func TestBrokerCall(t *testing.T) {
	req := &gatewayv1.ForgeCallRequest{CallId: "c1"}
	res := &gatewayv1.ForgeCallResult{CallId: "c1"}
	var got proto.Message
	b := runtime.NewBroker(runtime.TransportFunc(func(_ context.Context, m proto.Message) (proto.Message, error) {
		got = m
		return res, nil
	}))
	out, err := b.Call(context.Background(), req)
	if err != nil || out != res || got != req {
		t.Fatalf("Call forwarded %v and returned %v, %v", got, out, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got = nil
	if _, err := b.Call(ctx, req); !errors.Is(err, context.Canceled) || got != nil {
		t.Errorf("cancelled call: err %v, transport saw %v", err, got)
	}

	if _, err := runtime.NewBroker(nil).Call(context.Background(), req); err == nil {
		t.Error("a broker without a transport returned no error")
	}
}

func TestWithNonceFixesTheKey(t *testing.T) {
	b := runtime.NewBroker(nil, runtime.WithNonce("session-7"))
	if got := b.IdempotencyKey("call_1"); got != "session-7:call_1" {
		t.Fatalf("IdempotencyKey = %q, want session-7:call_1", got)
	}
	if a, b := runtime.NewBroker(nil), runtime.NewBroker(nil); a.IdempotencyKey("x") == b.IdempotencyKey("x") {
		t.Fatal("brokers without WithNonce share a nonce")
	}
}
