package local

import (
	"context"
	"database/sql"
	"strings"

	"github.com/forgetools/forgetools/toolserver"
)

// itemLists are the name lists an artifact carries: its labels and its
// assignees, each in the order given.
type itemLists struct {
	labels    []string
	assignees []string
}

// listTables are where each list is stored: (table, name column, key
// column). Names are fixed here, never taken from a request.
var listTables = []listTable{
	{"local_labels", "name", "name_key", func(l *itemLists) *[]string { return &l.labels }},
	{"local_assignees", "login", "login_key", func(l *itemLists) *[]string { return &l.assignees }},
}

// listTable is where one list is stored.
type listTable struct {
	table, name, key string
	get              func(*itemLists) *[]string
}

// check refuses a blank name in any list.
func (l itemLists) check() error {
	for _, t := range listTables {
		for _, n := range *t.get(&l) {
			if strings.TrimSpace(n) == "" {
				return toolserver.InvalidArgument("%s: %q is blank",
					strings.TrimPrefix(t.table, "local_"), n)
			}
		}
	}
	return nil
}

// store writes the lists of artifact number. A nil list is left as it is;
// a given one replaces what was stored.
func (l itemLists) store(ctx context.Context, tx *sql.Tx, repoID, number int64) error {
	for _, t := range listTables {
		names := *t.get(&l)
		if names == nil {
			continue
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+t.table+` WHERE repo_id = $1 AND number = $2`, repoID, number); err != nil {
			return err
		}
		for pos, n := range names {
			if _, err := tx.ExecContext(ctx, `INSERT INTO `+t.table+` (repo_id, number, position, `+t.name+`, `+t.key+`)
				VALUES ($1, $2, $3, $4, $5)`, repoID, number, pos, n, strings.ToLower(n)); err != nil {
				return err
			}
		}
	}
	return nil
}

// listsOf reads the lists of the repository's artifacts numbered from..to.
func listsOf(ctx context.Context, tx *sql.Tx, repoID, from, to int64) (map[int64]itemLists, error) {
	out := map[int64]itemLists{}
	for _, t := range listTables {
		rows, err := tx.QueryContext(ctx, `SELECT number, `+t.name+` FROM `+t.table+`
			WHERE repo_id = $1 AND number BETWEEN $2 AND $3 ORDER BY number, position`, repoID, from, to)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var n int64
			var name string
			if err := rows.Scan(&n, &name); err != nil {
				rows.Close()
				return nil, err
			}
			l := out[n]
			*t.get(&l) = append(*t.get(&l), name)
			out[n] = l
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// dedupNames drops names that repeat an earlier one case-insensitively, as
// forges treat "Bug" and "bug" as one label (and logins ignore case).
// Matching compares the key column, lowercased here rather than by the
// database, whose lower() differs between SQLite (ASCII only) and
// PostgreSQL. A nil list stays nil: "not given".
func dedupNames(names []string) []string {
	if names == nil {
		return nil
	}
	out := []string{}
	seen := map[string]bool{}
	for _, n := range names {
		if k := strings.ToLower(n); !seen[k] {
			seen[k] = true
			out = append(out, n)
		}
	}
	return out
}
