package local_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
)

// busyTimeout is the busy timeout of one connection of db's pool: the idle
// one database/sql hands out next, held while asked.
func busyTimeout(t *testing.T, conn *sql.Conn) int {
	t.Helper()
	var ms int
	if err := conn.QueryRowContext(context.Background(), "PRAGMA busy_timeout").Scan(&ms); err != nil {
		t.Fatalf("read busy timeout: %v", err)
	}
	return ms
}

// TestBusyTimeoutWithoutDSN: on a DSN that sets no busy timeout, a read on a
// connection the pool opened after the forge had already seen (its own)
// timeouts on others still gets one. The forge remembers only a timeout it
// did not set, so its own never passes for the DSN's.
func TestBusyTimeoutWithoutDSN(t *testing.T) {
	ctx := context.Background()
	f, db := newForge(t, sqliteDatabase(t), local.Options{})
	n := createIssue(t, f, "acme/app", "Busy")
	read := func() {
		t.Helper()
		if _, err := f.GetIssue(ctx, alice, &gatewayv1.GetIssueRequest{Repo: "acme/app", IssueNumber: n}); err != nil {
			t.Fatalf("get issue: %v", err)
		}
	}
	read() // on a connection the forge gave a timeout already
	db.SetMaxIdleConns(1)
	held, err := db.Conn(ctx) // the one idle connection, if any
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	read() // on a new connection
	fresh, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if ms := busyTimeout(t, fresh); ms != 5000 {
		t.Fatalf("busy timeout of the connection the read opened = %d ms, want the forge's 5000", ms)
	}
}

// TestBusyTimeoutFromDSN: a busy timeout the DSN sets is left as it is, on
// reads and writes alike.
func TestBusyTimeoutFromDSN(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "forge.db")
	d := database{dialect: local.DialectSQLite, gitDir: t.TempDir(), open: func(t *testing.T) *sql.DB {
		return openDB(t, "sqlite", "file:"+path+"?_pragma=foreign_keys(1)&_pragma=busy_timeout(7000)")
	}}
	f, db := newForge(t, d, local.Options{})
	for i := range 3 {
		n := createIssue(t, f, "acme/app", "Busy")
		if _, err := f.GetIssue(ctx, alice, &gatewayv1.GetIssueRequest{Repo: "acme/app", IssueNumber: n}); err != nil {
			t.Fatalf("get issue %d: %v", i, err)
		}
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if ms := busyTimeout(t, conn); ms != 7000 {
		t.Fatalf("busy timeout = %d ms, want the DSN's 7000", ms)
	}
}
