package local

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/toolserver"
	"github.com/forgetools/forgetools/toolserver/notify"
)

// On the local forge every inline review comment opens a thread and is its
// first comment: the thread's id is the comment's (local_review_comments),
// replies answer it (local_thread_replies) and the resolved flag is the
// comment's. A thread is never outdated: the local forge does not record
// the commit a review was made at.

// threadCursor marks a cursor as one of this list's, so a cursor of
// another list (or a made-up one) is refused rather than read as an id.
const threadCursor = "thread:"

// threadRequest is what a reply and a resolve address a thread by.
type threadRequest interface {
	GetRepo() string
	GetThreadId() string
}

// threadTarget checks a reply's or resolve's repository and thread id.
func threadTarget(req threadRequest) (string, int64, error) {
	if err := checkRepo(req.GetRepo()); err != nil {
		return "", 0, err
	}
	id, err := threadID(req.GetThreadId())
	return req.GetRepo(), id, err
}

// threadID reads a thread id the local forge gave: a positive decimal
// number in its canonical spelling, nothing else.
func threadID(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 || strconv.FormatInt(n, 10) != s {
		return 0, toolserver.InvalidArgument("thread_id %q is not a thread id of the local forge (a number forge_list_review_threads shows)", s)
	}
	return n, nil
}

// afterCursor reads a next_cursor this list gave: the last thread id of the
// page before; "" is the first page.
func afterCursor(cursor string) (int64, error) {
	if cursor == "" {
		return 0, nil
	}
	rest, ok := strings.CutPrefix(cursor, threadCursor)
	n, err := strconv.ParseInt(rest, 10, 64)
	if !ok || err != nil || n < 1 || strconv.FormatInt(n, 10) != rest {
		return 0, toolserver.InvalidArgument("cursor %q is not a next_cursor forge_list_review_threads gave; omit it for the first page", cursor)
	}
	return n, nil
}

