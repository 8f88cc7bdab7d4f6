// Package poll is the poll driver: it watches the subscribed issues and
// pull requests of forges that tell nobody about changes, asking each
// forge's Source what changed since the last poll and recording it for
// the subscribers.
//
// Every watched artifact is polled once per Interval, at a phase of its
// own within the interval (a hash of the artifact), so the polls spread
// out instead of bursting. A poll is leased to one replica at a time: on
// a shared PostgreSQL, replicas take turns and never poll an artifact
// twice in an interval. A rate limit stops every replica's polls of that
// forge until it lifts. An artifact nothing subscribes to any more is not
// polled again; one in a repository whose webhooks reach the gateway is
// left to them.
package poll

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"time"

	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/toolserver"
	"github.com/forgetools/forgetools/toolserver/notify"
)

// Source is a forge the driver can poll.
type Source interface {
	// Ref is the forge it polls.
	Ref() *forgev1.ForgeRef
	// Poll reports what changed on the artifact since the poll that left
	// prev, and what to keep for the next poll. prev is nil on the first
	// poll: what the artifact is then is the baseline, and only comments
	// and reviews made since t.Since are news. A rate limit is a
	// *toolserver.Error with code resource_exhausted and its RetryAfterMs.
	Poll(ctx context.Context, t Target, prev []byte) (Result, error)
}

// Target is the artifact to poll, and Result what a poll found: spelled
// in handler/notify, so a provider satisfies Source without importing
// this package.
type (
	Target = notify.PollTarget
	Result = notify.PollResult
)

// Defaults for the zero Options.
const (
	DefaultInterval = time.Minute
	DefaultLease    = 2 * time.Minute
	DefaultCovered  = 24 * time.Hour
	DefaultBatch    = 50
)

// Options tune a Driver; the zero value is the production configuration.
type Options struct {
	// Interval is how often each artifact is polled; zero = DefaultInterval.
	Interval time.Duration
	// Tick is how often the driver looks for due polls; zero = a twentieth
	// of the interval, between one second and fifteen.
	Tick time.Duration
	// Lease is how long a replica holds a watch it polls; zero =
	// DefaultLease.
	Lease time.Duration
	// Covered is how long after a signed webhook delivery from a
	// repository its artifacts are left to webhooks; zero = DefaultCovered.
	Covered time.Duration
	// Batch is how many due watches of one forge a tick takes at most;
	// zero = DefaultBatch.
	Batch int
	// Replica names this driver in leases; empty = a random name.
	Replica string
	// Now is the clock of phases and backoffs; nil = time.Now. Give the
	// store the same one.
	Now    func() time.Time
	Logger *slog.Logger
}

// Driver polls the watched artifacts of its sources.
type Driver struct {
	store    *store.Store
	recorder notify.Recorder
	sources  []Source
	opts     Options
	log      *slog.Logger
}

