package gateway

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/forgetools/forgetools/gateway/store"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/handler"
)

// createGrace bounds a reserved create. Once the gateway holds the key it
// finishes the create even if the caller hangs up: cancelling half way
// could leave an artifact on the forge with no memo, and the caller's retry
// would then file it twice. The retry waits for this attempt instead.
const createGrace = 2 * time.Minute

// once runs an arm that carries the idempotency key at most once per
// (account, key). The first attempt reserves the key and calls the forge;
// every other attempt, concurrent or after a restart, waits for it and
// replays the skeletal result {forge, repo, number} with an empty URL, which
// the tool renders as "already created by an earlier attempt". A failed
// attempt releases the key so a retry can try again.
//
// The key is the call's client_request_id, replayed for good. A call
// without one (a client with no tool-call ids: MCP, `forgetools call`
// without --id) gets a key derived from its session and its request,
// replayed within the dedup window: the same create repeated by a retrying
// client files one artifact, and the same create made deliberately later
// files another.
func (s *Service) once(ctx context.Context, o *operation, p handler.Provider, req proto.Message) (proto.Message, error) {
	fp, err := fingerprint(o.arm.Name, p, o.req) // before stamping: a retry from another session still matches
	if err != nil {
		return nil, err
	}
	key, window := o.env.ClientRequestID, time.Duration(0)
	if key == "" {
		key, window = "derived:"+o.id.Session+":"+fp, s.cfg.dedupWindow
	}
	r, done, err := s.store.Reserve(ctx, o.acct.Name, key, fp, window)
	switch {
	case errors.Is(err, store.ErrKeyReused):
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
			"client_request_id was already used for a different request; a new create needs a new id")
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE,
			"an earlier attempt of this create is still in progress; retry to get its result")
	case err != nil:
		return nil, err
	case done != nil:
		o.replay = true
		return s.replay(o, done), nil
	}

	cctx, cancelCreate := context.WithTimeout(context.WithoutCancel(ctx), createGrace)
	c := o.call()
	if o.env.ClientRequestID == "" {
		// The provider's own idempotency (Linear's ids, GitHub's marker,
		// the local forge's record) keys on this too: per reservation, so
		// the same call past the window is a new create at the forge as
		// well.
		c.ClientRequestID = key + "@" + r.Generation()
	}
	// An attempt that took over a dead gateway's reservation may follow a
	// create that reached the forge: a provider without idempotency at the
	// forge looks for it first.
	c.Resumed = r.TookOver()
	out, err := s.serve(cctx, o, p, c, req)
	cancelCreate()
	bg, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeGrace)
	defer cancel()
	if err != nil {
		if aerr := r.Abandon(bg); aerr != nil {
			// The reservation's lease will expire and a retry takes it over.
			s.log.ErrorContext(ctx, "create reservation not released", "account", o.acct.Name, "cause", s.redact(aerr.Error()))
		}
		return nil, err
	}
	rec := s.ownership(o, p, out)
	if ferr := r.Finish(bg, rec); ferr != nil {
		// The artifact exists: report it, and log that the memo does not
		// (a retry after the lease could create it again).
		s.log.ErrorContext(ctx, "create memo not recorded", "account", o.acct.Name, "repo", o.repo,
			"number", rec.Number, "cause", s.redact(ferr.Error()))
	}
	return out, nil
}

// replay builds the result arm's skeletal answer from the memo.
func (s *Service) replay(o *operation, a *store.Artifact) proto.Message {
	res := o.table.NewResult().ProtoReflect()
	fd := res.Descriptor().Fields().ByName(protoreflect.Name(o.arm.Result))
	return replayOf(res.NewField(fd).Message(), a)
}

// fingerprint identifies a create request: the arm, the resolved forge and
// the request's deterministic encoding.
func fingerprint(arm string, p handler.Provider, req proto.Message) (string, error) {
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(req)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write([]byte(arm))
	h.Write([]byte{0})
	h.Write([]byte(describe(p.Ref())))
	h.Write([]byte{0})
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil)), nil
}
