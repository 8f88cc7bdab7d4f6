package store

import (
	"context"
	"errors"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// A batch whose keys are reserved together before its creates run (as
// the committer does on PostgreSQL): a key made before replays, a key the
// batch repeats replays the group's create, a key reused for another
// request is refused, a create that fails or whose time ran out gives
// its key back, and the rest commit. No reservation is left pending.
func TestGroupReservesTogether(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := openTx(t, dsn)
		if a, err := s.CreateTx(ctx, ctx, creating("z", 26)); err != nil || a != nil {
			t.Fatalf("first create of z = %v, %v", a, err)
		}
		reused := creating("a", 9)
		reused.Fingerprint = "other"
		expired, cancel := context.WithCancel(ctx)
		cancel()
		ms := []*txCreate{
			{c: creating("a", 1)},
			{c: failing("b")},
			{c: creating("a", 2)}, // the same create again: a replay of #1
			{c: creating("z", 3)}, // made before: a replay of #26
			{c: creating("d", 4)},
			{c: reused},
			{c: creating("e", 5), txCtx: expired},
		}
		for _, m := range ms {
			m.ctx = ctx
			if m.txCtx == nil {
				m.txCtx = ctx
			}
		}
		g := &group{s: s}
		g.reserveAll(ms)
		if !g.reserved(ms[0]) || !g.reserved(ms[1]) || g.reserved(ms[2]) || g.reserved(ms[3]) || g.reserved(ms[6]) {
			t.Fatalf("reserved: %v %v %v %v %v; want the first a and b, not the repeat, z or the expired e",
				g.reserved(ms[0]), g.reserved(ms[1]), g.reserved(ms[2]), g.reserved(ms[3]), g.reserved(ms[6]))
		}
		for _, m := range ms {
			g.run(m)
		}
		g.end()
		if ms[0].err != nil || ms[4].err != nil {
			t.Fatalf("creates = %v, %v", ms[0].err, ms[4].err)
		}
		if !errors.Is(ms[1].err, errBoom) || !errors.Is(ms[5].err, ErrKeyReused) || !errors.Is(ms[6].err, context.Canceled) {
			t.Fatalf("failures = %v, %v, %v", ms[1].err, ms[5].err, ms[6].err)
		}
		if ms[2].replay == nil || ms[2].replay.Number != 1 || ms[3].replay == nil || ms[3].replay.Number != 26 {
			t.Fatalf("repeats = %+v, %+v; want replays of #1 and #26", ms[2], ms[3])
		}
		if got := made(t, s); got != "[a d z]" {
			t.Fatalf("rows made = %s, want [a d z]", got)
		}
		noPending(t, s)
		for _, k := range []string{"b", "e"} {
			if a, err := s.CreateTx(ctx, ctx, creating(k, 7)); err != nil || a != nil {
				t.Fatalf("retry of %s = %v, %v; want a create", k, a, err)
			}
		}
		if a, err := s.CreateTx(ctx, ctx, creating("d", 8)); err != nil || a == nil || a.Number != 4 {
			t.Fatalf("repeat of d = %v, %v; want a replay of #4", a, err)
		}
	})
}

// When the batch's first create fails, with no other create kept yet, the
// whole transaction rolls back, the batch's reservations with it: the
// others reserve again on their own and commit.
func TestGroupReservesTogetherFirstFails(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := openTx(t, dsn)
		ms := []*txCreate{{c: failing("f")}, {c: creating("g", 1)}, {c: creating("h", 2)}}
		for _, m := range ms {
			m.ctx, m.txCtx = ctx, ctx
		}
		g := &group{s: s}
		g.reserveAll(ms)
		for _, m := range ms {
			g.run(m)
		}
		g.end()
		if !errors.Is(ms[0].err, errBoom) || ms[1].err != nil || ms[2].err != nil || ms[1].retry || ms[2].retry {
			t.Fatalf("creates = %+v, %+v, %+v", ms[0], ms[1], ms[2])
		}
		if got := made(t, s); got != "[g h]" {
			t.Fatalf("rows made = %s, want [g h]", got)
		}
		noPending(t, s)
	})
}

// noPending fails when a memo row is still pending.
func noPending(t *testing.T, s *Store) {
	t.Helper()
	var n int
	if err := s.DB().QueryRowContext(context.Background(), `SELECT count(*) FROM gateway_create_memo WHERE state = 'pending'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d memo rows pending (%v), want none", n, err)
	}
}
