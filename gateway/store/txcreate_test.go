package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

// openTx opens a store with a table standing for a forge's writes:
// t_made gets a row per create, and t_child a row that needs a t_parent by
// commit time (a deferred foreign key, so a create can break its commit).
func openTx(t *testing.T, dsn string) *Store {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, dsn, Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	for _, ddl := range []string{
		`CREATE TABLE t_made (k TEXT PRIMARY KEY)`,
		`CREATE TABLE t_parent (id INTEGER PRIMARY KEY)`,
		`CREATE TABLE t_child (parent INTEGER REFERENCES t_parent (id) DEFERRABLE INITIALLY DEFERRED)`,
	} {
		if _, err := s.DB().ExecContext(ctx, ddl); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

var local = Forge{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_LOCAL, Host: "local"}

// creating is a create of key k that writes its t_made row and says it made
// issue n.
func creating(k string, n uint64) Create {
	return Create{
		Account: "alice", Key: k, Fingerprint: "fp",
		Do: func(ctx context.Context, tx *sql.Tx) (Ownership, error) {
			if _, err := tx.ExecContext(ctx, `INSERT INTO t_made (k) VALUES ($1)`, k); err != nil {
				return Ownership{}, err
			}
			return Ownership{Session: "s1", Artifact: Artifact{Forge: local, Repo: "acme/web", Kind: KindIssue, Number: n}}, nil
		},
	}
}

var errBoom = errors.New("boom")

// failing writes its t_made row, then fails.
func failing(k string) Create {
	c := creating(k, 0)
	do := c.Do
	c.Do = func(ctx context.Context, tx *sql.Tx) (Ownership, error) {
		if _, err := do(ctx, tx); err != nil {
			return Ownership{}, err
		}
		return Ownership{}, errBoom
	}
	return c
}

// keyFree fails t unless a failed create's key k can be reserved again.
func keyFree(t *testing.T, s *Store, k string) {
	t.Helper()
	ctx := context.Background()
	c, _, err := s.Reserve(ctx, "alice", k, "fp", 0)
	if err != nil || c == nil {
		t.Fatalf("the failed create's key = %v, %v; want it free", c, err)
	}
	c.Abandon(ctx)
}

func made(t *testing.T, s *Store) string {
	t.Helper()
	rows, err := s.DB().QueryContext(context.Background(), `SELECT k FROM t_made`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			t.Fatal(err)
		}
		out = append(out, k)
	}
	slices.Sort(out) // in Go: the databases' collations differ
	return fmt.Sprint(out)
}

// The create's writes, its memo and its ownership row commit together; a
// failed create leaves none of them, so its retry creates.
func TestCreateTx(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := openTx(t, dsn)
		if a, err := s.CreateTx(ctx, ctx, creating("k1", 7)); err != nil || a != nil {
			t.Fatalf("CreateTx = %v, %v; want a create", a, err)
		}
		again := creating("k1", 8)
		again.Do = func(context.Context, *sql.Tx) (Ownership, error) {
			t.Error("a replayed create ran again")
			return Ownership{}, nil
		}
		if a, err := s.CreateTx(ctx, ctx, again); err != nil || a == nil || a.Number != 7 {
			t.Fatalf("CreateTx again = %v, %v; want a replay of #7", a, err)
		}
		// The lease protocol reads the same memo.
		if _, a, err := s.Reserve(ctx, "alice", "k1", "fp", 0); err != nil || a == nil || a.Number != 7 {
			t.Fatalf("Reserve = %v, %v; want a replay of #7", a, err)
		}
		if owned, err := s.Owned(ctx, "alice"); err != nil || len(owned) != 1 || owned[0].Number != 7 || owned[0].Session != "s1" {
			t.Fatalf("ownership = %+v, %v", owned, err)
		}

		if _, err := s.CreateTx(ctx, ctx, failing("k2")); !errors.Is(err, errBoom) {
			t.Fatalf("failing CreateTx = %v, want its own error", err)
		}
		if got := made(t, s); got != "[k1]" {
			t.Fatalf("rows made = %s, want [k1]: the failed create's row was kept", got)
		}
		if a, err := s.CreateTx(ctx, ctx, creating("k2", 9)); err != nil || a != nil {
			t.Fatalf("retry after a failure = %v, %v; want a create", a, err)
		}
		if _, err := s.CreateTx(ctx, ctx, Create{Account: "alice", Key: "k2", Fingerprint: "other", Do: again.Do}); !errors.Is(err, ErrKeyReused) {
			t.Fatalf("key reused = %v, want ErrKeyReused", err)
		}
	})
}

