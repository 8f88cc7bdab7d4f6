package local

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"strconv"

	"google.golang.org/protobuf/proto"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// The local forge pages its lists by keyset: a next_cursor holds the key
// (number or id) of the last item shown, and the next page is the items
// past it in the list's order, so an item created or closed between two
// pages never shifts the rest into a gap or a repeat. The page size is
// free to change between pages ("limit" is left out of the cursor's
// query); every other argument is bound to it (kit.Cursors).

// keyset is a listing's page bound: the cursor's key (0: the first page)
// and how many items a page shows.
type keyset struct {
	cursors kit.Cursors
	after   int64
	limit   int
}

// keysetOf reads a list request's cursor for tool.
func keysetOf(tool string, req interface {
	proto.Message
	GetCursor() string
}, limit *uint32) (keyset, error) {
	cur := kit.CursorsFor(tool, req, "limit")
	after, err := cur.Key(req.GetCursor(), math.MaxInt64)
	return keyset{cursors: cur, after: after, limit: listLimit(limit)}, err
}

// fetch is the LIMIT a page's statement asks for: one more than it shows,
// which tells whether another page follows without a count.
func (k keyset) fetch() int { return k.limit + 1 }

// newestFirst ends a listing's statement (query with its WHERE, args its
// parameters) with the page's bound on key column: below the cursor's
// key, newest first, fetch rows.
func (k keyset) newestFirst(query string, args []any, column string) (string, []any) {
	if k.after > 0 {
		args = append(args, k.after)
		query += ` AND ` + column + ` < $` + strconv.Itoa(len(args))
	}
	args = append(args, k.fetch())
	return query + ` ORDER BY ` + column + ` DESC LIMIT $` + strconv.Itoa(len(args)), args
}

// cut keeps the page of rows (read with fetch) and returns the cursor of
// the next one, "" when none follows.
func cut[T any](k keyset, rows []T, key func(T) int64) ([]T, string) {
	if len(rows) <= k.limit {
		return rows, ""
	}
	rows = rows[:k.limit]
	return rows, k.cursors.NextKey(key(rows[len(rows)-1]))
}

// commentsOf is the artifact kind a list_comments request names, and the
// table its entries are read from: the conversation's comments, or a pull
// request's reviews (whose verdict is read beside author and body).
func commentsOf(k gatewayv1.CommentsOf) (kind, table, verdict string, err error) {
	switch k {
	case gatewayv1.CommentsOf_COMMENTS_OF_ISSUE:
		return kindIssue, "local_comments", "NULL", nil
	case gatewayv1.CommentsOf_COMMENTS_OF_PULL_REQUEST:
		return kindPull, "local_comments", "NULL", nil
	case gatewayv1.CommentsOf_COMMENTS_OF_REVIEWS:
		return kindPull, "local_reviews", "c.verdict", nil
	}
	return "", "", "", toolserver.InvalidArgument("kind must be issue, pull_request or reviews")
}

// ListComments pages an issue's or pull request's conversation comments,
// or a pull request's reviews, oldest first, in one statement: the
// artifact's row (so a missing or other-kind number is told apart from
// one without entries) joined to the entries after the cursor's id. A
// review is shown without its inline comments (forge_list_review_threads
// pages those).
func (f *Forge) ListComments(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListCommentsRequest) (*forgev1.CommentList, error) {
	repo := req.GetRepo()
	if err := checkRepo(repo); err != nil {
		return nil, err
	}
	kind, table, verdict, err := commentsOf(req.GetKind())
	if err != nil {
		return nil, err
	}
	page, err := keysetOf("forge_list_comments", req, req.Limit)
	if err != nil {
		return nil, err
	}
	num, ok := dbNumber(req.GetNumber())
	if !ok {
		return nil, notFound(kind, repo, req.GetNumber())
	}
	type row struct {
		id                    int64
		author, body, verdict string
	}
	var rows []row
	var found, name string
	err = f.readOne(ctx, func(q querier) error {
		rs, err := q.QueryContext(ctx, `SELECT i.kind, r.name, c.id, c.author, c.body, `+verdict+`
			FROM local_items i JOIN local_repos r ON r.id = i.repo_id
			LEFT JOIN `+table+` c ON c.repo_id = i.repo_id AND c.number = i.number AND c.id > $3
			WHERE r.name_key = $1 AND i.number = $2 ORDER BY c.id LIMIT $4`,
			repoKey(repo), num, page.after, page.fetch())
		if err != nil {
			return err
		}
		defer rs.Close()
		for rs.Next() {
			var id sql.NullInt64
			var author, body, verdict sql.NullString
			if err := rs.Scan(&found, &name, &id, &author, &body, &verdict); err != nil {
				return err
			}
			if id.Valid {
				rows = append(rows, row{id.Int64, author.String, body.String, verdict.String})
			}
		}
		return rs.Err()
	})
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, notFound(kind, repo, req.GetNumber())
	case err != nil:
		return nil, err
	case found == "":
		return nil, notFound(kind, repo, req.GetNumber())
	case found != kind:
		return nil, wrongKind(kind, repo, req.GetNumber())
	}
	rows, next := cut(page, rows, func(r row) int64 { return r.id })
	out := &forgev1.CommentList{Repo: name, Number: req.GetNumber(), NextCursor: next}
	for _, r := range rows {
		id := strconv.FormatInt(r.id, 10)
		if table == "local_reviews" {
			out.Reviews = append(out.Reviews, &forgev1.Review{Author: r.author, Verdict: r.verdict, Body: r.body,
				Url: f.reviewURL(name, num, id)})
			continue
		}
		out.Comments = append(out.Comments, &forgev1.Comment{Author: r.author, Body: r.body,
			Url: f.commentURL(kind, name, num, id)})
	}
	return out, nil
}
