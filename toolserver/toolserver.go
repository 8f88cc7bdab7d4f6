// Package toolserver is the server side's small hand-written core, as
// runtime is the agent side's. protoc-gen-forgetools writes, for each
// table, a <pkg>handler package built on it: a handler interface per
// capability, an embeddable unimplemented handler, and a Table whose arms
// carry the gateway policy the proto declares (scope, attribution,
// idempotency, ownership) and the typed dispatch to a provider's method.
//
// Providers implement the generated handler methods of the arms they
// serve, take a Call and return canonical forge messages or an *Error.
// The gateway reads the Table and never names an arm.
package toolserver

import "google.golang.org/protobuf/proto"

// SupportPackageIsVersion1 is referenced by generated code: a build fails
// when the generated package and this one disagree on the contract.
const SupportPackageIsVersion1 = true

// Call is who a provider call is made for.
type Call struct {
	// Account is the gateway account the connection is bound to.
	Account string
	// Session is the agent session the call arrived on.
	Session string
	// ClientRequestID is the create's dedup key ("" on other arms). A forge
	// with native idempotency derives its own key from (Account, this).
	ClientRequestID string
	// Resumed marks a create an earlier attempt with the same key may have
	// made already: that attempt's gateway died while it held the key,
	// perhaps with the forge call in flight. A provider whose forge has no
	// idempotency key looks for that attempt's artifact before creating,
	// and returns it if found.
	Resumed bool
	// AgentHandle and OwnerHandle are the account's identity as the
	// attribution header spells it: the agent that writes, on whose behalf.
	// A forge that records an author of its own (a commit) uses them.
	AgentHandle string
	OwnerHandle string
	// PushToDefaultBranch is the operator's leave for this account to
	// commit straight to a repository's default branch; without it a push
	// arm that would write there is refused, and the agent works on a
	// branch and opens a pull request.
	PushToDefaultBranch bool
	// InScope reports whether the account's scope covers a repository on
	// the backend a selector names (for the forge table, a
	// *forgev1.ForgeRef). It is set on calls scoped by the caller's own
	// state (ScopeOwnState), which gather what the account holds across
	// repositories and must leave out what its scope no longer covers; nil
	// on other calls, which the gateway has scoped already.
	InScope func(selector proto.Message, repo string) bool
	// Repos are the repositories a call of a ScopeAccountRepositories arm
	// that names none acts on: the account's scope on the forge, sorted,
	// as its entries spell them. Empty on every other call. A provider
	// restricts the forge's search to them (the gateway also drops any
	// result outside them).
	Repos []string
}

// A provider serves the arms whose generated handler interfaces it
// implements (usually by embedding the table's Unimplemented handler and
// overriding what its backend can do). How the gateway knows which backend
// it is (the forge gateway: a Ref method returning its forge coordinate)
// is the gateway's business, not the contract's.

// Explainer is implemented by providers that say in their forge's own terms
// why a capability is missing ("Linear has no pull requests"); the gateway
// returns that as the in-band unimplemented message. "" means no
// explanation, and the gateway words one itself.
type Explainer interface {
	// Unsupported is given the capability as the proto names it
	// ("pull_requests").
	Unsupported(capability string) string
}
