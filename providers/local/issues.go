package local

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/handler"
)

// Listing bounds, as the list_issues tool documents them.
const (
	defaultListLimit = 30
	maxListLimit     = 100
)

// GetIssue reads an issue with its labels and comments.
func (f *Forge) GetIssue(ctx context.Context, _ handler.Call, req *gatewayv1.GetIssueRequest) (*forgev1.Issue, error) {
	repo := req.GetRepo()
	if err := checkRepo(repo); err != nil {
		return nil, err
	}
	var out *forgev1.Issue
	err := f.read(ctx, func(tx *sql.Tx) error {
		it, err := findItem(ctx, tx, repo, req.GetIssueNumber(), kindIssue)
		if err != nil {
			return err
		}
		labels, err := labelsOf(ctx, tx, it.repoID, it.number, it.number)
		if err != nil {
			return err
		}
		out = f.issue(repo, it, labels[it.number])
		out.Comments, err = f.comments(ctx, tx, repo, it)
		return err
	})
	return out, err
}

// ListIssues lists issues, never pull requests, newest (highest number)
// first. Labels match case-insensitively, and an issue must carry them all.
func (f *Forge) ListIssues(ctx context.Context, _ handler.Call, req *gatewayv1.ListIssuesRequest) (*forgev1.IssueList, error) {
	repo := req.GetRepo()
	if err := checkRepo(repo); err != nil {
		return nil, err
	}
	query := `SELECT ` + itemColumns + ` FROM local_items i JOIN local_repos r ON r.id = i.repo_id
		WHERE r.name = $1 AND i.kind = 'issue'`
	args := []any{repo}
	switch req.GetState() {
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_UNSPECIFIED, gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_OPEN:
		query += ` AND i.state = 'open'`
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_CLOSED:
		query += ` AND i.state = 'closed'`
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL:
	default:
		return nil, handler.Errorf(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "unknown issue state filter %d", req.GetState())
	}
	for _, l := range dedupLabels(req.GetLabels()) {
		args = append(args, strings.ToLower(l))
		query += ` AND EXISTS (SELECT 1 FROM local_labels l WHERE l.repo_id = i.repo_id AND l.number = i.number
			AND l.name_key = $` + strconv.Itoa(len(args)) + `)`
	}
	limit := defaultListLimit
	if req.Limit != nil && req.GetLimit() > 0 {
		limit = min(int(req.GetLimit()), maxListLimit)
	}
	args = append(args, limit)
	query += ` ORDER BY i.number DESC LIMIT $` + strconv.Itoa(len(args))

	out := &forgev1.IssueList{}
	err := f.read(ctx, func(tx *sql.Tx) error {
		items, err := scanItems(ctx, tx, query, args...)
		if err != nil || len(items) == 0 {
			return err
		}
		// Newest first: the page spans last..first by number.
		labels, err := labelsOf(ctx, tx, items[0].repoID, items[len(items)-1].number, items[0].number)
		if err != nil {
			return err
		}
		for _, it := range items {
			out.Issues = append(out.Issues, f.issue(repo, it, labels[it.number]))
		}
		return nil
	})
	return out, err
}

// CreateIssue opens an issue, creating the repository on first use.
func (f *Forge) CreateIssue(ctx context.Context, c handler.Call, req *gatewayv1.CreateIssueRequest) (*forgev1.Issue, error) {
	repo := req.GetRepo()
	if err := checkRepo(repo); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.GetTitle()) == "" {
		return nil, handler.Errorf(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "issue title is empty")
	}
	labels := dedupLabels(req.GetLabels())
	for _, l := range labels {
		if strings.TrimSpace(l) == "" {
			return nil, handler.Errorf(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "label %q is blank", l)
		}
	}
	it := &item{kind: kindIssue, title: req.GetTitle(), body: req.GetBody(), state: "open", author: author(c)}
	err := f.write(ctx, func(tx *sql.Tx) error {
		var err error
		if it.repoID, it.number, _, err = f.allocate(ctx, tx, repo); err != nil {
			return err
		}
		if err := f.insertItem(ctx, tx, it); err != nil {
			return err
		}
		return insertLabels(ctx, tx, it, labels)
	})
	if err != nil {
		return nil, err
	}
	return f.issue(repo, it, labels), nil
}

// CommentOnIssue posts a comment on an issue (not a pull request).
func (f *Forge) CommentOnIssue(ctx context.Context, c handler.Call, req *gatewayv1.CommentOnIssueRequest) (*forgev1.CommentRef, error) {
	return f.comment(ctx, c, kindIssue, req.GetRepo(), req.GetIssueNumber(), req.GetBody())
}

func (f *Forge) issue(repo string, it *item, labels []string) *forgev1.Issue {
	return &forgev1.Issue{
		Forge:      f.Ref(),
		Repo:       repo,
		Number:     uint64(it.number),
		Identifier: identifier(repo, it.number),
		State:      it.state,
		Url:        f.itemURL(kindIssue, repo, it.number),
		Labels:     labels,
		Author:     it.author,
		Title:      it.title,
		Body:       it.body,
	}
}

func scanItems(ctx context.Context, tx *sql.Tx, query string, args ...any) ([]*item, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*item
	for rows.Next() {
		it := &item{}
		if err := rows.Scan(it.dest()...); err != nil {
			return nil, err
		}
		out = append(out, it)
	}
	return out, rows.Err()
}

// insertLabels gives a new artifact its labels, in order, in one
// statement.
func insertLabels(ctx context.Context, tx *sql.Tx, it *item, labels []string) error {
	if len(labels) == 0 {
		return nil
	}
	query := `INSERT INTO local_labels (repo_id, number, position, name, name_key) VALUES `
	args := []any{it.repoID, it.number}
	for pos, l := range labels {
		if pos > 0 {
			query += ", "
		}
		n := len(args)
		query += fmt.Sprintf("($1, $2, $%d, $%d, $%d)", n+1, n+2, n+3)
		args = append(args, pos, l, strings.ToLower(l))
	}
	_, err := tx.ExecContext(ctx, query, args...)
	return err
}

// labelsOf reads the labels of the repository's artifacts numbered from..to,
// in the order they were given.
func labelsOf(ctx context.Context, tx *sql.Tx, repoID, from, to int64) (map[int64][]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT number, name FROM local_labels
		WHERE repo_id = $1 AND number BETWEEN $2 AND $3 ORDER BY number, position`, repoID, from, to)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64][]string{}
	for rows.Next() {
		var n int64
		var name string
		if err := rows.Scan(&n, &name); err != nil {
			return nil, err
		}
		out[n] = append(out[n], name)
	}
	return out, rows.Err()
}

// dedupLabels drops labels that repeat an earlier one case-insensitively, as
// forges treat "Bug" and "bug" as one label. Matching compares name_key, the
// label lowercased here rather than by the database, whose lower() differs
// between SQLite (ASCII only) and PostgreSQL.
func dedupLabels(labels []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range labels {
		if k := strings.ToLower(l); !seen[k] {
			seen[k] = true
			out = append(out, l)
		}
	}
	return out
}
