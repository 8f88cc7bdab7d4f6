package local

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/handler"
)

// item is a row of local_items: an issue, or a pull request with its refs.
type item struct {
	repoID  int64
	number  int64
	kind    string
	title   string
	body    string
	state   string
	author  string
	headRef sql.NullString
	baseRef sql.NullString
	draft   bool
}

const itemColumns = `i.repo_id, i.number, i.kind, i.title, i.body, i.state, i.author, i.head_ref, i.base_ref, i.draft`

func (it *item) dest() []any {
	return []any{&it.repoID, &it.number, &it.kind, &it.title, &it.body, &it.state, &it.author,
		&it.headRef, &it.baseRef, &it.draft}
}

// findItem reads the artifact numbered n in repo, which must be of kind want.
//
// The number is compared through a CAST here and in the conversation and
// review reads: against a bare parameter, in a query that also joins or
// orders, SQLite plans with the parameter's value and recompiles the
// statement whenever the number changes (measured: a quarter of a read's
// CPU); cast, one plan serves every number and the prepared statement is
// reused.
func findItem(ctx context.Context, tx *sql.Tx, repo string, n uint64, want string) (*item, error) {
	num, ok := dbNumber(n)
	if !ok {
		return nil, notFound(want, repo, n)
	}
	var it item
	err := tx.QueryRowContext(ctx, `SELECT `+itemColumns+`
		FROM local_items i JOIN local_repos r ON r.id = i.repo_id
		WHERE r.name = $1 AND i.number = CAST($2 AS BIGINT)`, repo, num).Scan(it.dest()...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound(want, repo, n)
	}
	if err != nil {
		return nil, err
	}
	if it.kind != want {
		return nil, wrongKind(want, repo, n)
	}
	return &it, nil
}

// touchItem marks the artifact numbered n in repo as updated now and returns
// it (without title and body). want "" accepts either kind. It writes before
// it reads, as write requires.
func (f *Forge) touchItem(ctx context.Context, tx *sql.Tx, repo string, n uint64, want string) (*item, error) {
	num, ok := dbNumber(n)
	if !ok {
		return nil, notFound(want, repo, n)
	}
	it := &item{number: num}
	err := tx.QueryRowContext(ctx, `UPDATE local_items SET updated_at = $1
		WHERE repo_id = (SELECT id FROM local_repos WHERE name = $2) AND number = $3
		RETURNING repo_id, kind, state, head_ref, base_ref`, f.now().UnixMicro(), repo, num).
		Scan(&it.repoID, &it.kind, &it.state, &it.headRef, &it.baseRef)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound(want, repo, n)
	}
	if err != nil {
		return nil, err
	}
	if want != "" && it.kind != want {
		return nil, wrongKind(want, repo, n)
	}
	return it, nil
}

// allocate creates repo on first use and takes its next number, in one
// statement: the counter row is inserted at 1 or bumped. Concurrent creates
// queue on that row (a row lock on PostgreSQL, the write lock on SQLite)
// and get distinct consecutive numbers.
func (f *Forge) allocate(ctx context.Context, tx *sql.Tx, repo string) (repoID, number int64, defaultBranch string, err error) {
	err = tx.QueryRowContext(ctx, `INSERT INTO local_repos (name, default_branch, last_number, created_at)
		VALUES ($1, $2, 1, $3)
		ON CONFLICT (name) DO UPDATE SET last_number = local_repos.last_number + 1
		RETURNING id, last_number, default_branch`, repo, f.defaultBranch, f.now().UnixMicro()).
		Scan(&repoID, &number, &defaultBranch)
	return repoID, number, defaultBranch, err
}

// insertItem stores a new artifact under the number allocate returned.
func (f *Forge) insertItem(ctx context.Context, tx *sql.Tx, it *item) error {
	now := f.now().UnixMicro()
	_, err := tx.ExecContext(ctx, `INSERT INTO local_items
		(repo_id, number, kind, title, body, state, author, head_ref, base_ref, draft, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)`,
		it.repoID, it.number, it.kind, it.title, it.body, it.state, it.author, it.headRef, it.baseRef, it.draft, now)
	return err
}

// comment posts a conversation comment on an issue or pull request.
func (f *Forge) comment(ctx context.Context, c handler.Call, kind, repo string, n uint64, body string) (*forgev1.CommentRef, error) {
	if err := checkRepo(repo); err != nil {
		return nil, err
	}
	if strings.TrimSpace(body) == "" {
		return nil, handler.Errorf(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "comment body is empty")
	}
	var id int64
	err := f.write(ctx, func(tx *sql.Tx) error {
		it, err := f.touchItem(ctx, tx, repo, n, kind)
		if err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `INSERT INTO local_comments (repo_id, number, author, body, created_at)
			VALUES ($1, $2, $3, $4, $5) RETURNING id`,
			it.repoID, it.number, author(c), body, f.now().UnixMicro()).Scan(&id)
	})
	if err != nil {
		return nil, err
	}
	sid := strconv.FormatInt(id, 10)
	return &forgev1.CommentRef{
		Forge:     f.Ref(),
		Repo:      repo,
		Number:    n,
		CommentId: sid,
		Url:       f.commentURL(kind, repo, int64(n), sid),
	}, nil
}

// comments reads an artifact's conversation, oldest first.
func (f *Forge) comments(ctx context.Context, tx *sql.Tx, repo string, it *item) ([]*forgev1.Comment, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, author, body FROM local_comments
		WHERE repo_id = $1 AND number = CAST($2 AS BIGINT) ORDER BY id`, it.repoID, it.number)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*forgev1.Comment
	for rows.Next() {
		var id int64
		cm := &forgev1.Comment{}
		if err := rows.Scan(&id, &cm.Author, &cm.Body); err != nil {
			return nil, err
		}
		cm.Url = f.commentURL(it.kind, repo, it.number, strconv.FormatInt(id, 10))
		out = append(out, cm)
	}
	return out, rows.Err()
}
