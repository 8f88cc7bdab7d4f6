package store_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gateway/store"
)

// TestSQLiteFilesAreOwnerOnly: Open creates a new database 0600 (SQLite
// would create it 0644 less the umask, and give its -wal and -shm files the
// same mode) and tightens existing files others may read, logging each.
func TestSQLiteFilesAreOwnerOnly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gateway.db")
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"gateway.db", "gateway.db-wal", "gateway.db-shm", "gateway.db.lock"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v (%v), want 0600", name, fi.Mode().Perm(), err)
		}
	}
	st.Close()

	for _, name := range []string{"gateway.db", "gateway.db-wal", "gateway.db-shm"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil && !os.IsExist(err) {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Join(dir, name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var logs bytes.Buffer
	st, err = store.Open(context.Background(), path, store.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("gateway.db after reopening: mode %v (%v), want 0600", fi.Mode().Perm(), err)
	}
	if !strings.Contains(logs.String(), "file="+path) || !strings.Contains(logs.String(), "was=-rw-r--r--") {
		t.Errorf("the tightening was not logged:\n%s", logs.String())
	}
}
