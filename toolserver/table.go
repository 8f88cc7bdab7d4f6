package toolserver

import (
	"context"

	"github.com/forgetools/forgetools/approval"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"google.golang.org/protobuf/proto"
)

// Table is the server side of one annotated dispatch oneof.
type Table struct {
	// Name is the toolset name, e.g. "forge".
	Name string
	// Procedure is the Connect procedure that takes the dispatch request,
	// e.g. "/forgetools.gateway.v1.AgentGateway/Forge".
	Procedure string
	// NewRequest and NewResult return empty envelopes, for servers that
	// decode and encode the wire themselves.
	NewRequest func() proto.Message
	NewResult  func() proto.Message
	Arms       []*Arm
	// Split finds the arm of a request envelope: the arm, its request
	// message and the envelope fields. The arm is nil when the request
	// names none (or one this table does not know).
	Split func(req proto.Message) (*Arm, proto.Message, Envelope)
	// Error puts an in-band error into a result envelope: into the table's
	// error arm, converted to its message when that is not a CallError.
	Error func(callID string, e *optionsv1.CallError) proto.Message
}

// Envelope is what a request carries besides its arm, found by the
// (envelope).role options of the dispatch message's fields.
type Envelope struct {
	// CallID is the ENVELOPE_ROLE_CALL_ID field.
	CallID string
	// Selector is the ENVELOPE_ROLE_FORGE_SELECTOR field as the table
	// declares it (a *forgev1.ForgeRef for the forge table); nil when the
	// call names none or the table has none. The gateway reads the type it
	// routes by.
	Selector proto.Message
	// ClientRequestID is the ENVELOPE_ROLE_IDEMPOTENCY_KEY field; "" when
	// none was sent.
	ClientRequestID string
}

// Scope is what the gateway scopes an arm by, from the (param).scope
// option of one field of its request.
type Scope int

const (
	// ScopeNone: the arm declares no scope field; the gateway refuses it.
	ScopeNone Scope = iota
	// ScopeRepository: the field is the repository the call acts on.
	ScopeRepository
	// ScopeSubscription: the field is the id of a stored subscription,
	// whose forge and repository scope the call.
	ScopeSubscription
	// ScopeOwnState: the call acts on the caller's own gateway state (its
	// subscriptions and their events), not on a forge. The gateway sends
	// it to its state provider; see Call.InScope.
	ScopeOwnState
	// ScopeAccountRepositories: as ScopeWhenEmpty, a read whose repository
	// field is empty acts on every repository in the account's scope on
	// the forge the selector names (a search). The gateway hands the
	// provider those repositories (Call.Repos) and, on every call of such
	// an arm, drops from the result each item whose repository field
	// ((artifact) = REPO) its scope does not cover.
	ScopeAccountRepositories
)

// Attribution is what the gateway does with the owner header in a text
// field, from its (param).attribution option.
type Attribution int

const (
	// Stamp replaces any header the agent wrote with the caller's own.
	Stamp Attribution = iota + 1
	// Strip removes a header the agent wrote and stamps none.
	Strip
)

// Text is one agent-authored text field of a request that the gateway
// stamps or strips.
type Text struct {
	// Path names the field for messages, by proto field names
	// ("comments[2].body").
	Path        string
	Value       *string
	Attribution Attribution
}

// Arm is one arm of the table: its names, the policy the proto declares
// for it, and the typed functions the generator wrote.
type Arm struct {
	// Name is the oneof field name, e.g. "create_issue".
	Name string
	// Tool is the model-facing tool name, e.g. "forge_create_issue".
	Tool string
	// Capability groups the arm's handler method, e.g. "issues".
	Capability string
	// Result names the result oneof arm the arm answers with, e.g. "issue".
	Result string
	// IdempotencyKey: the envelope's idempotency key applies to this arm.
	IdempotencyKey bool
	// OwnsResult: the call creates the artifact its result describes.
	OwnsResult bool
	// Approval, ActionClass and Risk are the arm's (tool) options, what the
	// gateway's approval policy decides on (with the call's escalations,
	// which raise Risk to RiskHigh).
	Approval    Approval
	ActionClass string
	Risk        Risk
	// Scope says what ScopeKey returns.
	Scope Scope
	// ScopeKey returns the value of the request's scope field; nil when
	// the arm has none.
	ScopeKey func(req proto.Message) string
	// ScopeWhenEmpty scopes a call whose scope field is empty
	// (ScopeOwnState or ScopeAccountRepositories); ScopeNone leaves Scope
	// in charge.
	ScopeWhenEmpty Scope
	// Texts returns the request's stamped and stripped text fields, for
	// the gateway to rewrite in place (on its own copy of the request).
	Texts func(req proto.Message) []Text
	// Serve calls the arm's method on h, a provider; a provider without
	// the arm's capability gets an *UnimplementedError.
	Serve func(ctx context.Context, h any, c Call, req proto.Message) (proto.Message, error)
	// Wrap puts the arm's result message into a result envelope.
	Wrap func(callID string, res proto.Message) proto.Message

	// Paths returns the request's repository paths (fields marked
	// (param).repo_path), for the gateway to hold to git's path rules
	// before any provider runs; nil when the arm has none.
	Paths func(req proto.Message) []RepoPath

	// Refs returns the request's git refs (fields marked (param).git_ref),
	// for the gateway to hold to git's ref-name rules before any provider
	// runs; nil when the arm has none.
	Refs func(req proto.Message) []GitRef
}

// CheckedField is one string field of a request that the gateway holds
// to a rule of its own before any provider runs.
type CheckedField struct {
	// Path names the field by proto field names ("comments[2].path").
	Path  string
	Value *string
}

// RepoPath is one repository path of a request.
type RepoPath = CheckedField

// GitRef is one git ref (branch, tag or commit name) of a request.
type GitRef = CheckedField

// Approval is what an arm may change, from its (tool).approval option: the
// level the gateway's approval policy keys on first. It is the agent
// side's level too (package approval).
type Approval = approval.Level

const (
	// ApprovalUnspecified: the arm declares no level (the generator
	// refuses that for a tool, so only a hand-built table has it).
	ApprovalUnspecified = approval.Unspecified
	// ApprovalRead: reads forge state, never changes it.
	ApprovalRead = approval.Read
	// ApprovalWrite: changes conversation or CI state (comments, issues,
	// reviews, CI runs).
	ApprovalWrite = approval.Write
	// ApprovalPush: changes the repository itself (branches, commits,
	// merges).
	ApprovalPush = approval.Push
)

// Risk is an arm's risk tier, from its (tool).risk option; a call's own
// text can raise it (package escalate).
type Risk = approval.Risk

const (
	RiskUnspecified = approval.RiskUnspecified
	RiskLow         = approval.RiskLow
	RiskMedium      = approval.RiskMedium
	RiskHigh        = approval.RiskHigh
)
