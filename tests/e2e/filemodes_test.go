package e2e_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// umask022 runs forgetools under the common umask 022, which leaves files
// a program creates with 0666 readable by everyone: the store must not
// rely on a strict umask.
func (e *env) umask022(args ...string) result {
	e.t.Helper()
	r, err := e.runWith(func(cmd *exec.Cmd) {
		cmd.Path = "/bin/sh"
		cmd.Args = append([]string{"sh", "-c", `umask 022 && exec "$0" "$@"`, forgetools}, args...)
	}, args...)
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

// TestStoreFileModes: a fresh data directory is created 0700, and the
// SQLite database with its WAL, shared-memory and lock files 0600, even
// under umask 022. A database file left readable by others is tightened.
func TestStoreFileModes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dir := filepath.Join(e.dataDir(), "fresh")
	e.vars[0] = "FORGETOOLS_DATA_DIR=" + dir
	e.umask022("call", "forge_create_issue", `{"repo":"demo/app","title":"modes"}`).want(t, 0, `Created issue #1 .*`)

	want := map[string]os.FileMode{
		dir: 0o700, "forgetools.db": 0o600, "forgetools.db-wal": 0o600, "forgetools.db-shm": 0o600, "forgetools.db.lock": 0o600,
	}
	// -wal and -shm exist only while a connection is open: hold one with a
	// serve in the same data directory while looking.
	srv := e.serve(1, "--socket-dir", socketDir(t))
	for name, mode := range want {
		path := name
		if !filepath.IsAbs(name) {
			path = filepath.Join(dir, name)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if fi.Mode().Perm() != mode {
			t.Errorf("%s has mode %v, want %v", name, fi.Mode().Perm(), mode)
		}
	}
	srv.Stop(os.Interrupt)

	// A database someone made readable by others is tightened, and said so.
	if err := os.Chmod(filepath.Join(dir, "forgetools.db"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := e.umask022("call", "forge_get_issue", `{"repo":"demo/app","issue_number":1}`)
	if r.code != 0 || !strings.Contains(r.stderr, "forgetools.db") || !strings.Contains(r.stderr, "0600") {
		t.Errorf("reading with a 0644 database: want success and a warning naming it; got %v", r)
	}
	if fi, err := os.Stat(filepath.Join(dir, "forgetools.db")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("database mode after start = %v (%v), want 0600", fi.Mode().Perm(), err)
	}
}

// TestDataDirectoryModeChecked: an existing data directory that others may
// write is refused (anyone could replace the database or plant files beside
// it); one they may only read is used, with a warning.
func TestDataDirectoryModeChecked(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dir := e.dataDir()
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	r := e.call("forge_list_issues", `{"repo":"demo/app"}`)
	if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, dir) || !strings.Contains(r.stderr, "chmod 700") {
		t.Errorf("a world-writable data directory: want exit 1 naming it with the fix; got %v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "forgetools.db")); !os.IsNotExist(err) {
		t.Errorf("a refused start created the database: %v", err)
	}

	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r = e.call("forge_list_issues", `{"repo":"demo/app"}`)
	if r.code != 0 || !strings.Contains(r.stderr, "readable by other users") {
		t.Errorf("a 0755 data directory: want success with a warning; got %v", r)
	}
}
