package migrate_test

import (
	"context"
	"database/sql"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	_ "github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite"

	"github.com/forgetools/forgetools/gateway/store/storetest"
	"github.com/forgetools/forgetools/internal/migrate"
)

// set is three migrations, so a race has room to land between them.
func set(dialect string) migrate.Set {
	files := fstest.MapFS{}
	for i, table := range []string{"first", "second", "third"} {
		files[string(rune('1'+i))+"_"+table+".sql"] = &fstest.MapFile{Data: []byte(
			"-- +goose Up\nCREATE TABLE " + table + " (id INTEGER PRIMARY KEY);\n" +
				"CREATE INDEX " + table + "_id ON " + table + " (id);\n" +
				"-- +goose Down\nDROP TABLE " + table + ";\n")}
	}
	return migrate.Set{Dialect: dialect, Files: files, Table: "test_migrations", LockID: 0x74657374}
}

// TestConcurrentUp runs Up from 20 connection pools at once on one fresh
// database, as 20 processes starting together would: every one succeeds,
// and the three migrations are applied once in all.
func TestConcurrentUp(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		driver, dialect := "sqlite", migrate.SQLite
		if strings.HasPrefix(dsn, "postgres") {
			driver, dialect = "pgx", migrate.Postgres
		} else {
			dsn += "?_pragma=busy_timeout(10000)"
		}
		const n = 20
		applied := make([]int, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			db, err := sql.Open(driver, dsn)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			wg.Go(func() {
				<-start
				res, err := migrate.Up(context.Background(), db, set(dialect))
				applied[i], errs[i] = len(res), err
			})
		}
		close(start)
		wg.Wait()
		total := 0
		for i, err := range errs {
			if err != nil {
				t.Errorf("Up %d: %v", i, err)
			}
			total += applied[i]
		}
		if total != 3 {
			t.Fatalf("%d migrations applied in all (per pool: %v), want 3: each exactly once", total, applied)
		}
	})
}
