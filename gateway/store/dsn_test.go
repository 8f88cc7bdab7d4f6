package store

import (
	"strings"
	"testing"
)

func TestParseDSN(t *testing.T) {
	for _, tc := range []struct {
		dsn     string
		dialect Dialect
		memory  bool
		prefix  string // of the driver DSN
	}{
		{"postgres://u:p@127.0.0.1/db?sslmode=disable", Postgres, false, "postgres://u:p@127.0.0.1/db"},
		{"postgresql://127.0.0.1/db", Postgres, false, "postgresql://"},
		{"/var/lib/forgetools/gateway.db", SQLite, false, "/var/lib/forgetools/gateway.db?_pragma="},
		{"sqlite:/tmp/x.db", SQLite, false, "/tmp/x.db?"},
		{"relative.db", SQLite, false, "relative.db?"},
		{":memory:", SQLite, true, ":memory:?"},
		{"sqlite::memory:", SQLite, true, ":memory:?"},
	} {
		got, err := parseDSN(tc.dsn)
		if err != nil {
			t.Errorf("parseDSN(%q): %v", tc.dsn, err)
			continue
		}
		if got.dialect != tc.dialect || got.memory != tc.memory || !strings.HasPrefix(got.dsn, tc.prefix) {
			t.Errorf("parseDSN(%q) = %+v, want dialect %s memory %v prefix %q", tc.dsn, got, tc.dialect, tc.memory, tc.prefix)
		}
	}
}

func TestParseDSNErrors(t *testing.T) {
	for _, tc := range []struct{ dsn, want string }{
		{"", "empty DSN"},
		{"   ", "empty DSN"},
		{"sqlite:", "names no file"},
		{"mysql://root:hunter2@db/x", "unsupported DSN scheme"},
		{"/tmp/a?b.db", "contains '?'"},
	} {
		_, err := parseDSN(tc.dsn)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseDSN(%q) error = %v, want it to mention %q", tc.dsn, err, tc.want)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("parseDSN(%q) error leaks the password: %v", tc.dsn, err)
		}
	}
}