// Fifty concurrent creates with one key run once; the rest replay it.
// Twenty with their own keys, every third failing, keep exactly the
// others: however the committer groups them, a failure undoes only itself.
func TestCreateTxConcurrent(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := openTx(t, dsn)
		var runs atomic.Int32
		var wg sync.WaitGroup
		replays := make([]*Artifact, 50)
		for i := range replays {
			wg.Go(func() {
				c := creating("same", 1)
				do := c.Do
				c.Do = func(ctx context.Context, tx *sql.Tx) (Ownership, error) {
					runs.Add(1)
					return do(ctx, tx)
				}
				a, err := s.CreateTx(ctx, ctx, c)
				if err != nil {
					t.Error(err)
				}
				replays[i] = a
			})
		}
		wg.Wait()
		n := 0
		for _, a := range replays {
			if a != nil && a.Number == 1 {
				n++
			}
		}
		if runs.Load() != 1 || n != 49 {
			t.Fatalf("the create ran %d times and %d calls replayed it; want 1 and 49", runs.Load(), n)
		}

		want := []string{"same"}
		for i := range 20 {
			k := fmt.Sprintf("k%02d", i)
			if i%3 == 0 {
				wg.Go(func() {
					if _, err := s.CreateTx(ctx, ctx, failing(k)); !errors.Is(err, errBoom) {
						t.Errorf("%s: %v, want errBoom", k, err)
					}
				})
				continue
			}
			want = append(want, k)
			wg.Go(func() {
				if a, err := s.CreateTx(ctx, ctx, creating(k, uint64(i))); err != nil || a != nil {
					t.Errorf("%s: %v, %v", k, a, err)
				}
			})
		}
		wg.Wait()
		slices.Sort(want)
		if got := made(t, s); got != fmt.Sprint(want) {
			t.Fatalf("rows made = %s, want %v", got, want)
		}
	})
}

// One transaction's creates, run as the committer runs a group: a failure
// is rolled back to its savepoint, a create of a key the group already made
// replays it, and one commit keeps the rest.
func TestGroup(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := openTx(t, dsn)
		reused := creating("a", 9)
		reused.Fingerprint = "other"
		ms := []*txCreate{
			{c: creating("a", 1)},
			{c: failing("b")},
			{c: creating("a", 2)}, // the same create again: a replay of #1
			{c: creating("d", 4)},
			{c: reused},
		}
		g := &group{s: s}
		for _, m := range ms {
			m.ctx, m.txCtx = ctx, ctx
			g.run(m)
		}
		g.end()
		if ms[0].err != nil || ms[3].err != nil {
			t.Fatalf("creates = %v, %v", ms[0].err, ms[3].err)
		}
		if !errors.Is(ms[1].err, errBoom) || !errors.Is(ms[4].err, ErrKeyReused) {
			t.Fatalf("failures = %v, %v", ms[1].err, ms[4].err)
		}
		if ms[2].err != nil || ms[2].retry || ms[2].replay == nil || ms[2].replay.Number != 1 {
			t.Fatalf("repeat = %+v, want a replay of #1", ms[2])
		}
		if got := made(t, s); got != "[a d]" {
			t.Fatalf("rows made = %s, want [a d]", got)
		}
		keyFree(t, s, "b")
	})
}

