package gateway

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/forgetools/forgetools/gateway/store"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// DefaultApprovalExpiry is Config.ApprovalExpiry's default.
const DefaultApprovalExpiry = 24 * time.Hour

// gate decides a call that passed every check, before any provider: it
// runs (parked false), or it is answered here (parked true, with the
// arm's result or the error): refused by a deny rule, parked for an
// operator, or answered from the decision on the same call parked
// earlier. An approved call being run is not gated again.
func (s *Service) gate(ctx context.Context, o *operation, p Provider) (res proto.Message, parked bool, err error) {
	if o.approved != "" {
		return nil, false, nil
	}
	holds, err := s.holds(ctx, o, p)
	if err != nil || len(holds) == 0 {
		return nil, err != nil, err
	}
	res, err = s.park(ctx, o, p, holds)
	return res, true, err
}

// park stores o, as it would be sent, for an operator, and answers the
// model. The identical call made again (same account, same digest) adds
// nothing: before a decision it gets the same approval id, after an
// approval the stored result, after a denial the operator's reason.
func (s *Service) park(ctx context.Context, o *operation, p Provider, holds []hold) (proto.Message, error) {
	req := o.req
	if o.arm.Texts != nil {
		req = proto.Clone(o.req)
		if err := s.attribute(o, req); err != nil {
			return nil, err
		}
	}
	// The digest is the dedup fingerprint of the stamped request: the arm,
	// the resolved forge and the request, never the call id or the
	// client's idempotency key, which a repeat changes.
	digest, err := fingerprint(o.arm.Name, p, req)
	if err != nil {
		return nil, err
	}
	prev, err := s.store.LatestApproval(ctx, o.acct.Name, digest)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return nil, err
	default:
		if prev.State == store.ApprovalPending {
			o.parked = prev.ID
			return s.await(ctx, o, prev, s.approvalStream(ctx, o.acct.Name))
		}
		if res, err, answered := s.decided(o, prev); answered {
			return res, err
		}
	}
	if err := s.roomToPark(ctx, o); err != nil {
		return nil, err
	}
	env, err := s.parkedEnvelope(o, p, req)
	if err != nil {
		return nil, err
	}
	a := store.Approval{
		Account: o.acct.Name, Session: o.id.Session, Tool: o.tool, Forge: o.forge, Repo: o.repo,
		RequestType: string(env.ProtoReflect().Descriptor().FullName()), Digest: digest,
		Risk: o.risk.String(), Escalations: o.escalations, Preview: preview(req),
	}
	for _, h := range holds {
		a.Holds = append(a.Holds, store.Hold{Rule: h.rule, Reason: h.reason})
	}
	if a.Request, err = (proto.MarshalOptions{Deterministic: true}).Marshal(env); err != nil {
		return nil, err
	}
	got, _, err := s.store.Park(ctx, a, s.cfg.approvalExpiry)
	if err != nil {
		return nil, err
	}
	o.parked = got.ID
	return s.await(ctx, o, got, s.approvalStream(ctx, o.acct.Name))
}

// awaitPoll is how often a call held open (Config.ApprovalWait) looks for
// its decision.
const awaitPoll = 100 * time.Millisecond

// await holds a parked call open for Config.ApprovalWait, so a quick
// decision (on any replica) returns the real result in the same call;
// past it, or with no wait configured, the model reads pending, which
// names the account's approval stream the decision will arrive on.
func (s *Service) await(ctx context.Context, o *operation, a store.Approval, stream string) (proto.Message, error) {
	if s.cfg.approvalWait <= 0 {
		return nil, pending(a, stream)
	}
	wait := time.NewTimer(s.cfg.approvalWait)
	defer wait.Stop()
	tick := time.NewTicker(awaitPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, pending(a, stream)
		case <-wait.C:
			return nil, pending(a, stream)
		case <-tick.C:
		}
		now, err := s.store.GetApproval(ctx, a.ID)
		if err != nil {
			return nil, pending(a, stream)
		}
		if now.State == store.ApprovalDone || now.State == store.ApprovalDenied {
			res, err, _ := s.decided(o, now)
			return res, err
		}
	}
}

// decided answers a call from its earlier approval, when that still
// speaks for it: pending or running, or decided within the expiry. An
// expired one, or a decision older than the expiry, lets the call park
// anew.
func (s *Service) decided(o *operation, a store.Approval) (proto.Message, error, bool) {
	o.parked = a.ID
	fresh := !a.Decided.IsZero() && s.store.Now().Sub(a.Decided) < s.cfg.approvalExpiry
	switch {
	case a.State == store.ApprovalPending:
		return nil, pending(a, ""), true
	case a.State == store.ApprovalRunning:
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_PENDING_APPROVAL,
			"approval %s: %s approved this call and it is running now; call again with the same arguments for its result", a.ID, a.Operator), true
	case a.State == store.ApprovalDenied && fresh:
		return nil, denied(a), true
	case a.State == store.ApprovalDone && fresh:
		res, err := s.storedResult(o.table, o.arm, a)
		return res, err, true
	}
	return nil, nil, false
}

