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

// GetPullRequest reads a pull request with its conversation and reviews. The
// local forge runs no checks, so checks_state is always empty.
func (f *Forge) GetPullRequest(ctx context.Context, _ handler.Call, req *gatewayv1.GetPullRequestRequest) (*forgev1.PullRequest, error) {
	repo := req.GetRepo()
	if err := checkRepo(repo); err != nil {
		return nil, err
	}
	var out *forgev1.PullRequest
	err := f.read(ctx, func(tx *sql.Tx) error {
		it, err := findItem(ctx, tx, repo, req.GetPullNumber(), kindPull)
		if err != nil {
			return err
		}
		out = f.pullRequest(repo, it)
		if out.Comments, err = f.comments(ctx, tx, repo, it); err != nil {
			return err
		}
		out.Reviews, err = f.reviews(ctx, tx, repo, it)
		return err
	})
	return out, err
}

// CreatePullRequest opens a pull request from head_ref into base_ref (the
// repository's default branch when omitted). The local forge has no git, so
// any well-formed branch counts as pushed. Like GitHub, it refuses a second
// open pull request for the same head and base.
func (f *Forge) CreatePullRequest(ctx context.Context, c handler.Call, req *gatewayv1.CreatePullRequestRequest) (*forgev1.PullRequest, error) {
	repo, head, base := req.GetRepo(), req.GetHeadRef(), req.GetBaseRef()
	if err := checkRepo(repo); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.GetTitle()) == "" {
		return nil, handler.Errorf(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "pull request title is empty")
	}
	if err := checkBranch("head_ref", head); err != nil {
		return nil, err
	}
	if base != "" {
		if err := checkBranch("base_ref", base); err != nil {
			return nil, err
		}
	}
	it := &item{kind: kindPull, title: req.GetTitle(), body: req.GetBody(), state: "open", author: author(c),
		draft: req.GetDraft()}
	err := f.write(ctx, func(tx *sql.Tx) error {
		var defaultBranch string
		var err error
		if it.repoID, it.number, defaultBranch, err = f.allocate(ctx, tx, repo); err != nil {
			return err
		}
		if base == "" {
			base = defaultBranch
		}
		if head == base {
			return handler.Errorf(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
				"head_ref and base_ref are both %q: a pull request merges one branch into another", head)
		}
		if err := checkNotOpen(ctx, tx, repo, it.repoID, head, base); err != nil {
			return err
		}
		it.headRef = sql.NullString{String: head, Valid: true}
		it.baseRef = sql.NullString{String: base, Valid: true}
		return f.insertItem(ctx, tx, it)
	})
	if err != nil {
		return nil, err
	}
	return f.pullRequest(repo, it), nil
}

// CommentOnPullRequest posts a conversation comment (not a review) on a pull
// request.
func (f *Forge) CommentOnPullRequest(ctx context.Context, c handler.Call, req *gatewayv1.CommentOnPullRequestRequest) (*forgev1.CommentRef, error) {
	return f.comment(ctx, c, kindPull, req.GetRepo(), req.GetPullNumber(), req.GetBody())
}

// checkNotOpen refuses a pull request from head into base while another is
// open (GitHub's 422 "A pull request already exists"). The caller holds the
// repository's counter row, so no other create can race between this check
// and its insert.
func checkNotOpen(ctx context.Context, tx *sql.Tx, repo string, repoID int64, head, base string) error {
	var open int64
	err := tx.QueryRowContext(ctx, `SELECT number FROM local_items
		WHERE repo_id = $1 AND kind = 'pull' AND state = 'open' AND head_ref = $2 AND base_ref = $3`,
		repoID, head, base).Scan(&open)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	return handler.Errorf(gatewayv1.ErrorCode_ERROR_CODE_ALREADY_EXISTS,
		"a pull request from %q into %q is already open in %s: #%d", head, base, repo, open)
}

func (f *Forge) pullRequest(repo string, it *item) *forgev1.PullRequest {
	return &forgev1.PullRequest{
		Forge:   f.Ref(),
		Repo:    repo,
		Number:  uint64(it.number),
		State:   it.state,
		Url:     f.itemURL(kindPull, repo, it.number),
		HeadRef: it.headRef.String,
		BaseRef: it.baseRef.String,
		Draft:   it.draft,
		Author:  it.author,
		Title:   it.title,
		Body:    it.body,
	}
}

// reviews reads a pull request's reviews, oldest first, each with its inline
// comments in the order they were submitted.
func (f *Forge) reviews(ctx context.Context, tx *sql.Tx, repo string, it *item) ([]*forgev1.Review, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, author, verdict, body FROM local_reviews
		WHERE repo_id = $1 AND number = CAST($2 AS BIGINT) ORDER BY id`, it.repoID, it.number)
	if err != nil {
		return nil, err
	}
	var out []*forgev1.Review
	byID := map[int64]*forgev1.Review{}
	for rows.Next() {
		var id int64
		r := &forgev1.Review{}
		if err := rows.Scan(&id, &r.Author, &r.Verdict, &r.Body); err != nil {
			rows.Close()
			return nil, err
		}
		r.Url = f.reviewURL(repo, it.number, strconv.FormatInt(id, 10))
		byID[id] = r
		out = append(out, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(out) == 0 {
		return out, err
	}

	rows, err = tx.QueryContext(ctx, `SELECT c.review_id, c.path, c.line, c.side, c.body
		FROM local_review_comments c JOIN local_reviews r ON r.id = c.review_id
		WHERE r.repo_id = $1 AND r.number = CAST($2 AS BIGINT) ORDER BY c.id`, it.repoID, it.number)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id, line int64
		rc := &forgev1.ReviewComment{}
		if err := rows.Scan(&id, &rc.Path, &line, &rc.Side, &rc.Body); err != nil {
			return nil, err
		}
		r := byID[id]
		rc.Line, rc.Author = uint64(line), r.Author
		r.Comments = append(r.Comments, rc)
	}
	return out, rows.Err()
}
