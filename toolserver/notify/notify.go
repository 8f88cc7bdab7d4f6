// Package notify is what a change-notification source hands over: the
// artifact a change is about, the change, and the shapes a polled or a
// webhook-sending forge reports in. Providers speak it (the local forge
// after its own writes, GitHub's poll and webhook reader); the
// subscriptions tier (subscriptions/feed, subscriptions/poll,
// subscriptions/webhook) consumes it and owns the interfaces a source
// satisfies. It sits beside the server contract (package toolserver) so that
// a provider needs nothing of the gateway or of subscriptions to emit
// events; the gateway store keeps these types under its own names
// (store.Kind, store.Forge, store.Artifact are aliases).
package notify

import (
	"context"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

// Kind is what sort of artifact something is about.
type Kind string

// The artifact kinds of the forge table.
const (
	KindIssue        Kind = "issue"
	KindPullRequest  Kind = "pull_request"
	KindIssueComment Kind = "issue_comment"
	KindPRComment    Kind = "pr_comment"
	KindReview       Kind = "review"
)

// Forge is a forge coordinate: which provider, on which host.
type Forge struct {
	Provider forgev1.ForgeProvider
	Host     string
}

// Ref is the coordinate as the wire type.
func (f Forge) Ref() *forgev1.ForgeRef {
	return &forgev1.ForgeRef{Provider: f.Provider, Host: f.Host}
}

// ForgeOf copies a wire coordinate.
func ForgeOf(ref *forgev1.ForgeRef) Forge {
	return Forge{Provider: ref.GetProvider(), Host: ref.GetHost()}
}

// Artifact identifies something on a forge.
type Artifact struct {
	Forge Forge
	Repo  string
	Kind  Kind
	// Number is the issue or pull request number (for comments and reviews:
	// the one they were made on).
	Number uint64
	// ID is the forge's comment or review id; empty for issues and pull
	// requests.
	ID string
}

// Change is one change to an issue or pull request, as a source saw it.
type Change struct {
	// Event is what the subscriber will read: type, actor, time and the
	// type's own fields; ArtifactId names the comment or review the change
	// created (for a review comment, its review) as ownership records do.
	// The cursor, subscription, artifact and ownership are filled in when
	// it is read.
	Event *forgev1.Event
	// Key names the change ("comment:123"): a change reported again under
	// the same key (a second poll, a redelivered webhook) is stored once.
	Key string
	// Account is the gateway account that made the change, when the
	// source knows it (the local forge knows the call it served).
	Account string
}

// Recorder stores changes for every subscription to the artifact
// (Kind KindIssue or KindPullRequest) and wakes whoever waits
// (subscriptions/feed implements it).
type Recorder interface {
	Record(ctx context.Context, a Artifact, changes ...Change) error
}
