package gateway

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/escalate"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// Decision is what an account's policy does with a call a rule matches.
type Decision string

const (
	// Allow runs the call.
	Allow Decision = "allow"
	// Operator parks the call until a person approves or denies it.
	Operator Decision = "operator"
	// Deny refuses the call (permission_denied, naming the rule).
	Deny Decision = "deny"
)

// strictness orders decisions: of every rule that matches a call, the
// strictest decides.
func (d Decision) strictness() int {
	switch d {
	case Operator:
		return 1
	case Deny:
		return 2
	}
	return 0
}

// Policy is what an account's calls need before they reach a forge. Every
// rule that matches a call applies and the strictest decides (deny, then
// operator, then allow), so no rule can loosen another: to let pushes run
// unattended, allow both the push level and high risk (every push arm's
// risk is high). The zero Policy is DefaultPolicy.
type Policy struct {
	// Levels maps an approval level ("read", "write" or "push") to its
	// decision. A level not listed takes the default: read allow, write
	// allow, push operator.
	Levels map[string]Decision
	// ActionClasses maps an arm's action class (its (tool).action_class,
	// e.g. "vcs:push", "comms:external", "ci:trigger") to a decision. None
	// by default.
	ActionClasses map[string]Decision
	// Risks maps a call's risk ("low", "medium" or "high") to a decision.
	// The risk is the arm's, raised to high when the call's text names a
	// force push or a history rewrite (package escalate). Nil means the
	// default, {"high": operator}; an empty map sets no risk rule.
	Risks map[string]Decision
	// UnreviewedMerge decides a merge into the repository's default branch
	// whose pull request carries no approving review by an identity other
	// than the merging account (asked of the provider, see
	// toolserver.MergeReviewer). Empty means operator. It applies whatever
	// the push rule says: an agent cannot merge its own unreviewed code.
	UnreviewedMerge Decision
}

// Unattended is a policy that allows everything: no call waits for an
// operator. For tests about something else, and for deployments that
// decide elsewhere.
func Unattended() Policy {
	return Policy{
		Levels:          map[string]Decision{"read": Allow, "write": Allow, "push": Allow},
		Risks:           map[string]Decision{},
		UnreviewedMerge: Allow,
	}
}

// policy is a checked Policy, indexed for the lookup every call makes.
type policy struct {
	levels  [toolserver.ApprovalPush + 1]Decision
	risks   [toolserver.RiskHigh + 1]Decision
	classes map[string]Decision
	merge   Decision
}

func parsePolicy(p Policy) (policy, error) {
	out := policy{classes: map[string]Decision{}, merge: Operator}
	out.levels[toolserver.ApprovalRead], out.levels[toolserver.ApprovalWrite], out.levels[toolserver.ApprovalPush] = Allow, Allow, Operator
	out.risks[toolserver.RiskHigh] = Operator
	if p.Risks != nil {
		out.risks[toolserver.RiskHigh] = ""
	}
	for _, k := range sortedKeys(p.Levels) {
		a, ok := approvalByName[k]
		if !ok {
			return policy{}, fmt.Errorf("policy: unknown approval level %q (read, write or push)", k)
		}
		if err := checkDecision("level "+k, p.Levels[k]); err != nil {
			return policy{}, err
		}
		out.levels[a] = p.Levels[k]
	}
	for _, k := range sortedKeys(p.Risks) {
		r, ok := riskByName[k]
		if !ok {
			return policy{}, fmt.Errorf("policy: unknown risk %q (low, medium or high)", k)
		}
		if err := checkDecision("risk "+k, p.Risks[k]); err != nil {
			return policy{}, err
		}
		out.risks[r] = p.Risks[k]
	}
	for _, k := range sortedKeys(p.ActionClasses) {
		if k == "" || strings.ContainsAny(k, " \t\n") {
			return policy{}, fmt.Errorf("policy: action class %q must be a non-empty word such as \"vcs:push\"", k)
		}
		if err := checkDecision("action class "+k, p.ActionClasses[k]); err != nil {
			return policy{}, err
		}
		out.classes[k] = p.ActionClasses[k]
	}
	if p.UnreviewedMerge != "" {
		if err := checkDecision("unreviewed_merge", p.UnreviewedMerge); err != nil {
			return policy{}, err
		}
		out.merge = p.UnreviewedMerge
	}
	return out, nil
}

func checkDecision(what string, d Decision) error {
	switch d {
	case Allow, Operator, Deny:
		return nil
	}
	return fmt.Errorf("policy: %s: %q is not allow, operator or deny", what, d)
}

var (
	approvalByName = map[string]toolserver.Approval{"read": toolserver.ApprovalRead, "write": toolserver.ApprovalWrite, "push": toolserver.ApprovalPush}
	riskByName     = map[string]toolserver.Risk{"low": toolserver.RiskLow, "medium": toolserver.RiskMedium, "high": toolserver.RiskHigh}
)

func sortedKeys(m map[string]Decision) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// holds collects every reason o waits for an operator: the account's
// policy here (a deny refuses the call), and any further rule a session
// keeps. Empty lets the call run.
func (s *Service) holds(ctx context.Context, o *operation, p Provider) ([]hold, error) {
	holds, err := s.policyHolds(ctx, o, p)
	if err != nil {
		return nil, err
	}
	flow, err := s.flowHolds(ctx, o)
	if err != nil {
		return nil, err
	}
	return append(holds, flow...), nil
}