// A batch runs without savepoints until a create fails after others were
// kept; then it runs again with one before each create, with the same
// outcomes as a careful group's (TestGroup), and the next groups stay
// careful for a while.
func TestOptimisticBatch(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := openTx(t, dsn)
		batch := func(cs ...Create) []*txCreate {
			ms := make([]*txCreate, len(cs))
			for i, c := range cs {
				ms[i] = &txCreate{ctx: ctx, txCtx: ctx, c: c}
			}
			return ms
		}

		ok := batch(creating("a", 1), creating("b", 2), creating("a", 1))
		if _, g := s.runBatch(ok); !g.optimistic || g.savepoints != 0 {
			t.Fatalf("a batch with no failure: optimistic %v, %d savepoints; want optimistic, none", g.optimistic, g.savepoints)
		}
		if ok[0].err != nil || ok[1].err != nil || ok[2].replay == nil || ok[2].replay.Number != 1 {
			t.Fatalf("a batch with no failure = %v, %v, %+v; want two creates and a replay of #1", ok[0].err, ok[1].err, ok[2])
		}

		runs := 0
		counted := creating("d", 4)
		do := counted.Do
		counted.Do = func(ctx context.Context, tx *sql.Tx) (Ownership, error) { runs++; return do(ctx, tx) }
		reused := creating("c", 9)
		reused.Fingerprint = "other"
		ms := batch(creating("c", 3), counted, failing("e"), creating("c", 3), reused)
		_, g := s.runBatch(ms)
		if g.optimistic || g.savepoints == 0 || runs != 2 || s.careful != carefulGroups {
			t.Fatalf("after a failure: optimistic %v, %d savepoints, the create before it ran %d times, careful %d; want a careful rerun and %d careful groups",
				g.optimistic, g.savepoints, runs, s.careful, carefulGroups)
		}
		if ms[0].err != nil || ms[1].err != nil || !errors.Is(ms[2].err, errBoom) || !errors.Is(ms[4].err, ErrKeyReused) {
			t.Fatalf("outcomes = %v, %v, %v, %v; want two creates, the failure, ErrKeyReused", ms[0].err, ms[1].err, ms[2].err, ms[4].err)
		}
		if ms[3].err != nil || ms[3].retry || ms[3].replay == nil || ms[3].replay.Number != 3 {
			t.Fatalf("repeat = %+v, want a replay of #3", ms[3])
		}
		if got := made(t, s); got != "[a b c d]" {
			t.Fatalf("rows made = %s, want [a b c d]", got)
		}
		keyFree(t, s, "e")

		for i := range carefulGroups {
			if _, g := s.runBatch(batch(creating(fmt.Sprint("f", i), 10), creating(fmt.Sprint("g", i), 11))); g.optimistic {
				t.Fatalf("group %d after the failure is optimistic; want %d careful ones", i+1, carefulGroups)
			}
		}
		if _, g := s.runBatch(batch(creating("h", 12), creating("i", 13))); !g.optimistic || g.savepoints != 0 {
			t.Fatalf("group %d after the failure: optimistic %v, %d savepoints; want optimistic again", carefulGroups+1, g.optimistic, g.savepoints)
		}
	})
}

