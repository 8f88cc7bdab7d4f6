package local

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"github.com/forgetools/forgetools/toolserver"
)

// createOne is create on PostgreSQL for a kind with no check of its own
// (an issue): the repository's next number, the key's earlier create and
// the artifact with its lists in one statement, one round trip where it
// was three. Creates queue in the gateway's committer, which runs them one
// after another in one transaction, so every round trip taken out of a
// create is taken out of every create behind it.
//
// The statement takes a number only when no artifact with c's key exists
// (the number stays dense) and reports none then; made reads the earlier
// one. Unlike create, the earlier artifact is looked for in the
// statement's snapshot, before the counter row is locked, so a create of
// the same key committing meanwhile is not seen; the unique index on
// (author, request_key) still refuses a second artifact, and the gateway's
// memo (in whose transaction this runs, see useOne) lets only one attempt
// of a key in at a time.
func (f *Forge) createOne(ctx context.Context, tx *sql.Tx, c toolserver.Call, repo string, it *item, lists itemLists) (earlier *item, err error) {
	repoCreated := f.now().UnixMicro() // read first, as allocate does
	it.createdAt = f.now().UnixMicro()
	it.updatedAt = it.createdAt
	args := []any{repo, repoKey(repo), f.defaultBranch, repoCreated,
		it.kind, it.title, it.body, it.state, it.author, it.headRef, it.baseRef, it.draft, it.milestone, it.requestKey, it.createdAt}
	var b strings.Builder
	// $9 and $14 are the author and the key; a NULL key matches nothing.
	b.WriteString(`WITH n AS (INSERT INTO local_repos (name, name_key, default_branch, last_number, created_at)
		SELECT $1, $2, $3, 1, $4
		WHERE NOT EXISTS (SELECT 1 FROM local_items WHERE author = $9 AND request_key = $14)
		ON CONFLICT (name_key) DO UPDATE SET last_number = local_repos.last_number + 1
		RETURNING id, name, last_number),
	item AS (INSERT INTO local_items
		(repo_id, number, kind, title, body, state, author, head_ref, base_ref, draft, milestone, request_key,
		created_at, updated_at)
		SELECT n.id, n.last_number, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15 FROM n)`)
	for i, t := range listTables {
		if names := *t.get(&lists); len(names) > 0 {
			b.WriteString(", l" + strconv.Itoa(i) + " AS (INSERT INTO " + t.table + " (repo_id, number, position, " + t.name + ", " + t.key + ")" +
				" SELECT n.id, n.last_number, v.p, v.n, v.k FROM n, (VALUES " + listRows(names, &args, "", "::bigint", "::text") + ") v (p, n, k))")
		}
	}
	b.WriteString(" SELECT id, name, last_number FROM n")
	err = tx.QueryRowContext(ctx, b.String(), args...).Scan(&it.repoID, &it.repo, &it.number)
	if errors.Is(err, sql.ErrNoRows) {
		// The key made an artifact already (made says which, or
		// refuses a key reused for another kind or repository).
		if earlier, err = f.made(ctx, tx, c, it.kind, repo); err == nil && earlier == nil {
			err = errors.New("the create took no number, yet its key made nothing")
		}
		return earlier, err
	}
	return nil, err
}

// useOne reports whether a create may be made by createOne: on
// PostgreSQL, for a kind with no check, and either without a key or in the
// gateway's transaction, whose memo holds the key (a create on the forge's
// own transaction keeps create's look-up under the counter row's lock,
// which sees a same-key create that committed while it waited).
func (f *Forge) useOne(ctx context.Context, c toolserver.Call, check func() error) bool {
	return f.dialect == DialectPostgres && check == nil &&
		(c.ClientRequestID == "" || toolserver.TxOn(ctx, f.db) != nil)
}

// listRows is the VALUES rows (lead, position, name, key) of names,
// appending their parameters to args; casts (for the position, then the
// texts) type rows that are not inserted directly.
func listRows(names []string, args *[]any, lead, castPos, castText string) string {
	var b strings.Builder
	for pos, n := range names {
		if pos > 0 {
			b.WriteString(", ")
		}
		*args = append(*args, pos, n, strings.ToLower(n))
		k := len(*args)
		b.WriteString("(" + lead + "$" + strconv.Itoa(k-2) + castPos + ", $" + strconv.Itoa(k-1) + castText + ", $" + strconv.Itoa(k) + castText + ")")
	}
	return b.String()
}
