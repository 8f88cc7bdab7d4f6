package store

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
)

// fileMode is the mode of every file of a SQLite store: the dedup memo,
// ownership records and the local forge's data are the gateway's alone.
const fileMode = 0o600

// sqliteSidecars are the files SQLite keeps beside a database in WAL mode,
// and the migration lock file (internal/sqlitelock). SQLite creates its own
// with the database file's mode, so a 0600 database gets 0600 ones.
var sqliteSidecars = []string{"-wal", "-shm", ".lock"}

// secureFiles creates the database file at path 0600 if it does not exist
// (SQLite would create it 0644 less the umask), and tightens an existing
// one, or a sidecar, that others may read, saying so in the log.
func secureFiles(path string, log *slog.Logger) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, fileMode)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	f.Close()
	for _, p := range append([]string{path}, withSuffixes(path, sqliteSidecars)...) {
		fi, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("%w", err)
		}
		if fi.Mode().Perm()&^fileMode == 0 {
			continue
		}
		if err := os.Chmod(p, fileMode); err != nil {
			return fmt.Errorf("%s is accessible to other users (mode %v) and could not be made 0600: %w",
				p, fi.Mode().Perm(), err)
		}
		log.Warn("store file was accessible to other users; made it 0600", "file", p, "was", fi.Mode().Perm().String())
	}
	return nil
}

func withSuffixes(path string, suffixes []string) []string {
	out := make([]string, len(suffixes))
	for i, s := range suffixes {
		out[i] = path + s
	}
	return out
}
