package gateway

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"

	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers"
	"google.golang.org/protobuf/proto"
)

// storeGrace bounds the store writes made after a forge write succeeded;
// they run even when the caller has gone, so the record matches the forge.
const storeGrace = 10 * time.Second

// createGrace bounds a claimed create. Once the gateway holds the key it
// finishes the create even if the caller hangs up: cancelling half way
// could leave an artifact on the forge with no memo, and the caller's retry
// would then file it twice. The retry waits for this attempt instead.
const createGrace = 2 * time.Minute

func (c *ForgeCaller) createIssue(ctx context.Context, x *call, p providers.Provider, ref *forgev1.ForgeRef,
	in *gatewayv1.CreateIssueRequest) (*gatewayv1.ForgeCallResult, error) {
	iss, err := need[providers.Issues](p, x, nounIssues)
	if err != nil {
		return nil, err
	}
	return c.create(ctx, x, ref, store.KindIssue, in, func(ctx context.Context, pc providers.Call) (*gatewayv1.ForgeCallResult, uint64, error) {
		req := proto.Clone(in).(*gatewayv1.CreateIssueRequest)
		if req.Body, err = c.stamp(x, req.Body); err != nil {
			return nil, 0, err
		}
		out, err := iss.CreateIssue(ctx, pc, req)
		res, err := wrap(out, err, func(i *forgev1.Issue) *gatewayv1.ForgeCallResult { return issueResult(readIssue(i, ref)) })
		return res, out.GetNumber(), err
	})
}

func (c *ForgeCaller) createPullRequest(ctx context.Context, x *call, p providers.Provider, ref *forgev1.ForgeRef,
	in *gatewayv1.CreatePullRequestRequest) (*gatewayv1.ForgeCallResult, error) {
	prs, err := need[providers.PullRequests](p, x, nounPullRequests)
	if err != nil {
		return nil, err
	}
	return c.create(ctx, x, ref, store.KindPullRequest, in, func(ctx context.Context, pc providers.Call) (*gatewayv1.ForgeCallResult, uint64, error) {
		req := proto.Clone(in).(*gatewayv1.CreatePullRequestRequest)
		if req.Body, err = c.stamp(x, req.Body); err != nil {
			return nil, 0, err
		}
		out, err := prs.CreatePullRequest(ctx, pc, req)
		res, err := wrap(out, err, func(pr *forgev1.PullRequest) *gatewayv1.ForgeCallResult { return prResult(readPR(pr, ref)) })
		return res, out.GetNumber(), err
	})
}

// create runs a create at most once per (account, client_request_id). The
// first attempt claims the key and calls the forge; every other attempt,
// concurrent or after a restart, waits for it and replays the skeletal
// result {forge, repo, number} with an empty URL, which the tool renders
// as "already created by an earlier attempt". A failed create releases the
// key so a retry can try again. Without a client_request_id there is no
// dedup.
func (c *ForgeCaller) create(ctx context.Context, x *call, ref *forgev1.ForgeRef, kind store.Kind, in proto.Message,
	do func(context.Context, providers.Call) (*gatewayv1.ForgeCallResult, uint64, error)) (*gatewayv1.ForgeCallResult, error) {
	key := x.req.GetClientRequestId()
	pc := providers.Call{Account: x.acct.Name, Session: x.id.Session, ClientRequestID: key}
	artifact := func(n uint64) store.Artifact {
		return store.Artifact{Forge: store.ForgeOf(ref), Repo: x.repo, Kind: kind, Number: n}
	}
	if key == "" {
		res, n, err := do(ctx, pc)
		if err == nil {
			c.own(ctx, x, artifact(n))
		}
		return res, err
	}

	fp, err := fingerprint(x.arm, ref, in)
	if err != nil {
		return nil, err
	}
	claim, done, err := c.store.Claim(ctx, x.acct.Name, key, fp)
	switch {
	case errors.Is(err, store.ErrKeyReused):
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
			"client_request_id was already used for a different request; a new create needs a new id")
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE,
			"an earlier attempt with this client_request_id is still in progress; retry to get its result")
	case err != nil:
		return nil, err
	case done != nil:
		x.replay = true
		return replay(done), nil
	}

	pc.Resumed = claim.TookOver()
	cctx, cancelCreate := context.WithTimeout(context.WithoutCancel(ctx), createGrace)
	res, n, err := do(cctx, pc)
	cancelCreate()
	bg, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeGrace)
	defer cancel()
	if err != nil {
		if aerr := claim.Abandon(bg); aerr != nil {
			// The claim's lease will expire and a retry takes it over.
			c.log.ErrorContext(ctx, "create claim not released", "account", x.acct.Name, "cause", c.redact(aerr.Error()))
		}
		return nil, err
	}
	if ferr := claim.Finish(bg, x.id.Session, artifact(n)); ferr != nil {
		// The artifact exists: report it, and log that the memo does not
		// (a retry after the lease could create it again).
		c.log.ErrorContext(ctx, "create memo not recorded", "account", x.acct.Name, "repo", x.repo,
			"number", n, "cause", c.redact(ferr.Error()))
	}
	return res, nil
}

// replay is the skeletal result of a create an earlier attempt made: no URL,
// title or body, which is how the tool tells it apart.
func replay(a *store.Artifact) *gatewayv1.ForgeCallResult {
	ref := a.Forge.Ref()
	if a.Kind == store.KindPullRequest {
		return prResult(&forgev1.PullRequest{Forge: ref, Repo: a.Repo, Number: a.Number})
	}
	return issueResult(&forgev1.Issue{Forge: ref, Repo: a.Repo, Number: a.Number})
}

// fingerprint identifies a create request (before stamping, so a retry from
// another session of the account still matches): the arm, the resolved
// forge and the request's deterministic encoding.
func fingerprint(arm string, ref *forgev1.ForgeRef, in proto.Message) (string, error) {
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(in)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write([]byte(arm))
	h.Write([]byte{0})
	h.Write([]byte(describe(ref)))
	h.Write([]byte{0})
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil)), nil
}