// policyHolds applies the account's policy to o: every rule that matches
// (level, action class, risk, the unreviewed merge), the strictest
// deciding. It fills in o.risk and o.escalations.
func (s *Service) policyHolds(ctx context.Context, o *operation, p Provider) ([]hold, error) {
	pol := &o.acct.policy
	o.risk = o.arm.Risk
	if o.arm.Approval != toolserver.ApprovalRead {
		// A read changes nothing, whatever its text says; a write's text
		// can make it worse.
		if o.escalations = escalate.Find(o.req, nil); len(o.escalations) > 0 {
			o.risk = toolserver.RiskHigh
		}
	}
	var r rules
	level := o.arm.Approval
	if level < toolserver.ApprovalRead || level > toolserver.ApprovalPush {
		// A hand-built table's arm with no level is treated as a push.
		level = toolserver.ApprovalPush
	}
	r.add(pol.levels[level], level.String()+": "+string(pol.levels[level]), levelReasons[level])
	if d, ok := pol.classes[o.arm.ActionClass]; ok && o.arm.ActionClass != "" {
		r.add(d, "action class "+o.arm.ActionClass+": "+string(d), "calls of action class "+o.arm.ActionClass+" need it")
	}
	if o.risk >= toolserver.RiskLow && o.risk <= toolserver.RiskHigh {
		if d := pol.risks[o.risk]; d != "" {
			why := "its risk is " + o.risk.String()
			if len(o.escalations) > 0 {
				why += ", raised by its text: " + strings.Join(o.escalations, "; ")
			}
			r.add(d, "risk "+o.risk.String()+": "+string(d), why)
		}
	}
	// The merge rule reads the forge (the pull request, its reviews, who
	// the credentials are). When another rule already holds the call for
	// an operator and the merge rule could only add a second such hold,
	// it is not asked: a parked call sends nothing to the forge at all.
	if level == toolserver.ApprovalPush && pol.merge != Allow && (pol.merge == Deny || len(r.holds) == 0) {
		if err := s.mergeRule(ctx, o, p, &r); err != nil {
			return nil, err
		}
	}
	if r.deny != "" {
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED,
			"the policy of account %q denies this call (rule %q): %s", o.acct.Name, r.deny, r.denyWhy)
	}
	return r.holds, nil
}

// levelReasons say why a level's operator rule holds a call.
var levelReasons = [toolserver.ApprovalPush + 1]string{
	toolserver.ApprovalRead:  "reads wait for an operator on this account",
	toolserver.ApprovalWrite: "writes (comments, issues, reviews, CI runs) wait for an operator on this account",
	toolserver.ApprovalPush:  "pushes (branches, commits, merges) change the repository itself and wait for an operator",
}

// rules gathers the matching rules' decisions.
type rules struct {
	holds         []hold
	deny, denyWhy string
}

func (r *rules) add(d Decision, rule, reason string) {
	switch d {
	case Deny:
		if r.deny == "" {
			r.deny, r.denyWhy = rule, reason
		}
	case Operator:
		r.holds = append(r.holds, hold{rule: rule, reason: reason})
	}
}

// mergeRule holds (or denies) a merge into the default branch that no one
// but the caller approved, as the provider reports it. A provider that
// cannot say is not asked; the push rule still applies to it.
func (s *Service) mergeRule(ctx context.Context, o *operation, p Provider, r *rules) error {
	mr, ok := p.(toolserver.MergeReviewer)
	if !ok {
		return nil
	}
	f, err := mr.MergeFacts(ctx, o.call(), o.req)
	if err != nil {
		return explain(o, p, err)
	}
	if !f.Merges || !f.IntoDefault || len(f.ApprovedBy) > 0 {
		return nil
	}
	d := o.acct.policy.merge
	r.add(d, "unreviewed_merge: "+string(d), fmt.Sprintf(
		"it merges pull request #%d into the default branch %s, and no one other than this account approved it", f.Number, f.Base))
	return nil
}

// PolicyFor applies id's account policy to req alone and returns the
// holds it would park the call with (nil: it would run), or the
// permission_denied a deny rule answers. It neither validates nor scopes
// req and runs no provider but a MergeReviewer's reads, so it is a dry
// run for an operator's view and for measuring the policy's cost, never
// an authorization answer: Call is.
func (s *Service) PolicyFor(ctx context.Context, id Identity, req proto.Message) ([]ApprovalHold, error) {
	t, ok := s.byRequest[req.ProtoReflect().Descriptor().FullName()]
	if !ok {
		return nil, fmt.Errorf("gateway: no table of this gateway takes %s", req.ProtoReflect().Descriptor().FullName())
	}
	o := &operation{id: id, table: t, envelope: req, acct: s.cfg.accounts[id.Account]}
	if o.arm, o.req, o.env = t.Split(req); o.arm == nil || o.acct == nil {
		return nil, fmt.Errorf("gateway: the request names no arm, or %q no account", id.Account)
	}
	p, fe := s.cfg.registry.resolve(selectorOf(o.env))
	if fe != nil {
		return nil, inBand{fe}
	}
	hs, err := s.policyHolds(ctx, o, p)
	var out []ApprovalHold
	for _, h := range hs {
		out = append(out, ApprovalHold{Rule: h.rule, Reason: h.reason})
	}
	return out, err
}