// ListReviewThreads reads one page of a pull request's threads, oldest
// first, each with its opening comment and first replies. It reads the
// page's threads and their replies only.
func (f *Forge) ListReviewThreads(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListReviewThreadsRequest) (*forgev1.ReviewThreadList, error) {
	repo := req.GetRepo()
	if err := checkRepo(repo); err != nil {
		return nil, err
	}
	after, err := afterCursor(req.GetCursor())
	if err != nil {
		return nil, err
	}
	var out *forgev1.ReviewThreadList
	err = f.readOne(ctx, func(q querier) error {
		it, err := findItem(ctx, q, repo, req.GetPullNumber(), kindPull)
		if err != nil {
			return err
		}
		out = &forgev1.ReviewThreadList{Forge: f.Ref(), Repo: it.repo, Number: uint64(it.number)}
		byID, err := f.threadRows(ctx, q, it, after, out)
		if err != nil || len(byID) == 0 {
			return err
		}
		return f.threadReplies(ctx, q, it, byID, out.Threads[0].GetThreadId(), out.Threads[len(out.Threads)-1].GetThreadId())
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// threadRows reads the page of threads after id after into out (one more
// than the page tells whether another follows) and returns them by id.
func (f *Forge) threadRows(ctx context.Context, q querier, it *item, after int64, out *forgev1.ReviewThreadList) (map[string]*forgev1.ReviewThread, error) {
	rows, err := q.QueryContext(ctx, `SELECT c.id, c.path, c.line, c.side, c.resolved, v.author, c.body
		FROM local_review_comments c JOIN local_reviews v ON v.id = c.review_id
		WHERE v.repo_id = $1 AND v.number = $2 AND c.id > $3 ORDER BY c.id LIMIT $4`,
		it.repoID, it.number, after, shown.ReviewThreads+1)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	byID := map[string]*forgev1.ReviewThread{}
	for rows.Next() {
		var id, line int64
		var path, side, who, body string
		var resolved bool
		if err := rows.Scan(&id, &path, &line, &side, &resolved, &who, &body); err != nil {
			return nil, err
		}
		if len(out.Threads) == shown.ReviewThreads {
			out.NextCursor = threadCursor + out.Threads[len(out.Threads)-1].GetThreadId()
			break
		}
		sid := strconv.FormatInt(id, 10)
		t := &forgev1.ReviewThread{ThreadId: sid, Path: path, Line: uint64(line), Side: side, Resolved: resolved,
			Comments: []*forgev1.Comment{{Author: who, Body: body, Url: f.threadURL(it, sid)}}}
		out.Threads = append(out.Threads, t)
		byID[sid] = t
	}
	return byID, rows.Err()
}

// threadReplies adds to each thread of the page (ids first to last) its
// first replies, as many as a thread shows beside its opening comment.
func (f *Forge) threadReplies(ctx context.Context, q querier, it *item, byID map[string]*forgev1.ReviewThread, first, last string) error {
	rows, err := q.QueryContext(ctx, `SELECT thread_id, id, author, body FROM (
			SELECT thread_id, id, author, body, ROW_NUMBER() OVER (PARTITION BY thread_id ORDER BY id) AS n
			FROM local_thread_replies WHERE thread_id BETWEEN CAST($1 AS BIGINT) AND CAST($2 AS BIGINT)) r
		WHERE n < $3 ORDER BY thread_id, id`, first, last, shown.ThreadComments)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var thread, id int64
		var who, body string
		if err := rows.Scan(&thread, &id, &who, &body); err != nil {
			return err
		}
		// Threads of other pull requests may sit between first and last.
		if t := byID[strconv.FormatInt(thread, 10)]; t != nil {
			t.Comments = append(t.Comments, &forgev1.Comment{Author: who, Body: body, Url: f.threadURL(it, strconv.FormatInt(id, 10))})
		}
	}
	return rows.Err()
}

// ReplyToReviewThread adds a reply to a thread of the pull request named:
// a thread of another pull request or repository is not found, whatever
// its id. A closed or merged pull request's threads still take replies, as
// on GitHub.
func (f *Forge) ReplyToReviewThread(ctx context.Context, c toolserver.Call, req *gatewayv1.ReplyToReviewThreadRequest) (*forgev1.CommentRef, error) {
	repo, thread, err := threadTarget(req)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.GetBody()) == "" {
		return nil, toolserver.InvalidArgument("body is required")
	}
	who := author(c)
	var id int64
	var it *item
	var path string
	var line int64
	err = f.write(ctx, func(tx *sql.Tx) (err error) {
		if it, err = f.touchItem(ctx, tx, repo, req.GetPullNumber(), kindPull); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT c.path, c.line FROM local_review_comments c JOIN local_reviews v ON v.id = c.review_id
			WHERE c.id = $1 AND v.repo_id = $2 AND v.number = $3`, thread, it.repoID, it.number).Scan(&path, &line); err != nil {
			return threadMissing(err, req, it)
		}
		return tx.QueryRowContext(ctx, `INSERT INTO local_thread_replies (thread_id, author, body, created_at)
			VALUES ($1, $2, $3, $4) RETURNING id`, thread, who, req.GetBody(), f.now().UnixMicro()).Scan(&id)
	})
	if err != nil {
		return nil, err
	}
	sid := strconv.FormatInt(id, 10)
	url := f.threadURL(it, sid)
	ev := f.event(forgev1.EventType_EVENT_TYPE_REVIEW_COMMENT, who)
	ev.Path, ev.Line, ev.Body, ev.Url, ev.ArtifactId = path, uint64(line), req.GetBody(), url, sid
	f.emit(ctx, it, notify.Change{Event: ev, Key: "thread_reply:" + sid, Account: c.Account})
	return &forgev1.CommentRef{Forge: f.Ref(), Repo: it.repo, Number: uint64(it.number), CommentId: sid, Url: url}, nil
}

// ResolveReviewThread sets a thread's resolved flag, the same scoping as a
// reply; resolving a resolved thread changes nothing and says so by its
// state.
func (f *Forge) ResolveReviewThread(ctx context.Context, _ toolserver.Call, req *gatewayv1.ResolveReviewThreadRequest) (*forgev1.ReviewThreadRef, error) {
	repo, thread, err := threadTarget(req)
	if err != nil {
		return nil, err
	}
	resolved := !req.GetUnresolve()
	var it *item
	err = f.write(ctx, func(tx *sql.Tx) (err error) {
		if it, err = f.touchItem(ctx, tx, repo, req.GetPullNumber(), kindPull); err != nil {
			return err
		}
		var id int64
		err = tx.QueryRowContext(ctx, `UPDATE local_review_comments SET resolved = $1
			WHERE id = $2 AND review_id IN (SELECT id FROM local_reviews WHERE repo_id = $3 AND number = $4) RETURNING id`,
			resolved, thread, it.repoID, it.number).Scan(&id)
		return threadMissing(err, req, it)
	})
	if err != nil {
		return nil, err
	}
	return &forgev1.ReviewThreadRef{Forge: f.Ref(), Repo: it.repo, Number: uint64(it.number),
		ThreadId: req.GetThreadId(), State: threadState(resolved)}, nil
}

// threadState is the ack's word for a thread's resolved flag.
func threadState(resolved bool) string {
	if resolved {
		return "resolved"
	}
	return "unresolved"
}

// threadMissing answers a thread lookup that found no row with not_found,
// naming the pull request searched; any other error passes through.
func threadMissing(err error, req threadRequest, it *item) error {
	if errors.Is(err, sql.ErrNoRows) {
		return toolserver.NotFound("review thread %s not found on pull request #%d in %s", req.GetThreadId(), it.number, it.repo)
	}
	return err
}

// threadURL is a thread comment's anchor on the pull request's page.
func (f *Forge) threadURL(it *item, id string) string {
	return f.itemURL(kindPull, it.repo, it.number) + "#discussion_r" + id
}
