// Package feed records changes to subscribed issues and pull requests as
// events in the gateway store, and wakes whoever waits for them: the
// WaitEvents RPC of agent runtimes, MCP resource subscriptions.
//
// Sources call Record: the local forge after its own writes, the poll
// driver after a poll, the webhook receiver after a signed delivery. A
// waiter also looks at the store every Options.Check, so events another
// process recorded (another gateway replica on the same PostgreSQL, a
// `forgetools call` on the same SQLite file) reach it too. Run prunes
// events older than the retention period.
package feed

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/enumname"
	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/toolserver/notify"
)

// Defaults for the zero Options.
const (
	DefaultRetention = 7 * 24 * time.Hour
	DefaultCheck     = 2 * time.Second
	DefaultPrune     = time.Hour
)

// Options tune a Feed; the zero value is the production configuration.
type Options struct {
	// Retention is how long events are kept; zero = DefaultRetention.
	Retention time.Duration
	// Check is how often a waiter looks at the store for events recorded
	// elsewhere; zero = DefaultCheck.
	Check time.Duration
	// Prune is how often Run prunes; zero = DefaultPrune.
	Prune time.Duration
	// Now is the clock for pruning; nil = time.Now.
	Now    func() time.Time
	Logger *slog.Logger
}

// Feed is the event feed of one gateway. It is safe for concurrent use.
type Feed struct {
	store *store.Store
	opts  Options
	log   *slog.Logger

	mu sync.Mutex
	// wake is closed (and replaced) whenever events are recorded here, to
	// wake every waiter at once.
	wake chan struct{}
	done chan struct{}
	stop sync.Once
}

var _ notify.Recorder = (*Feed)(nil)

// New returns the feed of the gateway store st.
func New(st *store.Store, opts Options) *Feed {
	if opts.Retention <= 0 {
		opts.Retention = DefaultRetention
	}
	if opts.Check <= 0 {
		opts.Check = DefaultCheck
	}
	if opts.Prune <= 0 {
		opts.Prune = DefaultPrune
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Feed{store: st, opts: opts, log: log, wake: make(chan struct{}), done: make(chan struct{})}
}

// Record stores changes to the artifact a for every subscription that
// watches it, in order, and wakes the waiters.
func (f *Feed) Record(ctx context.Context, a store.Artifact, changes ...notify.Change) error {
	rows := make([]store.Change, 0, len(changes))
	for _, c := range changes {
		if c.Event == nil || c.Key == "" {
			return fmt.Errorf("feed: a change to %s#%d has no event or no key", a.Repo, a.Number)
		}
		ev := c.Event
		if r := f.store.Redactor(); !r.Empty() {
			// A forge's text goes into the payload: redacted before it is
			// stored, on a copy (the caller's event is its own).
			ev = proto.Clone(c.Event).(*forgev1.Event)
			r.Proto(ev.ProtoReflect())
		}
		payload, err := proto.Marshal(ev)
		if err != nil {
			return fmt.Errorf("feed: %w", err)
		}
		rows = append(rows, store.Change{
			Type:         enumname.Of(c.Event.GetType()),
			ArtifactKind: artifactKind(a.Kind, c.Event.GetType()),
			ArtifactID:   c.Event.GetArtifactId(),
			ActorAccount: c.Account,
			DedupKey:     c.Key,
			Payload:      payload,
		})
	}
	recorded, err := f.store.RecordChanges(ctx, a, rows)
	if err != nil {
		return err
	}
	if len(recorded) > 0 {
		f.log.DebugContext(ctx, "events recorded", "repo", a.Repo, "number", a.Number, "events", len(recorded))
		f.broadcast()
	}
	return nil
}

// artifactKind is how an ownership record names what a change created: a
// comment by where it was made, a review (and a review's inline comment)
// as the review.
func artifactKind(on store.Kind, t forgev1.EventType) store.Kind {
	switch t {
	case forgev1.EventType_EVENT_TYPE_COMMENT:
		if on == store.KindPullRequest {
			return store.KindPRComment
		}
		return store.KindIssueComment
	case forgev1.EventType_EVENT_TYPE_REVIEW, forgev1.EventType_EVENT_TYPE_REVIEW_COMMENT:
		return store.KindReview
	}
	return ""
}

// Wake wakes every waiter to look at the store now: for events recorded
// in this process without Record (the gateway's decisions on parked
// calls, gateway.Config.Wake).
func (f *Feed) Wake() { f.broadcast() }

func (f *Feed) broadcast() {
	f.mu.Lock()
	defer f.mu.Unlock()
	close(f.wake)
	f.wake = make(chan struct{})
}

// woken is the channel the next Record closes.
func (f *Feed) woken() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.wake
}

// Close ends every wait at once (a gateway shutting down does not hold its
// long polls open) and makes later waits return immediately.
func (f *Feed) Close() { f.stop.Do(func() { close(f.done) }) }

// Run prunes events older than the retention period now and every
// Options.Prune until ctx ends.
func (f *Feed) Run(ctx context.Context) {
	t := time.NewTicker(f.opts.Prune)
	defer t.Stop()
	for {
		f.Prune(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Prune deletes the events older than the retention period.
func (f *Feed) Prune(ctx context.Context) {
	n, err := f.store.PruneEvents(ctx, f.opts.Now().Add(-f.opts.Retention))
	switch {
	case err != nil && ctx.Err() == nil:
		f.log.ErrorContext(ctx, "pruning events failed", "cause", err.Error())
	case n > 0:
		f.log.InfoContext(ctx, "pruned events", "events", n, "retention", f.opts.Retention.String())
	}
}
