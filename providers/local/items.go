package local

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/toolserver"
	"github.com/forgetools/forgetools/toolserver/notify"
)

// item is a row of local_items: an issue, or a pull request with its refs,
// and the name of its repository as it was created (its spelling may differ
// from the one a call used).
type item struct {
	repoID      int64
	repo        string
	number      int64
	kind        string
	title       string
	body        string
	state       string
	author      string
	headRef     sql.NullString
	baseRef     sql.NullString
	draft       bool
	milestone   sql.NullInt64
	stateReason string
	createdAt   int64 // unix microseconds
	updatedAt   int64
	closedAt    sql.NullInt64
	// headSHA and mergeSHA are set when a pull request is merged.
	headSHA  string
	mergeSHA string
	// requestKey is the client_request_id a create was made with, if any.
	requestKey sql.NullString
}

// itemColumns reads an item from local_items i joined with local_repos r.
const itemColumns = `i.repo_id, r.name, i.number, i.kind, i.title, i.body, i.state, i.author, i.head_ref, i.base_ref,
	i.draft, i.milestone, i.state_reason, i.created_at, i.updated_at, i.closed_at, i.head_sha, i.merge_sha`

func (it *item) dest() []any {
	return []any{&it.repoID, &it.repo, &it.number, &it.kind, &it.title, &it.body, &it.state, &it.author,
		&it.headRef, &it.baseRef, &it.draft, &it.milestone, &it.stateReason, &it.createdAt, &it.updatedAt, &it.closedAt,
		&it.headSHA, &it.mergeSHA}
}

// findItem reads the artifact numbered n in repo, which must be of kind want.
//
// The number is compared through a CAST here and in the conversation and
// review reads: against a bare parameter, in a query that also joins or
// orders, SQLite plans with the parameter's value and recompiles the
// statement whenever the number changes (measured: a quarter of a read's
// CPU); cast, one plan serves every number and the prepared statement is
// reused.
func findItem(ctx context.Context, q querier, repo string, n uint64, want string) (*item, error) {
	num, ok := dbNumber(n)
	if !ok {
		return nil, notFound(want, repo, n)
	}
	var it item
	err := q.QueryRowContext(ctx, `SELECT `+itemColumns+`
		FROM local_items i JOIN local_repos r ON r.id = i.repo_id
		WHERE r.name_key = $1 AND i.number = CAST($2 AS BIGINT)`, repoKey(repo), num).Scan(it.dest()...)
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
// it (without title, body and author). want "" accepts either kind. It
// writes before it reads, as write requires.
func (f *Forge) touchItem(ctx context.Context, tx *sql.Tx, repo string, n uint64, want string) (*item, error) {
	num, ok := dbNumber(n)
	if !ok {
		return nil, notFound(want, repo, n)
	}
	it := &item{number: num}
	err := tx.QueryRowContext(ctx, `UPDATE local_items SET updated_at = $1
		WHERE repo_id = (SELECT id FROM local_repos WHERE name_key = $2) AND number = $3
		RETURNING repo_id, kind, state, head_ref, base_ref`, f.now().UnixMicro(), repoKey(repo), num).
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
	err = tx.QueryRowContext(ctx, `SELECT name FROM local_repos WHERE id = $1`, it.repoID).Scan(&it.repo)
	return it, err
}

// allocate creates repo on first use (in the spelling given) and takes its
// next number for it, in one statement: the counter row is inserted at 1 or
// bumped. It fills in it.repoID, it.repo (the spelling the repository was
// created with) and it.number. Concurrent creates queue on that row (a row
// lock on PostgreSQL, the write lock on SQLite) and get distinct
// consecutive numbers. It returns the repository's default branch.
func (f *Forge) allocate(ctx context.Context, tx *sql.Tx, repo string, it *item) (defaultBranch string, err error) {
	err = tx.QueryRowContext(ctx, `INSERT INTO local_repos (name, name_key, default_branch, last_number, created_at)
		VALUES ($1, $2, $3, 1, $4)
		ON CONFLICT (name_key) DO UPDATE SET last_number = local_repos.last_number + 1
		RETURNING id, name, last_number, default_branch`, repo, repoKey(repo), f.defaultBranch, f.now().UnixMicro()).
		Scan(&it.repoID, &it.repo, &it.number, &defaultBranch)
	return defaultBranch, err
}

// addRepo records repo, in the spelling given, with the forge's default
// branch, unless a repository of that name in any spelling exists.
func (f *Forge) addRepo(ctx context.Context, tx *sql.Tx, repo string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO local_repos (name, name_key, default_branch, last_number, created_at)
		VALUES ($1, $2, $3, 0, $4) ON CONFLICT (name_key) DO NOTHING`,
		repo, repoKey(repo), f.defaultBranch, f.now().UnixMicro())
	return err
}

// made finds what an earlier create by c's account with c's
// client_request_id made, so repeating a create returns it instead of
// making a second artifact (the gateway's memo answers retries, but a
// gateway dying between this forge's commit and its memo's would make its
// retry call again). It returns nil when there is none or c has no key.
// The caller holds repo's counter row (allocate ran first), so a create
// with the same key that is still in flight has committed by now.
func (f *Forge) made(ctx context.Context, tx *sql.Tx, c toolserver.Call, kind, repo string) (*item, error) {
	if c.ClientRequestID == "" {
		return nil, nil
	}
	var it item
	err := tx.QueryRowContext(ctx, `SELECT `+itemColumns+` FROM local_items i JOIN local_repos r ON r.id = i.repo_id
		WHERE i.author = $1 AND i.request_key = $2`, author(c), c.ClientRequestID).Scan(it.dest()...)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, err
	case it.kind != kind || repoKey(it.repo) != repoKey(repo):
		return nil, toolserver.InvalidArgument("client_request_id %q already made #%d in %s; a new create needs a new id", c.ClientRequestID, it.number, it.repo)
	}
	return &it, nil
}

// keyOf is the request key a create by c stores.
func keyOf(c toolserver.Call) sql.NullString {
	return sql.NullString{String: c.ClientRequestID, Valid: c.ClientRequestID != ""}
}

// comment posts a conversation comment on an issue or pull request.
func (f *Forge) comment(ctx context.Context, c toolserver.Call, kind, repo string, n uint64, body string) (*forgev1.CommentRef, error) {
	if err := checkRepo(repo); err != nil {
		return nil, err
	}
	if strings.TrimSpace(body) == "" {
		return nil, toolserver.InvalidArgument("comment body is empty")
	}
	var id int64
	var it *item
	err := f.write(ctx, func(tx *sql.Tx) (err error) {
		if it, err = f.touchItem(ctx, tx, repo, n, kind); err != nil {
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
	url := f.commentURL(kind, it.repo, it.number, sid)
	ev := f.event(forgev1.EventType_EVENT_TYPE_COMMENT, author(c))
	ev.Body, ev.Url, ev.ArtifactId = body, url, sid
	f.emit(ctx, it, notify.Change{Event: ev, Key: "comment:" + sid, Account: c.Account})
	return &forgev1.CommentRef{
		Forge:     f.Ref(),
		Repo:      it.repo,
		Number:    n,
		CommentId: sid,
		Url:       url,
	}, nil
}