// On SQLite a create handed in while a batch runs joins its group, and one
// that fails there makes the whole grown batch run again carefully; on
// PostgreSQL it waits for the next group. (The committer's queue is
// buffered here so the late create is surely waiting when the batch ends.)
func TestLateJoin(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := openTx(t, dsn)
		s.creates = make(chan *txCreate, groupMax)
		late := func(c Create) *txCreate { return &txCreate{ctx: ctx, txCtx: ctx, c: c} }
		handingIn := func(k string, n uint64, m *txCreate) Create {
			c := creating(k, n)
			do := c.Do
			c.Do = func(ctx context.Context, tx *sql.Tx) (Ownership, error) {
				if m != nil {
					s.creates <- m
					m = nil // a rerun hands in nothing more
				}
				return do(ctx, tx)
			}
			return c
		}

		b := late(creating("b", 2))
		batch, g := s.runBatch([]*txCreate{late(handingIn("a", 1, b))})
		if s.dialect == Postgres {
			if len(batch) != 1 || len(s.creates) != 1 {
				t.Fatalf("PostgreSQL: batch of %d, %d waiting; want the late create left for the next group", len(batch), len(s.creates))
			}
			<-s.creates
			return
		}
		if len(batch) != 2 || batch[1] != b || len(g.kept) != 2 || b.err != nil {
			t.Fatalf("SQLite: batch of %d, %d kept, late create err %v; want it run and kept in the same group", len(batch), len(g.kept), b.err)
		}

		e := late(failing("e"))
		batch, g = s.runBatch([]*txCreate{late(handingIn("c", 3, e)), late(creating("d", 4))})
		if len(batch) != 3 || g.optimistic || !errors.Is(e.err, errBoom) || batch[0].err != nil || batch[1].err != nil {
			t.Fatalf("a late create that fails: batch of %d, optimistic %v, errs %v %v %v; want the three rerun carefully",
				len(batch), g.optimistic, batch[0].err, batch[1].err, e.err)
		}
		if got := made(t, s); got != "[a b c d]" {
			t.Fatalf("rows made = %s, want [a b c d]", got)
		}
		keyFree(t, s, "e")
	})
}

// A commit that fails loses the whole group: its creates report
// ErrNotCommitted, the answers that rested on them (a replay of one, a
// refusal of its key for another request) run again, and nothing is kept.
func TestGroupCommitFails(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := openTx(t, dsn)
		orphan := creating("c", 3)
		do := orphan.Do
		orphan.Do = func(ctx context.Context, tx *sql.Tx) (Ownership, error) {
			if _, err := tx.ExecContext(ctx, `INSERT INTO t_child (parent) VALUES (42)`); err != nil {
				return Ownership{}, err
			}
			return do(ctx, tx)
		}
		reused := creating("a", 1)
		reused.Fingerprint = "other"
		ms := []*txCreate{{c: creating("a", 1)}, {c: creating("a", 1)}, {c: reused}, {c: orphan}}
		g := &group{s: s}
		for _, m := range ms {
			m.ctx, m.txCtx = ctx, ctx
			g.run(m)
		}
		if ms[1].replay == nil || !errors.Is(ms[2].err, ErrKeyReused) || ms[3].err != nil {
			t.Fatalf("before the commit: %+v, %v, %v; want a replay, ErrKeyReused and a create", ms[1].replay, ms[2].err, ms[3].err)
		}
		g.end()
		if !errors.Is(ms[0].err, ErrNotCommitted) || !errors.Is(ms[3].err, ErrNotCommitted) {
			t.Fatalf("creates after a failed commit = %v, %v; want ErrNotCommitted", ms[0].err, ms[3].err)
		}
		for _, m := range ms[1:3] {
			if m.replay != nil || m.err != nil || !m.retry {
				t.Fatalf("an answer resting on the lost commit = %+v, want a retry", m)
			}
		}
		if got := made(t, s); got != "[]" {
			t.Fatalf("rows made = %s, want none", got)
		}
		if a, err := s.CreateTx(ctx, ctx, creating("a", 5)); err != nil || a != nil {
			t.Fatalf("retry = %v, %v; want a create", a, err)
		}
	})
}

// On a private in-memory database the store has one connection: the
// committer's transaction holds it, so a create must need no other.
func TestCreateTxInMemory(t *testing.T) {
	ctx := context.Background()
	s := openTx(t, ":memory:")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			if a, err := s.CreateTx(ctx, ctx, creating(fmt.Sprint("m", i), uint64(i))); err != nil || a != nil {
				t.Errorf("create %d = %v, %v", i, a, err)
			}
		})
	}
	wg.Wait()
	if a, err := s.CreateTx(ctx, ctx, creating("m3", 99)); err != nil || a == nil || a.Number != 3 {
		t.Fatalf("replay = %v, %v; want #3", a, err)
	}
	if got := made(t, s); got != "[m0 m1 m2 m3 m4 m5 m6 m7]" {
		t.Fatalf("rows made = %s", got)
	}
}