// pending is the one line the model reads for a parked call; stream is
// the account's approval stream ("" when it could not be made), where the
// decision arrives as an event.
func pending(a store.Approval, stream string) error {
	var why []string
	for _, h := range a.Holds {
		why = append(why, h.Reason+" ("+h.Rule+")")
	}
	watch := "forge_get_events"
	if stream != "" {
		watch += " (subscription " + stream + ")"
	}
	return refuse(gatewayv1.ErrorCode_ERROR_CODE_PENDING_APPROVAL,
		"approval %s: this call waits for an operator and has not reached the forge: %s. Call again with the same arguments to get the decision (the result once approved, the reason once denied), or watch %s: the decision arrives there as an event naming this approval",
		a.ID, strings.Join(why, "; "), watch)
}

func denied(a store.Approval) error {
	reason := a.Reason
	if reason == "" {
		reason = "no reason given"
	}
	return refuse(gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED,
		"approval %s: operator %s denied this call: %s", a.ID, a.Operator, reason)
}

// storedResult is the outcome an approved call had, as the model reads it.
func (s *Service) storedResult(t *toolserver.Table, arm *toolserver.Arm, a store.Approval) (proto.Message, error) {
	if a.ErrorCode != 0 || a.Result == nil {
		// The model reads the answer the call had, as if it had run now.
		return nil, refuse(gatewayv1.ErrorCode(a.ErrorCode), "%s", a.ErrorMessage)
	}
	res := t.NewResult().ProtoReflect()
	fd := res.Descriptor().Fields().ByName(protoreflect.Name(arm.Result))
	if fd == nil || fd.Message() == nil {
		return nil, fmt.Errorf("approval %s: result arm %q is not in %s", a.ID, arm.Result, res.Descriptor().FullName())
	}
	m := res.NewField(fd).Message().Interface()
	if err := proto.Unmarshal(a.Result, m); err != nil {
		return nil, fmt.Errorf("approval %s: stored result: %w", a.ID, err)
	}
	return m, nil
}

// parkedEnvelope is the request envelope as it will run: the arm's
// stamped request and the forge that resolved, so neither a later
// argument nor a change of default forge alters what the operator
// approved.
func (s *Service) parkedEnvelope(o *operation, p Provider, req proto.Message) (proto.Message, error) {
	env := proto.Clone(o.envelope).ProtoReflect()
	fields := env.Descriptor().Fields()
	arm := fields.ByName(protoreflect.Name(o.arm.Name))
	if arm == nil {
		return nil, fmt.Errorf("the envelope %s has no arm %s", env.Descriptor().FullName(), o.arm.Name)
	}
	env.Set(arm, protoreflect.ValueOfMessage(req.ProtoReflect()))
	for i := range fields.Len() {
		fd := fields.Get(i)
		if fd.Message() != nil && fd.Message().FullName() == forgeRefMsg.FullName() && !fd.IsList() {
			env.Set(fd, protoreflect.ValueOfMessage(proto.Clone(p.Ref()).ProtoReflect()))
		}
	}
	return env.Interface(), nil
}

// preview is the request's arguments as text, one "path: value" a line
// in field order (strings quoted, texts in full), computed at park time:
// what an operator reads before a command adds the arm's own detail (a
// diff). Not prototext, whose spacing is deliberately unstable.
func preview(req proto.Message) string {
	var b strings.Builder
	previewFields(&b, req.ProtoReflect(), "")
	return b.String()
}

func previewFields(b *strings.Builder, m protoreflect.Message, prefix string) {
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if !m.Has(fd) || fd.IsMap() {
			continue
		}
		path := prefix + string(fd.Name())
		if !fd.IsList() {
			previewValue(b, fd, m.Get(fd), path)
			continue
		}
		l := m.Get(fd).List()
		for j := range l.Len() {
			previewValue(b, fd, l.Get(j), fmt.Sprintf("%s[%d]", path, j))
		}
	}
}

func previewValue(b *strings.Builder, fd protoreflect.FieldDescriptor, v protoreflect.Value, path string) {
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		previewFields(b, v.Message(), path+".")
	case protoreflect.StringKind:
		fmt.Fprintf(b, "%s: %q\n", path, v.String())
	case protoreflect.BytesKind:
		fmt.Fprintf(b, "%s: %d bytes\n", path, len(v.Bytes()))
	case protoreflect.EnumKind:
		name := fmt.Sprint(int32(v.Enum()))
		if ev := fd.Enum().Values().ByNumber(v.Enum()); ev != nil {
			name = string(ev.Name())
		}
		fmt.Fprintf(b, "%s: %s\n", path, name)
	default:
		fmt.Fprintf(b, "%s: %v\n", path, v.Interface())
	}
}

// pendingRetry is the hint an account at its pending_approvals cap gets:
// a decision is a person's, so there is no time at which room is certain.
const pendingRetry = time.Minute

// roomToPark refuses a new approval while the account already has its
// limit of them waiting. Concurrent parks may each see room, so the cap can
// be passed by at most the account's calls in flight.
func (s *Service) roomToPark(ctx context.Context, o *operation) error {
	n, err := s.store.PendingCount(ctx, o.acct.Name)
	if err != nil {
		return err
	}
	if limit := o.acct.meter.limits.PendingApprovals; n >= limit {
		return exhausted(pendingRetry, "account %q has %d calls waiting for an operator's decision, its limit; wait for decisions (forgetools approvals list) before asking for more", o.acct.Name, n)
	}
	return nil
}
