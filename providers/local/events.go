package local

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/toolserver"
	"github.com/forgetools/forgetools/toolserver/notify"
)

// recordGrace bounds recording a change after its write committed; it runs
// even when the caller has gone, so subscribers hear of every write.
const recordGrace = 10 * time.Second

// emit hands the changes a committed write made to the recorder, so the
// forge's own writes reach subscribers with no polling. The write stands
// whatever happens here: a failure is logged, not returned (failing the
// call would invite a retry that writes twice).
//
// The artifact is named by its repository's spelling as created, the one
// every result shows, whatever spelling the call used.
func (f *Forge) emit(ctx context.Context, it *item, changes ...notify.Change) {
	if f.recorder == nil || len(changes) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordGrace)
	defer cancel()
	a := notify.Artifact{Forge: notify.ForgeOf(f.Ref()), Repo: it.repo, Kind: notify.KindIssue, Number: uint64(it.number)}
	if it.kind == kindPull {
		a.Kind = notify.KindPullRequest
	}
	if err := f.recorder.Record(ctx, a, changes...); err != nil {
		f.log.ErrorContext(ctx, "local forge: change not recorded for subscribers", "repo", it.repo, "number", it.number, "cause", err.Error())
	}
}

// event is an event of type t by actor, happening now.
func (f *Forge) event(t forgev1.EventType, actor string) *forgev1.Event {
	return &forgev1.Event{Type: t, Actor: actor, OccurredAt: f.now().UTC().Format(time.RFC3339)}
}

// stateChange is the event of an artifact's state becoming state (closed,
// merged, or open, which subscribers read as reopened), made by actor for
// account ("" when no gateway account made it).
func (f *Forge) stateChange(actor, account, state string) notify.Change {
	ev := f.event(forgev1.EventType_EVENT_TYPE_STATE, actor)
	ev.State = state
	if state == "open" {
		ev.State = "reopened"
	}
	// A state can come back (closed, reopened, closed), and each is news.
	return notify.Change{Event: ev, Key: "state:" + uuid.NewString(), Account: account}
}

// labelsChange is the event of c's replacing an artifact's labels before
// with after, which match case-insensitively as the forge stores them;
// false when no label came or went.
func (f *Forge) labelsChange(c toolserver.Call, before, after []string) (notify.Change, bool) {
	ev := f.event(forgev1.EventType_EVENT_TYPE_LABELS, author(c))
	ev.LabelsAdded, ev.LabelsRemoved = missingFrom(after, before), missingFrom(before, after)
	if len(ev.LabelsAdded)+len(ev.LabelsRemoved) == 0 {
		return notify.Change{}, false
	}
	return notify.Change{Event: ev, Key: "labels:" + uuid.NewString(), Account: c.Account}, true
}

// missingFrom are the names of names that other lacks, ignoring case.
func missingFrom(names, other []string) []string {
	var out []string
	for _, n := range names {
		if !slices.ContainsFunc(other, func(o string) bool { return strings.EqualFold(o, n) }) {
			out = append(out, n)
		}
	}
	return out
}
