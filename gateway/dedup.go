package gateway

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/forgetools/forgetools/gateway/store"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
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
//
// A provider that writes to the store's own database (toolserver.TxJoiner)
// creates inside the store's transaction, so the key, the artifact and its
// ownership row commit together (createInTx); any other runs under the
// memo's lease (createLeased).
func (s *Service) once(ctx context.Context, o *operation, p Provider, req proto.Message) (proto.Message, error) {
	fp, err := fingerprint(o.arm.Name, p, o.req) // before stamping: a retry from another session still matches
	if err != nil {
		return nil, err
	}
	k := dedupKey{key: o.env.ClientRequestID, fingerprint: fp}
	if k.key == "" {
		k.key, k.window = "derived:"+o.id.Session+":"+fp, s.cfg.dedupWindow
	}
	// Once the key is held the create runs to its end even if the caller
	// hangs up (see createGrace).
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), createGrace)
	defer cancel()
	var (
		out  proto.Message
		done *store.Artifact
	)
	if j, ok := p.(toolserver.TxJoiner); ok && j.JoinsTx(s.store.DB()) {
		out, done, err = s.createInTx(ctx, cctx, o, p, req, k)
	} else {
		out, done, err = s.createLeased(ctx, cctx, o, p, req, k)
	}
	if done != nil {
		o.replay = true
		return s.replay(o, done), nil
	}
	return out, err
}

// dedupKey is what makes a create once: its key, its request's
// fingerprint and how long a finished create is replayed (0: for good).
type dedupKey struct {
	key, fingerprint string
	window           time.Duration
}

// createInTx creates in the store's transaction (store.CreateTx): the
// provider joins it through the context.
func (s *Service) createInTx(ctx, cctx context.Context, o *operation, p Provider, req proto.Message, k dedupKey) (proto.Message, *store.Artifact, error) {
	var out proto.Message
	done, err := s.store.CreateTx(ctx, cctx, store.Create{
		Account: o.acct.Name, Key: k.key, Fingerprint: k.fingerprint, Window: k.window,
		Do: func(ctx context.Context, tx *sql.Tx) (store.Ownership, error) {
			var err error
			// The memo commits with the artifact, so the provider needs no
			// key of its own for a derived one: o.call() passes only a
			// client's id.
			if out, err = s.serve(toolserver.WithTx(ctx, s.store.DB(), tx), o, p, o.call(), req); err != nil {
				return store.Ownership{}, providerError{err}
			}
			return s.ownership(o, p, out), nil
		},
	})
	var pe providerError
	if errors.As(err, &pe) {
		return nil, nil, pe.error
	}
	if err != nil {
		return nil, nil, s.unreserved(ctx, o, err)
	}
	return out, done, nil
}

// providerError marks the provider's own answer among the store's.
type providerError struct{ error }

// createLeased reserves the key with a lease, creates, and records the
// result: a crash between the forge write and the record leaves an
// artifact the memo does not know.
func (s *Service) createLeased(ctx, cctx context.Context, o *operation, p Provider, req proto.Message, k dedupKey) (proto.Message, *store.Artifact, error) {
	r, done, err := s.store.Reserve(ctx, o.acct.Name, k.key, k.fingerprint, k.window)
	if err != nil {
		return nil, nil, s.unreserved(ctx, o, err)
	}
	if done != nil {
		return nil, done, nil
	}
	bg, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeGrace)
	defer cancel()
	defer func() {
		// Unless Finish ended it (a failed create, or a provider that
		// panicked): release the key, so a retry creates.
		if err := r.Abandon(bg); err != nil {
			// The reservation's lease will expire and a retry takes it over.
			s.log.ErrorContext(ctx, "create reservation not released", "account", o.acct.Name, "cause", s.redact(err.Error()))
		}
	}()
	c := o.call()
	if o.env.ClientRequestID == "" {
		// The provider's own idempotency (Linear's ids, GitHub's marker,
		// the local forge's record) keys on this too: per reservation, so
		// the same call past the window is a new create at the forge as
		// well.
		c.ClientRequestID = k.key + "@" + r.Generation()
	}
	// An attempt that took over a dead gateway's reservation may follow a
	// create that reached the forge: a provider without idempotency at the
	// forge looks for it first.
	c.Resumed = r.TookOver()
	out, err := s.serve(cctx, o, p, c, req)
	if err != nil {
		return nil, nil, err
	}
	rec := s.ownership(o, p, out)
	if ferr := r.Finish(bg, rec); ferr != nil {
		// The artifact exists: report it, and log that the memo does not
		// (a retry after the lease could create it again).
		s.log.ErrorContext(ctx, "create memo not recorded", "account", o.acct.Name, "repo", o.repo,
			"number", rec.Number, "cause", s.redact(ferr.Error()))
	}
	return out, nil, nil
}

// unreserved words a failure to take a create's key, or to commit it.
func (s *Service) unreserved(ctx context.Context, o *operation, err error) error {
	switch {
	case errors.Is(err, store.ErrKeyReused):
		return refuse(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
			"client_request_id was already used for a different request; a new create needs a new id")
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		return refuse(gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE,
			"an earlier attempt of this create is still in progress; retry to get its result")
	case errors.Is(err, store.ErrNotCommitted):
		// The artifact went with the transaction. Should the commit have
		// gone through unconfirmed, the retry replays it.
		s.log.ErrorContext(ctx, "create not committed", "account", o.acct.Name, "repo", o.repo, "cause", s.redact(err.Error()))
		return refuse(gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE,
			"the create could not be committed; retry it (a retry replays it if the commit went through after all)")
	}
	return err
}

// replay builds the result arm's skeletal answer from the memo.
func (s *Service) replay(o *operation, a *store.Artifact) proto.Message {
	res := o.table.NewResult().ProtoReflect()
	fd := res.Descriptor().Fields().ByName(protoreflect.Name(o.arm.Result))
	return replayOf(res.NewField(fd).Message(), a)
}

// fingerprint identifies a create request: the arm, the resolved forge and
// the request's deterministic encoding.
func fingerprint(arm string, p Provider, req proto.Message) (string, error) {
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
