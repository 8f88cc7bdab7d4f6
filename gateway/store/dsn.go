package store

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Dialect names the SQL database a Store runs on. The values are the ones
// providers/local accepts in its Options.Dialect, so a Store's dialect can be
// handed to it unchanged.
type Dialect string

const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// target is a parsed DSN: which driver to open and with what string.
type target struct {
	dialect Dialect
	driver  string // database/sql driver name
	dsn     string // driver-specific data source name
	memory  bool   // an in-memory SQLite database (one connection only)
	path    string // a SQLite database's file
}

// sqlitePragmas are applied to every SQLite connection. WAL lets readers run
// beside the one writer; busy_timeout makes a second writer wait instead of
// failing at once; _txlock=immediate takes the write lock when a transaction
// begins, so a read-then-write transaction cannot fail half way with
// SQLITE_BUSY_SNAPSHOT (which the busy timeout does not retry);
// temp_store(MEMORY) keeps the savepoints of grouped creates (CreateTx) out
// of temporary files; secure_delete(1) zeroes what a row update or delete
// frees, so a scrubbed credential (Scrub) does not linger in free pages.
const sqlitePragmas = "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)" +
	"&_pragma=synchronous(NORMAL)&_pragma=temp_store(MEMORY)&_pragma=secure_delete(1)&_txlock=immediate"

// parseDSN accepts:
//
//	postgres://... or postgresql://...   PostgreSQL through pgx
//	sqlite:PATH or PATH                   a SQLite file
//	:memory: or sqlite::memory:           a private in-memory SQLite database
func parseDSN(dsn string) (target, error) {
	dsn = strings.TrimSpace(dsn)
	if dsn == "" {
		return target{}, errors.New("empty DSN: give a SQLite file path or a postgres:// DSN")
	}
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		if _, err := url.Parse(dsn); err != nil {
			// url's message quotes the DSN, password included: say less.
			return target{}, errors.New("the PostgreSQL DSN is not a valid URL")
		}
		return target{dialect: Postgres, driver: "pgx", dsn: dsn}, nil
	}
	path := strings.TrimPrefix(dsn, "sqlite:")
	switch {
	case path == "":
		return target{}, errors.New("the SQLite DSN names no file")
	case path == ":memory:":
		return target{dialect: SQLite, driver: "sqlite", dsn: ":memory:?" + sqlitePragmas, memory: true}, nil
	case strings.Contains(dsn, "://"):
		return target{}, fmt.Errorf("unsupported DSN scheme in %q: use a SQLite file path or postgres://", redactDSN(dsn))
	case strings.ContainsAny(path, "?#"):
		// The driver splits its DSN at '?', so such a path would be cut.
		return target{}, fmt.Errorf("SQLite path %q contains '?' or '#'", path)
	}
	return target{dialect: SQLite, driver: "sqlite", dsn: path + "?" + sqlitePragmas, path: path}, nil
}

// redactDSN hides a URL's user info, so an error never carries a password.
func redactDSN(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "(unparsable URL)"
	}
	if u.User == nil {
		return dsn
	}
	u.User = url.User("REDACTED")
	return u.String()
}
