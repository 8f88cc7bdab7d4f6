// Package approval names what a tool may change (its approval level) and
// how much harm a call can do (its risk tier), once for both sides of a
// table: the agent side's runtime.Tool and the server side's toolserver.Arm
// carry the same facts from the same (tool) options, and the gateway's
// policy and an agent's Approver key on the same names. It imports
// nothing, so either side can use it without linking the other.
package approval

// Level is what a tool may change: nothing (read), the forge's
// conversation or CI state (write), or the repository itself (push).
type Level int

const (
	// Unspecified: no level declared (the generator refuses that for a
	// tool, so only a hand-built table has it).
	Unspecified Level = iota
	// Read: reads forge state, never changes it.
	Read
	// Write: comments, issues, reviews, CI runs.
	Write
	// Push: branches, commits, merges. Distinct from Write so a policy
	// written for comments never covers a push.
	Push
)

// String is the level's policy name: "read", "write" or "push".
func (l Level) String() string {
	switch l {
	case Read:
		return "read"
	case Write:
		return "write"
	case Push:
		return "push"
	}
	return "unspecified"
}

// Risk is a call's risk tier: its tool's (tool).risk, which the call's own
// text can raise (package escalate).
type Risk int

const (
	RiskUnspecified Risk = iota
	RiskLow
	RiskMedium
	RiskHigh
)

// String is the tier's policy name: "low", "medium" or "high".
func (r Risk) String() string {
	switch r {
	case RiskLow:
		return "low"
	case RiskMedium:
		return "medium"
	case RiskHigh:
		return "high"
	}
	return "unspecified"
}
