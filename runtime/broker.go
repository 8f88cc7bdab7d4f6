package runtime

import (
	"context"
	"crypto/rand"
	"errors"

	"google.golang.org/protobuf/proto"
)

// Transport carries one dispatch request to a gateway and brings back its
// result envelope. Domain failures come back in-band in the result; an error
// means the call did not complete (gateway down, connection refused, context
// done) and becomes an ordinary tool failure.
type Transport interface {
	Forge(ctx context.Context, req proto.Message) (proto.Message, error)
}

// TransportFunc adapts a function to Transport: the in-process transport for
// tests and for embedding a gateway in the agent's own process.
type TransportFunc func(ctx context.Context, req proto.Message) (proto.Message, error)

// Forge calls f.
func (f TransportFunc) Forge(ctx context.Context, req proto.Message) (proto.Message, error) {
	return f(ctx, req)
}

// Broker is the toolset's handle on a Transport. It owns the idempotency
// nonce: tool call ids are only unique within one model session, so two
// sessions of one account can both send "call_1"; prefixing a per-broker
// random nonce keeps their creates from deduplicating into each other at the
// gateway, which keys its replay memo on (account, client_request_id).
type Broker struct {
	t     Transport
	nonce string
}

// BrokerOption configures a Broker.
type BrokerOption func(*Broker)

// WithNonce sets the broker's nonce instead of a fresh random one. Use it
// only to keep one agent session's keys stable across process restarts (a
// runtime that persists its session and retries a create after a crash), and
// never share a nonce between sessions of one account: their tool call ids
// would collide and one session's create would replay the other's.
func WithNonce(nonce string) BrokerOption {
	return func(b *Broker) { b.nonce = nonce }
}

// NewBroker returns a broker over t with a fresh random nonce.
func NewBroker(t Transport, opts ...BrokerOption) *Broker {
	b := &Broker{t: t, nonce: rand.Text()}
	for _, o := range opts {
		o(b)
	}
	return b
}

// IdempotencyKey is the client_request_id for a create made under
// toolCallID: nonce + ":" + toolCallID, stable for this broker.
func (b *Broker) IdempotencyKey(toolCallID string) string {
	return b.nonce + ":" + toolCallID
}

// errNoResult is a transport that answered neither a result nor an error.
var errNoResult = errors.New("transport returned no result")

// Call sends req and returns the result envelope. It honours ctx before
// sending, so a cancelled turn never starts a write.
func (b *Broker) Call(ctx context.Context, req proto.Message) (proto.Message, error) {
	if b == nil || b.t == nil {
		return nil, errors.New("no transport configured")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res, err := b.t.Forge(ctx, req)
	if err != nil {
		return nil, err
	}
	if res == nil || !res.ProtoReflect().IsValid() {
		return nil, errNoResult
	}
	return res, nil
}
