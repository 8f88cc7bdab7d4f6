package gateway

import (
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/forgetools/forgetools/gateway/store"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// The operator's side of the approval gate: list the parked calls, read
// one, approve it (which runs it, once, as parked) or deny it. The CLI
// (`forgetools approvals`) and the web console both decide through these;
// no other path runs a parked call.

// Approval states, as Approval.State reports them.
const (
	ApprovalPending = store.ApprovalPending // waiting for a decision
	ApprovalRunning = store.ApprovalRunning // approved; the call is running, or its gateway died running it
	ApprovalDone    = store.ApprovalDone    // approved and ran: Result or Error is its outcome
	ApprovalDenied  = store.ApprovalDenied  // denied: the call never ran
	ApprovalExpired = store.ApprovalExpired // no decision before Expires: the call never ran
)

var (
	// ErrApprovalNotFound: no approval has that id.
	ErrApprovalNotFound = errors.New("no approval has that id")
	// ErrApprovalDecided: the approval was already approved or denied;
	// nothing ran again.
	ErrApprovalDecided = store.ErrApprovalDecided
	// ErrApprovalExpired: the approval expired undecided; nothing ran.
	ErrApprovalExpired = store.ErrApprovalExpired
)

// Approval is one parked call as an operator sees it.
type Approval struct {
	ID      string
	Account string
	Session string
	// Tool is the tool as the model named it; Forge the forge it goes to
	// (as the gateway describes forges); Repo the repository it names.
	Tool  string
	Forge string
	Repo  string
	// Request is the arm's request exactly as it will run: validated, its
	// texts stamped with the attribution header.
	Request proto.Message
	// Risk is the call's risk after escalation; Escalations what in its
	// text raised it.
	Risk        string
	Escalations []string
	// Holds are the rules that parked it, each with why.
	Holds []ApprovalHold
	// Preview is the request's arguments as text, computed at park time.
	Preview string
	State   string
	Created time.Time
	Expires time.Time
	// The decision, once made.
	Operator string
	Reason   string
	Decided  time.Time
	// The outcome of an approved call (State ApprovalDone): its result
	// arm's message, or the in-band error it failed with.
	Result   proto.Message
	Error    *gatewayv1.ForgeCallError
	Finished time.Time
}

// ApprovalHold is one rule that parked a call.
type ApprovalHold struct {
	// Rule names it, e.g. "push: operator"; Reason says why.
	Rule   string
	Reason string
}

// ApprovalFilter selects approvals; the zero value lists the newest 100 of
// every account in any state.
type ApprovalFilter struct {
	// State is one of the Approval states, or "" for any.
	State string
	// Account limits the list to one account; "" is every account.
	Account string
	// Limit bounds the list; <= 0 means 100.
	Limit int
}

// Approvals lists approvals, newest first.
func (s *Service) Approvals(ctx context.Context, f ApprovalFilter) ([]Approval, error) {
	rows, err := s.store.ListApprovals(ctx, store.ApprovalFilter{State: f.State, Account: f.Account, Limit: f.Limit})
	if err != nil {
		return nil, err
	}
	out := make([]Approval, 0, len(rows))
	for _, r := range rows {
		a, err := s.approvalOf(r)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// Approval returns one approval with its detail; ErrApprovalNotFound for
// an unknown id.
func (s *Service) Approval(ctx context.Context, id string) (Approval, error) {
	r, err := s.store.GetApproval(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return Approval{}, fmt.Errorf("approval %q: %w", id, ErrApprovalNotFound)
	}
	if err != nil {
		return Approval{}, err
	}
	return s.approvalOf(r)
}

// Approve approves a pending approval as operator and runs its call, as
// parked, exactly once (of concurrent approvals, on any replica, one
// runs it; the others get ErrApprovalDecided). It returns the approval
// with the call's outcome. The scope is checked again first: a
// repository taken out of the account's scope since is refused.
func (s *Service) Approve(ctx context.Context, id, operator, reason string) (Approval, error) {
	if err := checkOperator(operator); err != nil {
		return Approval{}, err
	}
	r, err := s.store.ClaimApproval(ctx, id, operator, reason)
	if err != nil {
		return s.decideFailed(ctx, id, r, err)
	}
	// Once claimed the call runs to its end even if the operator's
	// command goes away: a half-run call would be neither run nor
	// runnable.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), createGrace)
	defer cancel()
	result, fe := s.runApproved(rctx, r)
	var code int32
	var msg string
	if fe != nil {
		code, msg = int32(fe.GetCode()), fe.GetMessage()
	}
	if err := s.store.FinishApproval(rctx, id, result, code, msg); err != nil {
		s.log.ErrorContext(ctx, "approval outcome not recorded", "approval", id, "cause", s.redact(err.Error()))
	}
	// The event follows the outcome, so a waiter woken by it reads the
	// result on its repeated call.
	if done, err := s.store.GetApproval(rctx, id); err == nil && done.State == store.ApprovalDone {
		s.announce(rctx, done)
	}
	return s.Approval(rctx, id)
}

// Deny denies a pending approval as operator, with reason (which the model
// reads when it calls again).
func (s *Service) Deny(ctx context.Context, id, operator, reason string) (Approval, error) {
	if err := checkOperator(operator); err != nil {
		return Approval{}, err
	}
	r, err := s.store.DenyApproval(ctx, id, operator, reason)
	if err != nil {
		return s.decideFailed(ctx, id, r, err)
	}
	s.announce(ctx, r)
	return s.approvalOf(r)
}

// checkOperator keeps the decision's signature readable in logs and views.
func checkOperator(operator string) error {
	if !validName(operator) {
		return fmt.Errorf("operator %q must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit", operator)
	}
	return nil
}

// decideFailed words a decision that did not take: unknown, already
// decided (by whom) or expired. An expiry found this way is announced
// (once: the event's key is the approval's), so a session still waiting
// learns the call will not run.
func (s *Service) decideFailed(ctx context.Context, id string, r store.Approval, err error) (Approval, error) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return Approval{}, fmt.Errorf("approval %q: %w", id, ErrApprovalNotFound)
	case errors.Is(err, store.ErrApprovalDecided):
		a, _ := s.approvalOf(r)
		return a, fmt.Errorf("approval %s: %w (%s by %s at %s); nothing was run", id, err, r.State, r.Operator, r.Decided.Format(time.RFC3339))
	case errors.Is(err, store.ErrApprovalExpired):
		r.State = store.ApprovalExpired
		s.announce(ctx, r)
		a, _ := s.approvalOf(r)
		return a, fmt.Errorf("approval %s: %w (at %s); nothing was run", id, err, r.Expires.Format(time.RFC3339))
	}
	return Approval{}, err
}

// runApproved runs a claimed approval's stored request through every
// check but the gate, as the account and session that made it. It
// returns the result arm's encoding, or the in-band error.
func (s *Service) runApproved(ctx context.Context, r store.Approval) ([]byte, *gatewayv1.ForgeCallError) {
	start := time.Now()
	t, env, err := s.storedRequest(r)
	if err != nil {
		s.log.ErrorContext(ctx, "approved call unreadable", "approval", r.ID, "cause", err.Error())
		return nil, failure(gatewayv1.ErrorCode_ERROR_CODE_INTERNAL, internalMessage)
	}
	o := &operation{id: s.identityOf(r.Account, r.Session), table: t, envelope: env, approved: r.ID}
	o.arm, o.req, o.env = t.Split(env)
	if o.arm != nil {
		o.tool = o.arm.Tool
	}
	res, fe, cause := s.dispatch(ctx, o, env)
	s.logCall(ctx, o, fe, cause, time.Since(start))
	if fe != nil {
		return nil, fe
	}
	out := res.ProtoReflect()
	fd := out.Descriptor().Fields().ByName(protoreflect.Name(o.arm.Result))
	b, err := proto.Marshal(out.Get(fd).Message().Interface())
	if err != nil {
		return nil, failure(gatewayv1.ErrorCode_ERROR_CODE_INTERNAL, internalMessage)
	}
	return b, nil
}

// storedRequest decodes an approval's request envelope with its table.
func (s *Service) storedRequest(r store.Approval) (*toolserver.Table, proto.Message, error) {
	t := s.byRequest[protoreflect.FullName(r.RequestType)]
	if t == nil {
		return nil, nil, fmt.Errorf("no table of this gateway takes %s", r.RequestType)
	}
	env := t.NewRequest()
	if err := proto.Unmarshal(r.Request, env); err != nil {
		return nil, nil, err
	}
	return t, env, nil
}

// approvalOf is the operator's view of a stored approval.
func (s *Service) approvalOf(r store.Approval) (Approval, error) {
	a := Approval{
		ID: r.ID, Account: r.Account, Session: r.Session, Tool: r.Tool, Forge: r.Forge, Repo: r.Repo,
		Risk: r.Risk, Escalations: r.Escalations, Preview: r.Preview, State: r.State,
		Created: r.Created, Expires: r.Expires, Operator: r.Operator, Reason: r.Reason, Decided: r.Decided,
		Finished: r.Finished,
	}
	for _, h := range r.Holds {
		a.Holds = append(a.Holds, ApprovalHold{Rule: h.Rule, Reason: h.Reason})
	}
	t, env, err := s.storedRequest(r)
	if err != nil {
		return Approval{}, fmt.Errorf("approval %s: %w", r.ID, err)
	}
	arm, req, _ := t.Split(env)
	if arm == nil {
		return Approval{}, fmt.Errorf("approval %s: the stored request names no arm", r.ID)
	}
	a.Request = req
	if r.State == store.ApprovalDone {
		res, err := s.storedResult(t, arm, r)
		var ib inBand
		switch {
		case errors.As(err, &ib):
			a.Error = ib.ForgeCallError
		case err != nil:
			return Approval{}, err
		default:
			a.Result = res
		}
	}
	return a, nil
}

// Inspect runs a read-level call of req's table as the approval's account
// and session, for an operator's view of what the approval will do (the
// file it overwrites, the pull request it merges). It is scoped like any
// call, never parked (a read for the operator must not wait for one), and
// refuses a request that is not a read. It returns the result envelope.
func (s *Service) Inspect(ctx context.Context, a Approval, req proto.Message) (proto.Message, error) {
	t, ok := s.byRequest[req.ProtoReflect().Descriptor().FullName()]
	if !ok {
		return nil, fmt.Errorf("gateway: no table of this gateway takes %s", req.ProtoReflect().Descriptor().FullName())
	}
	o := &operation{id: s.identityOf(a.Account, a.Session), table: t, envelope: req, approved: "inspect:" + a.ID}
	o.arm, o.req, o.env = t.Split(req)
	if o.arm == nil || o.arm.Approval != toolserver.ApprovalRead {
		return nil, fmt.Errorf("gateway: Inspect runs only reads")
	}
	o.tool = o.arm.Tool
	start := time.Now()
	res, fe, cause := s.dispatch(ctx, o, req)
	s.logCall(ctx, o, fe, cause, time.Since(start))
	return res, nil
}

// identityOf is who a parked call was made by, as the configuration
// names them now (an account since removed keeps its bare names, and the
// checks refuse it).
func (s *Service) identityOf(account, session string) Identity {
	if a := s.cfg.accounts[account]; a != nil {
		return a.identity(session)
	}
	return Identity{Account: account, Session: session}
}
