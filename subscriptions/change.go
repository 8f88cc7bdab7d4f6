package subscriptions

import (
	"context"

	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

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
// (Kind store.KindIssue or store.KindPullRequest) and wakes whoever waits.
type Recorder interface {
	Record(ctx context.Context, a store.Artifact, changes ...Change) error
}
