package local

import (
	"context"
	"database/sql"
	"strconv"
	"strings"

	"github.com/forgetools/forgetools/toolserver"
)

// create makes the artifact it in repo with its lists, in tx: it takes
// the next number (allocate, the first write, which holds the counter row
// to the commit), returns what an earlier create with c's key made
// instead if there is one, runs check (the kind's own refusals, which see
// it's number and repository) and stores the artifact.
//
// On PostgreSQL that is three round trips, two without a key (it was
// five plus one per label and assignee: a lock, the key's read, the
// number, the item, and each list deleted and inserted row by row): the
// item and its lists go in one statement; an issue in the gateway's
// transaction, or without a key, is one statement in all (createOne). On
// SQLite each list is one multi-row INSERT after the item's.
func (f *Forge) create(ctx context.Context, tx *sql.Tx, c toolserver.Call, repo string, it *item, lists itemLists, check func() error) (earlier *item, err error) {
	if f.useOne(ctx, c, check) {
		return f.createOne(ctx, tx, c, repo, it, lists)
	}
	if _, err := f.allocate(ctx, tx, repo, it); err != nil {
		return nil, err
	}
	if earlier, err = f.made(ctx, tx, c, it.kind, repo); err != nil || earlier != nil {
		if err == nil {
			// The earlier create keeps its number: give this one back, so
			// a replay leaves no gap (the row is held, no one took a later one).
			_, err = tx.ExecContext(ctx, `UPDATE local_repos SET last_number = last_number - 1 WHERE id = $1`, it.repoID)
		}
		return earlier, err
	}
	if check != nil {
		if err := check(); err != nil {
			return nil, err
		}
	}
	it.createdAt = f.now().UnixMicro()
	it.updatedAt = it.createdAt
	args := []any{it.repoID, it.number, it.kind, it.title, it.body, it.state, it.author, it.headRef, it.baseRef, it.draft,
		it.milestone, it.requestKey, it.createdAt}
	insert := `INSERT INTO local_items
		(repo_id, number, kind, title, body, state, author, head_ref, base_ref, draft, milestone, request_key,
		created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)`
	if f.dialect == DialectPostgres {
		// One statement: each list's INSERT in a WITH before the item's.
		// PostgreSQL checks the lists' foreign keys at the end of the
		// statement, when the item's row is there.
		var ctes []string
		for i, t := range listTables {
			if names := *t.get(&lists); len(names) > 0 {
				ctes = append(ctes, "l"+strconv.Itoa(i)+" AS ("+listInsert(t, names, &args)+")")
			}
		}
		if len(ctes) > 0 {
			insert = "WITH " + strings.Join(ctes, ", ") + " " + insert
		}
		_, err = tx.ExecContext(ctx, insert, args...)
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, insert, args...); err != nil {
		return nil, err
	}
	for _, t := range listTables {
		if names := *t.get(&lists); len(names) > 0 {
			args := []any{it.repoID, it.number}
			if _, err := tx.ExecContext(ctx, listInsert(t, names, &args), args...); err != nil {
				return nil, err
			}
		}
	}
	return nil, nil
}

// listInsert is one INSERT of names into a list table for the artifact
// whose repository and number are $1 and $2, appending the names'
// parameters to args.
func listInsert(t listTable, names []string, args *[]any) string {
	return "INSERT INTO " + t.table + " (repo_id, number, position, " + t.name + ", " + t.key + ") VALUES " +
		listRows(names, args, "$1, $2, ", "", "")
}
