package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"time"
)

// ErrNotCommitted is CreateTx's answer when the transaction holding the
// create did not commit: the artifact, its memo and its ownership row were
// rolled back together, so a retry creates afresh. (Should the commit have
// gone through with only its confirmation lost, the retry replays it.)
var ErrNotCommitted = errors.New("the create's transaction did not commit")

// Create is one create for CreateTx.
type Create struct {
	// Account, Key, Fingerprint and Window are as for Reserve.
	Account, Key, Fingerprint string
	Window                    time.Duration
	// Do makes the artifact, writing in tx and nowhere else, and returns
	// the ownership row of what it made (its account and time are the
	// store's to set). Its error rolls back what it wrote and is
	// CreateTx's answer.
	Do func(ctx context.Context, tx *sql.Tx) (Ownership, error)
}

// groupMax is how many creates one transaction commits together. They
// queue for the database's writer anyway: on PostgreSQL the creates in one
// repository wait on its counter row, locked through each commit's flush to
// disk, and SQLite has one writer. Grouped, they share the commit: measured
// with 16 writers in one repository, PostgreSQL made about ten times the
// creates per second at half the client CPU per create (and no difference
// across 16 repositories); SQLite wrote each page the creates share once
// per group instead of once per create, 20% less CPU per create in the
// load driver, once its savepoints stayed in memory (temp_store, see
// sqlitePragmas; with a temporary file per savepoint grouping cost more
// than it saved). On PostgreSQL the committer also reserves a batch's keys
// (reserveAll) and records its creates (recordAll) in one statement each:
// every round trip it takes, every create behind it waits for.
const groupMax = 16

// CreateTx runs a create that writes to the store's own database inside a
// transaction the store owns, with its memo: the reservation of c.Key,
// c.Do's writes, the memo of what they made and the ownership row commit
// together, or not at all. It returns the artifact an earlier attempt
// created (c.Do is not run), or nil once the create has committed. A crash
// before the commit leaves nothing behind, so a retry creates; no other
// attempt sees the create before it commits, and one with the same key
// waits for it (on the database) and replays it.
//
// The store's committer runs the creates that arrive together one after
// another in one transaction (up to groupMax) and commits once for all; a
// create that fails is rolled back alone (runBatch says how). ctx
// bounds the wait for another attempt that holds the key, as in Reserve;
// txCtx bounds c.Do and the commit, which go on if the caller hangs up.
func (s *Store) CreateTx(ctx, txCtx context.Context, c Create) (*Artifact, error) {
	s.committing.Do(func() {
		s.beats.Add(1)
		go s.commit()
	})
	var replay *Artifact
	err := s.waitFor(ctx, func() (bool, error) {
		m := &txCreate{ctx: ctx, txCtx: txCtx, c: c, done: make(chan struct{})}
		select {
		case s.creates <- m:
		case <-ctx.Done():
			return false, ctx.Err()
		case <-s.closing:
			return false, errClosed
		}
		<-m.done // the committer answers every create it takes
		replay = m.replay
		return m.retry, m.err
	})
	return replay, err
}

// txCreate is a create handed to the committer, and its outcome.
type txCreate struct {
	ctx, txCtx context.Context
	c          Create

	replay *Artifact
	retry  bool
	err    error
	done   chan struct{}

	// attempt and owned are a kept create's reservation and ownership
	// row, which the group records when it ends (recordAll).
	attempt string
	owned   Ownership
	// won is the reservation reserveAll took for it, in the transaction
	// wonIn (only good while that is the group's).
	won   *won
	wonIn *sql.Tx
}

// commit is the committer: it takes the creates waiting, runs them in one
// transaction and commits, until the store closes.
func (s *Store) commit() {
	defer s.beats.Done()
	batch := make([]*txCreate, 0, groupMax)
	for {
		select {
		case m := <-s.creates:
			batch = s.waiting(append(batch[:0], m))
		case <-s.closing:
			return
		}
		batch, _ = s.runBatch(batch)
		for _, m := range batch {
			close(m.done)
		}
	}
}

// carefulGroups is how many groups take a savepoint before each create
// after a group without savepoints lost its transaction to a failed
// create: creates that fail one after another (a client retrying a bad
// create, or an agent sending them on purpose) then cost their group one
// savepoint each instead of a rerun of the whole group each.
const carefulGroups = 8

