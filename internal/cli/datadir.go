package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
)

// createdStore is what prepareStore made for a SQLite store that did not
// exist yet, so a failed start can take it away again.
type createdStore struct {
	file string // the database file, "" when it existed already
	dir  string // the directory, "" when it existed already
}

func (c createdStore) remove() {
	if c.file != "" {
		for _, suffix := range []string{"", "-wal", "-shm", "-journal", ".lock"} {
			os.Remove(c.file + suffix)
		}
	}
	if c.dir != "" {
		os.Remove(c.dir) // only if empty
	}
}

// prepareStore makes the directory of a SQLite store file ready: created
// 0700 when missing, so the default store in a fresh data directory just
// works, and checked when it exists (checkStoreDir). It says what it (and
// the first open) will have created.
func prepareStore(dsn string, log *slog.Logger) (createdStore, error) {
	var c createdStore
	if dsn == "" {
		return c, errors.New("no store: set store in the config or pass --store")
	}
	if isPostgres(dsn) || dsn == ":memory:" || dsn == "sqlite::memory:" {
		return c, nil
	}
	file := strings.TrimPrefix(dsn, "sqlite:")
	dir := filepath.Dir(file)
	if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) {
		c.file = file
	}
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		c.dir = dir
		return c, os.MkdirAll(dir, 0o700)
	}
	if err != nil {
		return c, err
	}
	return c, checkStoreDir(dir, fi.Mode(), log)
}

// checkStoreDir decides about an existing store directory others can reach.
// Writable by group or others (sticky or not): refused, since anyone could
// replace the database, or plant its -wal file or a symlink before the
// gateway creates it. Only readable or searchable by them: a warning, since
// the store's files are 0600 and only their names show.
func checkStoreDir(dir string, mode fs.FileMode, log *slog.Logger) error {
	perm := mode.Perm()
	switch {
	case !mode.IsDir():
		return fmt.Errorf("store directory %s is not a directory", dir)
	case perm&0o022 != 0:
		return fmt.Errorf("store directory %s has mode %v: other users can write to it and could replace the gateway's database; run chmod 700 %s",
			dir, perm, dir)
	case perm&0o055 != 0:
		log.Warn("store directory is readable by other users; the store's files are 0600, but chmod 700 keeps even their names private",
			"dir", dir, "mode", perm.String())
	}
	return nil
}
