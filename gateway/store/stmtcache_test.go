package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// openSQLite opens a store on a fresh SQLite file and pins one connection,
// so every statement below runs on the same connection's cache.
func openSQLite(t *testing.T) (*Store, *sql.Conn) {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, storetest.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	conn, err := s.DB().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	for i := 1; i <= 3; i++ {
		if _, err := conn.ExecContext(ctx, `INSERT INTO gateway_subscriptions
			(id, account, provider, host, repo, kind, number, created_ms) VALUES (?, 'a', 'p', 'h', 'r', 'issue', ?, 0)`,
			fmt.Sprint("s", i), i); err != nil {
			t.Fatal(err)
		}
	}
	return s, conn
}

const numbersQuery = `SELECT number FROM gateway_subscriptions WHERE account = ? ORDER BY number`

// A statement run again on the same connection is not prepared again.
func TestSQLiteKeepsPreparedStatements(t *testing.T) {
	ctx := context.Background()
	_, conn := openSQLite(t)
	before := stmtPrepares.Load()
	for range 50 {
		var n int64
		if err := conn.QueryRowContext(ctx, numbersQuery+` LIMIT 1`, "a").Scan(&n); err != nil || n != 1 {
			t.Fatalf("query = %d, %v; want 1", n, err)
		}
		if _, err := conn.ExecContext(ctx, `UPDATE gateway_subscriptions SET created_ms = created_ms + 1 WHERE account = ?`, "a"); err != nil {
			t.Fatal(err)
		}
	}
	if got := stmtPrepares.Load() - before; got != 2 {
		t.Fatalf("100 calls of 2 statements prepared %d statements, want 2", got)
	}
	var ms int64
	if err := conn.QueryRowContext(ctx, `SELECT created_ms FROM gateway_subscriptions WHERE id = 's2'`).Scan(&ms); err != nil || ms != 50 {
		t.Fatalf("created_ms = %d, %v; want 50 after 50 updates through the kept statement", ms, err)
	}
}

// The same text run again while its row set is still open gets a statement
// of its own: the open rows read on undisturbed.
func TestSQLiteKeptStatementWhileItsRowsAreOpen(t *testing.T) {
	ctx := context.Background()
	_, conn := openSQLite(t)
	rows, err := conn.QueryContext(ctx, numbersQuery, "a")
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for rows.Next() {
		var n int64
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		got = append(got, n)
		// The same text, inside the iteration: a query and an exec.
		var first int64
		if err := conn.QueryRowContext(ctx, numbersQuery, "a").Scan(&first); err != nil || first != 1 {
			t.Fatalf("nested query = %d, %v", first, err)
		}
		if _, err := conn.ExecContext(ctx, numbersQuery, "a"); err != nil {
			t.Fatalf("nested exec: %v", err)
		}
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[1 2 3]" {
		t.Fatalf("outer rows = %v, want [1 2 3]", got)
	}
	// Closed, the kept statement serves the next call again.
	before := stmtPrepares.Load()
	var n int64
	if err := conn.QueryRowContext(ctx, numbersQuery, "a").Scan(&n); err != nil || n != 1 {
		t.Fatalf("after = %d, %v", n, err)
	}
	if stmtPrepares.Load() != before {
		t.Fatal("the kept statement was prepared again after its rows closed")
	}
}

// Past the bound, statements are evicted and every text still answers.
func TestSQLiteStatementBound(t *testing.T) {
	ctx := context.Background()
	_, conn := openSQLite(t)
	for i := range maxCachedStmts + 20 {
		var n int64
		if err := conn.QueryRowContext(ctx, fmt.Sprintf("SELECT %d + number FROM gateway_subscriptions WHERE id = 's1'", i)).Scan(&n); err != nil || n != int64(i+1) {
			t.Fatalf("query %d = %d, %v", i, n, err)
		}
	}
	err := conn.Raw(func(dc any) error {
		c, ok := dc.(*stmtConn)
		if !ok {
			return fmt.Errorf("the store's SQLite connection is a %T, not a statement-keeping one", dc)
		}
		if len(c.stmts) > maxCachedStmts {
			return fmt.Errorf("%d statements kept, bound %d", len(c.stmts), maxCachedStmts)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// pgx keeps the store's statements prepared on each PostgreSQL connection
// (its cache_statement exec mode, the default the store's DSN handling
// leaves in place): a statement run on a connection shows up among that
// session's prepared statements. With the mode set to exec it does not,
// which shows the check can fail.
func TestPostgresStatementCache(t *testing.T) {
	ctx := context.Background()
	dsn := storetest.Postgres(t)
	const probe = `SELECT count(*) FROM gateway_subscriptions WHERE account = $1`
	prepared := func(dsn string) int {
		t.Helper()
		s, err := Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		conn, err := s.DB().Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		for range 3 {
			var n int
			if err := conn.QueryRowContext(ctx, probe, "a").Scan(&n); err != nil {
				t.Fatal(err)
			}
		}
		var n int
		if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM pg_prepared_statements WHERE statement = $1`, probe).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := prepared(dsn); n != 1 {
		t.Fatalf("the probe is prepared %d times on its connection, want once (pgx's statement cache)", n)
	}
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("default_query_exec_mode", "exec")
	u.RawQuery = q.Encode()
	if n := prepared(u.String()); n != 0 {
		t.Fatalf("with default_query_exec_mode=exec the probe is prepared %d times, want 0", n)
	}
}

// Every SQLite connection of the store gets the DSN's pragmas, the
// statement-keeping connector notwithstanding: WAL, the busy timeout, and
// temporary storage (grouped creates' savepoints) in memory.
func TestSQLitePragmas(t *testing.T) {
	ctx := context.Background()
	_, conn := openSQLite(t)
	for pragma, want := range map[string]string{
		"journal_mode": "wal", "busy_timeout": "10000", "foreign_keys": "1", "synchronous": "1", "temp_store": "2",
	} {
		var got string
		if err := conn.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&got); err != nil || got != want {
			t.Errorf("PRAGMA %s = %q, %v; want %q", pragma, got, err, want)
		}
	}
}
