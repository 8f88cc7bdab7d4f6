package local

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/toolserver"
)

// Listing bounds, as the list_issues tool documents them.
const (
	defaultListLimit = 30
	maxListLimit     = 100
)

// listLimit is a listing's limit: the request's, capped, else the default.
func listLimit(limit *uint32) int {
	if limit != nil && *limit > 0 {
		return min(int(*limit), maxListLimit)
	}
	return defaultListLimit
}

// GetIssue reads an issue with its labels, assignees and comments.
func (f *Forge) GetIssue(ctx context.Context, _ toolserver.Call, req *gatewayv1.GetIssueRequest) (*forgev1.Issue, error) {
	repo := req.GetRepo()
	if err := checkRepo(repo); err != nil {
		return nil, err
	}
	var out *forgev1.Issue
	err := f.readOne(ctx, func(q querier) (err error) {
		out, err = f.loadIssue(ctx, q, repo, req.GetIssueNumber())
		return err
	})
	return out, err
}

// loadIssue reads issue n of repo whole, in one statement.
func (f *Forge) loadIssue(ctx context.Context, q querier, repo string, n uint64) (*forgev1.Issue, error) {
	num, ok := dbNumber(n)
	if !ok {
		return nil, notFound(kindIssue, repo, n)
	}
	var it listed
	var comments string
	var total int
	err := q.QueryRowContext(ctx, reads[f.dialect].item, repoKey(repo), num, shown.IssueComments).
		Scan(append(it.dest(), &comments, &total)...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound(kindIssue, repo, n)
	}
	if err != nil {
		return nil, err
	}
	if it.kind != kindIssue {
		return nil, wrongKind(kindIssue, repo, n)
	}
	lists, err := it.lists()
	if err != nil {
		return nil, err
	}
	out := f.issue(&it.item, lists)
	out.Comments, out.CommentsTotal, err = f.decodeComments(&it.item, comments, total)
	return out, err
}

// ListIssues lists issues, never pull requests, newest (highest number)
// first, a page at a time (keyset on the number). Labels match
// case-insensitively, and an issue must carry them all.
func (f *Forge) ListIssues(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListIssuesRequest) (*forgev1.IssueList, error) {
	repo := req.GetRepo()
	if err := checkRepo(repo); err != nil {
		return nil, err
	}
	query := reads[f.dialect].listed + ` WHERE r.name_key = $1 AND i.kind = 'issue'`
	args := []any{repoKey(repo)}
	switch req.GetState() {
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_UNSPECIFIED, gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_OPEN:
		query += ` AND i.state = 'open'`
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_CLOSED:
		query += ` AND i.state = 'closed'`
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL:
	default:
		return nil, toolserver.InvalidArgument("unknown issue state filter %d", req.GetState())
	}
	for _, l := range dedupNames(req.GetLabels()) {
		args = append(args, strings.ToLower(l))
		query += ` AND EXISTS (SELECT 1 FROM local_labels l WHERE l.repo_id = i.repo_id AND l.number = i.number
			AND l.name_key = $` + strconv.Itoa(len(args)) + `)`
	}
	if a := req.GetAssignee(); a != "" {
		args = append(args, strings.ToLower(a))
		query += ` AND EXISTS (SELECT 1 FROM local_assignees a WHERE a.repo_id = i.repo_id AND a.number = i.number
			AND a.login_key = $` + strconv.Itoa(len(args)) + `)`
	}
	if req.Since != nil {
		args = append(args, req.GetSince().AsTime().UnixMicro())
		query += ` AND i.updated_at >= $` + strconv.Itoa(len(args))
	}
	page, err := keysetOf("forge_list_issues", req, req.Limit)
	if err != nil {
		return nil, err
	}
	query, args = page.newestFirst(query, args, "i.number")

	out := &forgev1.IssueList{}
	err = f.readOne(ctx, func(q querier) error {
		items, err := scanListed(ctx, q, query, args...)
		if err != nil {
			return err
		}
		items, out.NextCursor = cut(page, items, func(it *listed) int64 { return it.number })
		for _, it := range items {
			lists, err := it.lists()
			if err != nil {
				return err
			}
			out.Issues = append(out.Issues, f.issue(&it.item, lists))
		}
		return nil
	})
	return out, err
}

// CreateIssue opens an issue, creating the repository on first use. The
// local forge has no milestone objects: a milestone is kept by number. The
// same account repeating a create with the same client_request_id gets the
// issue the first made.
func (f *Forge) CreateIssue(ctx context.Context, c toolserver.Call, req *gatewayv1.CreateIssueRequest) (*forgev1.Issue, error) {
	repo := req.GetRepo()
	if err := checkRepo(repo); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.GetTitle()) == "" {
		return nil, toolserver.InvalidArgument("issue title is empty")
	}
	names := itemLists{labels: dedupNames(req.GetLabels()), assignees: dedupNames(req.GetAssignees())}
	if err := names.check(); err != nil {
		return nil, err
	}
	it := &item{kind: kindIssue, title: req.GetTitle(), body: req.GetBody(), state: "open", author: author(c), requestKey: keyOf(c)}
	if m := req.GetMilestone(); m > 0 {
		it.milestone = sql.NullInt64{Int64: int64(m), Valid: true}
	}
	err := f.write(ctx, func(tx *sql.Tx) error {
		earlier, err := f.create(ctx, tx, c, repo, it, names, nil)
		if err != nil || earlier == nil {
			return err
		}
		it = earlier
		ls, err := listsOf(ctx, tx, it.repoID, it.number, it.number)
		names = ls[it.number]
		return err
	})
	if err != nil {
		return nil, err
	}
	return f.issue(it, names), nil
}

// CommentOnIssue posts a comment on an issue (not a pull request).
func (f *Forge) CommentOnIssue(ctx context.Context, c toolserver.Call, req *gatewayv1.CommentOnIssueRequest) (*forgev1.CommentRef, error) {
	return f.comment(ctx, c, kindIssue, req.GetRepo(), req.GetIssueNumber(), req.GetBody())
}

func (f *Forge) issue(it *item, lists itemLists) *forgev1.Issue {
	out := &forgev1.Issue{
		Forge:       f.Ref(),
		Repo:        it.repo,
		Number:      uint64(it.number),
		State:       it.state,
		Url:         f.itemURL(kindIssue, it.repo, it.number),
		Labels:      lists.labels,
		Author:      it.author,
		Title:       it.title,
		Body:        it.body,
		Assignees:   lists.assignees,
		CreatedAt:   stamp(it.createdAt),
		UpdatedAt:   stamp(it.updatedAt),
		StateReason: it.stateReason,
	}
	if it.milestone.Valid {
		out.Milestone = strconv.FormatInt(it.milestone.Int64, 10)
	}
	if it.closedAt.Valid {
		out.ClosedAt = stamp(it.closedAt.Int64)
	}
	return out
}

// stamp is a stored time (unix microseconds) as RFC 3339 in UTC.
func stamp(micros int64) string {
	if micros == 0 {
		return ""
	}
	return time.UnixMicro(micros).UTC().Format(time.RFC3339)
}

func scanItems(ctx context.Context, q querier, query string, args ...any) ([]*item, error) {
	rows, err := q.QueryContext(ctx, query, args...)
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
