package console

import (
	"context"
	"errors"
	"time"
)

// Queue is what the console needs of the gateway's approval gate. The
// gate's API satisfies it through a thin adapter (see internal/cli), so a
// decision made here runs through the same code as forgetools approvals.
type Queue interface {
	// Pending lists the calls waiting for a decision.
	Pending(ctx context.Context) ([]Approval, error)
	// Decided lists the newest decisions (approved, denied, expired):
	// the audit of what operators let through.
	Decided(ctx context.Context) ([]Approval, error)
	// Show returns one approval with what approving it would do.
	Show(ctx context.Context, id string) (Approval, error)
	// Approve runs the parked call, once, as stored, and says what came of
	// it; operator is who decided.
	Approve(ctx context.Context, id, operator string) (outcome string, err error)
	// Deny refuses the parked call with the operator's reason.
	Deny(ctx context.Context, id, operator, reason string) error
}

// ErrNotFound is what a Queue returns for an id it does not hold.
var ErrNotFound = errors.New("no such approval")

// Approval is one parked call as the console shows it. Every string in
// it may be attacker-written (the agent chose the arguments, the forge
// wrote the reviews) and is escaped where it is shown.
type Approval struct {
	ID, Account, Session, Tool string
	// Forge names the provider and host; Repo the repository.
	Forge, Repo string
	// State is pending, approved, denied or expired.
	State string
	// Rule is why it waits: the policy rule that parked it.
	Rule string
	// Risk and Escalations are the gateway's own reading of the call.
	Risk        string
	Escalations []string
	Created     time.Time
	Expires     time.Time
	// Summary says in one line what the call does.
	Summary string
	// View is what approving it would do, exactly as forgetools approvals
	// show prints it: for a file write the diff against the file at the
	// branch head, for a merge the pull request, its head sha, reviews and
	// checks, for a text the text; and the arguments as they will be sent.
	View string
	// The decision: who, when, why (a denial's reason) and, for an
	// approved call that ran, what came of it.
	Operator string
	Decided  time.Time
	Reason   string
	Outcome  string
}