// runBatch runs a batch of creates in one group and ends it. The creates
// of a group run first without savepoints (optimistically): every
// savepoint is a statement, on PostgreSQL a round trip, that each create
// behind it in the committer waits for, and creates rarely fail inside
// the transaction (the gateway has validated them, checked scope and
// policy). When one fails after others were kept, nothing can undo it
// alone, so the transaction is rolled back and the whole batch runs
// again, a savepoint before each create, as if it had just arrived: no
// answer was given, none of its writes were kept, and running a create
// again after a rollback is what a lost transaction already does. It
// returns the batch, with the creates that joined it while it ran
// (runAll), and the group that ended.
func (s *Store) runBatch(batch []*txCreate) ([]*txCreate, *group) {
	careful := s.careful > 0
	if careful {
		s.careful--
	}
	g := &group{s: s, optimistic: !careful}
	batch = g.runAll(batch)
	if g.failed {
		s.careful = carefulGroups
		for _, m := range batch {
			m.reset()
		}
		g = &group{s: s}
		batch = g.runAll(batch)
	}
	g.end()
	return batch, g
}

// runAll runs the batch's creates in the group, stopping at a failure
// that lost an optimistic group its transaction, and returns the batch.
// On SQLite, once the batch has run and before the group ends, creates
// that arrived meanwhile join it (lateJoin): the commit's cost is mostly
// the pages its creates share, written once per group, and a create whose
// handler was a moment behind the gather would otherwise commit alone or
// nearly so (measured under 16 writers: a sixth to a third of the creates
// committed alone). On PostgreSQL a late create would take a round trip of
// its own for its key, which the next group reserves with the others' in
// one (reserveAll), and every round trip holds up the creates behind it.
func (g *group) runAll(batch []*txCreate) []*txCreate {
	if g.s.dialect == Postgres {
		g.reserveAll(batch)
	}
	for i := 0; i < len(batch); i++ {
		if g.run(batch[i]); g.failed {
			return batch
		}
		if i == len(batch)-1 && g.s.dialect == SQLite {
			batch = g.s.lateJoin(batch)
		}
	}
	return batch
}

// lateJoin is waiting after letting the goroutines ready to hand in a
// create run first.
func (s *Store) lateJoin(batch []*txCreate) []*txCreate {
	if len(batch) >= groupMax {
		return batch
	}
	runtime.Gosched()
	return s.waiting(batch)
}

// waiting appends to batch the creates waiting for the committer, up to
// groupMax.
func (s *Store) waiting(batch []*txCreate) []*txCreate {
	for len(batch) < groupMax {
		select {
		case m := <-s.creates:
			batch = append(batch, m)
		default:
			return batch
		}
	}
	return batch
}

// reset clears what a run of m in a group that was rolled back left on
// it, so that it runs again as it arrived.
func (m *txCreate) reset() {
	m.replay, m.retry, m.err = nil, false, nil
	m.attempt, m.owned = "", Ownership{}
	m.won, m.wonIn = nil, nil
}

// group is the committer's transaction and the creates it holds.
type group struct {
	s   *Store
	ctx context.Context // the transaction's: never cancelled, it ends by Commit or Rollback
	tx  *sql.Tx
	// kept are the creates whose writes are in tx. provisional are the
	// others that ran while it held kept ones: their answers (a replay of
	// one of them, a refusal because of one) stand only if those commit.
	kept, provisional []*txCreate
	// optimistic groups take no savepoint before a create; failed says
	// one of their creates failed after others were kept, which rolled
	// the transaction back with them (runBatch runs the batch again).
	optimistic, failed bool
	// savepoints counts the savepoints the group took (for its tests).
	savepoints int
}

// run runs one create in the group's transaction, beginning one if need be.
func (g *group) run(m *txCreate) {
	if err := m.txCtx.Err(); err != nil { // its time ran out while it queued
		m.err = err
		if g.reserved(m) {
			g.release(m)
		}
		return
	}
	if !g.begin(m) {
		return
	}
	if g.made(m) { // nothing to write, but its answer rests on theirs
		if g.reserved(m) { // cannot be: the key was free when reserveAll ran
			g.release(m)
		}
		g.provisional = append(g.provisional, m)
		return
	}
	shared := len(g.kept) > 0
	if shared && !g.optimistic { // a failure of this create must not undo theirs
		g.savepoints++
		if _, err := g.tx.ExecContext(g.ctx, "SAVEPOINT create_memo"); err != nil {
			g.discard(err)
			m.retry = true // it has not run
			return
		}
	}
	switch {
	case g.create(m):
		g.kept = append(g.kept, m)
	case shared && g.tx == nil:
		// Undoing it lost the transaction, with the creates its answer
		// may rest on: it runs again.
		m.replay, m.err, m.retry = nil, nil, true
	case shared:
		g.provisional = append(g.provisional, m)
	}
}

