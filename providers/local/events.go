package local

import (
	"context"
	"time"

	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/subscriptions"
)

// recordGrace bounds recording a change after its write committed; it runs
// even when the caller has gone, so subscribers hear of every write.
const recordGrace = 10 * time.Second

// emit hands the changes a committed write made to the recorder, so the
// forge's own writes reach subscribers with no polling. The write stands
// whatever happens here: a failure is logged, not returned (failing the
// call would invite a retry that writes twice).
func (f *Forge) emit(ctx context.Context, repo, kind string, number int64, changes ...subscriptions.Change) {
	if f.recorder == nil || len(changes) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordGrace)
	defer cancel()
	a := store.Artifact{Forge: store.ForgeOf(f.Ref()), Repo: repo, Kind: store.KindIssue, Number: uint64(number)}
	if kind == kindPull {
		a.Kind = store.KindPullRequest
	}
	if err := f.recorder.Record(ctx, a, changes...); err != nil {
		f.log.ErrorContext(ctx, "local forge: change not recorded for subscribers", "repo", repo, "number", number, "cause", err.Error())
	}
}

// event is an event of type t by actor, happening now.
func (f *Forge) event(t forgev1.EventType, actor string) *forgev1.Event {
	return &forgev1.Event{Type: t, Actor: actor, OccurredAt: f.now().UTC().Format(time.RFC3339)}
}