// New returns a driver polling sources, keeping its watches in st and
// recording changes with rec.
func New(st *store.Store, rec notify.Recorder, sources []Source, opts Options) *Driver {
	if opts.Interval <= 0 {
		opts.Interval = DefaultInterval
	}
	if opts.Tick <= 0 {
		opts.Tick = min(max(opts.Interval/20, time.Second), 15*time.Second)
	}
	if opts.Lease <= 0 {
		opts.Lease = DefaultLease
	}
	if opts.Covered <= 0 {
		opts.Covered = DefaultCovered
	}
	if opts.Batch <= 0 {
		opts.Batch = DefaultBatch
	}
	if opts.Replica == "" {
		var b [6]byte
		_, _ = rand.Read(b[:])
		opts.Replica = "replica-" + hex.EncodeToString(b[:])
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Driver{store: st, recorder: rec, sources: sources, opts: opts, log: log}
}

// Run polls every Options.Tick until ctx ends.
func (d *Driver) Run(ctx context.Context) {
	if len(d.sources) == 0 {
		return
	}
	t := time.NewTicker(d.opts.Tick)
	defer t.Stop()
	for {
		if _, err := d.Tick(ctx); err != nil && ctx.Err() == nil {
			d.log.ErrorContext(ctx, "poll round failed", "cause", err.Error())
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Stats is what one Tick did.
type Stats struct {
	// Polled counts the artifacts polled.
	Polled int
	// Changes counts the changes the polls found.
	Changes int
	// Limited counts the forges that rate-limited a poll.
	Limited int
}

// Tick polls every watch that is due now, forge by forge: it starts
// watching newly subscribed artifacts, claims the due ones and polls them
// one after another (GitHub asks integrations not to fire requests in
// parallel).
func (d *Driver) Tick(ctx context.Context) (Stats, error) {
	var st Stats
	var errs []error
	for _, src := range d.sources {
		if err := d.tickSource(ctx, src, &st); err != nil {
			errs = append(errs, err)
		}
	}
	return st, errors.Join(errs...)
}

func (d *Driver) tickSource(ctx context.Context, src Source, st *Stats) error {
	forge := store.ForgeOf(src.Ref())
	if err := d.store.SyncWatches(ctx, forge, d.phase); err != nil {
		return err
	}
	if until, err := d.store.PollBackoff(ctx, forge); err != nil || !until.IsZero() {
		return err
	}
	watches, err := d.store.ClaimWatches(ctx, store.Claim{
		Forge: forge, Owner: d.opts.Replica + "/" + claimID(), Interval: d.opts.Interval,
		Lease: d.opts.Lease, Covered: d.opts.Covered, Limit: d.opts.Batch,
	})
	if err != nil {
		return err
	}
	var limitedUntil time.Time
	for _, w := range watches {
		if !limitedUntil.IsZero() {
			// The forge said stop: hand the rest back, due when it lifts.
			d.finish(ctx, w, w.State, limitedUntil)
			continue
		}
		res, err := src.Poll(ctx, Target{Repo: w.Repo, Kind: w.Kind, Number: w.Number, Since: w.Created}, w.State)
		st.Polled++
		if until, ok := d.limited(err); ok {
			st.Limited++
			limitedUntil = until
			if err := d.store.SetPollBackoff(ctx, forge, until); err != nil {
				return err
			}
			d.log.WarnContext(ctx, "forge rate-limited the poll driver; polls paused", "forge", describe(forge),
				"until", until.UTC().Format(time.RFC3339))
			d.finish(ctx, w, w.State, until)
			continue
		}
		if err != nil {
			d.log.WarnContext(ctx, "poll failed", "forge", describe(forge), "repo", w.Repo, "number", w.Number, "cause", err.Error())
			d.finish(ctx, w, w.State, time.Time{})
			continue
		}
		if len(res.Changes) > 0 {
			if err := d.recorder.Record(ctx, w.Artifact, res.Changes...); err != nil {
				// Keep the old state: the next poll finds the changes again.
				d.finish(ctx, w, w.State, time.Time{})
				return err
			}
			st.Changes += len(res.Changes)
		}
		d.finish(ctx, w, res.State, time.Time{})
	}
	return nil
}

// finish stores a watch's state and releases it; a lost lease means
// another replica has it, which is fine.
func (d *Driver) finish(ctx context.Context, w store.Watch, state []byte, next time.Time) {
	if ok, err := d.store.FinishWatch(ctx, w, state, next); err != nil {
		d.log.ErrorContext(ctx, "poll state not saved", "repo", w.Repo, "number", w.Number, "cause", err.Error())
	} else if !ok {
		d.log.WarnContext(ctx, "poll outlived its lease; another replica has the watch", "repo", w.Repo, "number", w.Number)
	}
}

// limited reports whether err is a rate limit, and until when.
func (d *Driver) limited(err error) (time.Time, bool) {
	e, ok := toolserver.AsError(err)
	if !ok || e.Code != optionsv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED {
		return time.Time{}, false
	}
	return d.opts.Now().Add(max(e.RetryAfter, d.opts.Interval)), true
}

// phase is when a new watch is first polled: at a point of the interval
// fixed by the artifact, so polls of many artifacts spread evenly.
func (d *Driver) phase(a store.Artifact) time.Time {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%s/%s/%s/%d", a.Forge.Provider, a.Forge.Host, a.Repo, a.Kind, a.Number)
	return d.opts.Now().Add(time.Duration(h.Sum64() % uint64(d.opts.Interval)))
}

func claimID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func describe(f store.Forge) string { return f.Provider.String() + "/" + f.Host }