// create runs m in the transaction and reports whether its writes are
// kept; if not, m holds its answer and its writes are undone.
func (g *group) create(m *txCreate) bool {
	if g.reserved(m) {
		return g.created(m, m.won)
	}
	w, replay, retry, err := g.s.tryReserve(m.ctx, g.tx, m.c.Account, m.c.Key, m.c.Fingerprint, m.c.Window)
	switch {
	case err != nil:
		g.undo(err)
		m.err = err
		return false
	case w == nil:
		m.replay, m.retry = replay, retry
		return false
	}
	return g.created(m, w)
}

// created runs m's own writes under the reservation w and reports whether
// they are kept, as create does.
func (g *group) created(m *txCreate, w *won) bool {
	o, err := g.do(m)
	if err != nil {
		g.undo(err)
		m.err = err
		if g.reserved(m) { // its reservation was taken before its savepoint
			g.release(m)
		}
		return false
	}
	m.attempt, m.owned = w.attempt, o
	if g.s.dialect == Postgres {
		return true // recorded with the group's other creates (end)
	}
	lost, err := g.s.record(m.txCtx, g.tx, m.c.Account, m.c.Key, w.attempt, o)
	if err == nil && lost {
		err = errors.New("the memo row changed inside its own transaction")
	}
	if err != nil {
		g.undo(err)
		m.err = fmt.Errorf("%w: %v", ErrNotCommitted, err)
		return false
	}
	return true
}

// do runs the create's own writes; a panic fails the create instead of the
// committer.
func (g *group) do(m *txCreate) (o Ownership, err error) {
	defer func() {
		if p := recover(); p != nil {
			g.s.log.Error("create panicked in the store's transaction", "panic", fmt.Sprint(p))
			err = fmt.Errorf("the create panicked: %v", p)
		}
	}()
	return m.c.Do(m.txCtx, g.tx)
}

// undo rolls back the create that just failed: to its savepoint, or the
// whole transaction when it holds no other create or, in an optimistic
// group, no savepoint to roll back to.
func (g *group) undo(cause error) {
	if len(g.kept) == 0 {
		_ = g.tx.Rollback() // nothing in it to keep
		g.tx = nil
		return
	}
	if g.optimistic {
		_ = g.tx.Rollback()
		g.tx, g.failed = nil, true
		g.kept, g.provisional = nil, nil
		return
	}
	if _, err := g.tx.ExecContext(g.ctx, "ROLLBACK TO SAVEPOINT create_memo"); err != nil {
		g.discard(fmt.Errorf("%v, after %v", err, cause))
	}
}

// made answers m from a create of its key the group kept, as the memo
// will once the group commits (provisionally, like any answer that rests
// on the group's creates): a replay of that create, or a refusal of the
// key for another request. It reports whether it answered.
func (g *group) made(m *txCreate) bool {
	for _, k := range g.kept {
		if k.c.Account != m.c.Account || k.c.Key != m.c.Key {
			continue
		}
		if k.c.Fingerprint != m.c.Fingerprint {
			m.err = ErrKeyReused
		} else {
			a := k.owned.Artifact
			m.replay = &Artifact{Forge: a.Forge, Repo: a.Repo, Kind: a.Kind, Number: a.Number}
		}
		return true
	}
	return false
}

// end records and commits the creates the group kept.
func (g *group) end() {
	switch {
	case g.tx == nil:
	case len(g.kept) == 0:
		_ = g.tx.Rollback() // it only read
	case g.s.dialect == Postgres:
		if err := g.s.recordAll(g.ctx, g.tx, g.kept); err != nil {
			g.discard(err)
			return
		}
		fallthrough
	default:
		if err := g.tx.Commit(); err != nil {
			g.lose(err)
		}
	}
	g.tx = nil
}

// discard rolls back a transaction that can no longer be used, with every
// create in it; the group goes on in a new one.
func (g *group) discard(cause error) {
	_ = g.tx.Rollback()
	g.tx = nil
	g.lose(cause)
}

// lose fails the creates of a transaction that did not commit: their
// writes are gone, and the answers that rested on them run again.
func (g *group) lose(cause error) {
	for _, m := range g.kept {
		m.err = fmt.Errorf("%w: %v", ErrNotCommitted, cause)
	}
	for _, m := range g.provisional {
		m.replay, m.err, m.retry = nil, nil, true
	}
	g.kept, g.provisional = nil, nil
}
