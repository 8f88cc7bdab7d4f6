package local

import (
	"context"
	"database/sql"
	"strconv"
	"strings"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
	"github.com/forgetools/forgetools/toolserver/notify"
)

// verdicts maps the tool's verdict enum to the stored (and returned) spelling,
// the tool vocabulary, so a read never shows a verdict the tool would reject.
var verdicts = map[gatewayv1.Verdict]string{
	gatewayv1.Verdict_VERDICT_APPROVE:         "approve",
	gatewayv1.Verdict_VERDICT_REQUEST_CHANGES: "request_changes",
	gatewayv1.Verdict_VERDICT_COMMENT:         "comment",
}

var sides = map[gatewayv1.Side]string{
	gatewayv1.Side_SIDE_UNSPECIFIED: "RIGHT",
	gatewayv1.Side_SIDE_LEFT:        "LEFT",
	gatewayv1.Side_SIDE_RIGHT:       "RIGHT",
}

// SubmitReview posts a review at once (never pending) on an open pull
// request, with its inline comments. The local forge lets an author review
// their own pull request, as the tool promises for GitHub's reviewer identity.
func (f *Forge) SubmitReview(ctx context.Context, c toolserver.Call, req *gatewayv1.SubmitReviewRequest) (*forgev1.ReviewRef, error) {
	repo := req.GetRepo()
	if err := checkRepo(repo); err != nil {
		return nil, err
	}
	verdict, ok := verdicts[req.GetVerdict()]
	if !ok {
		return nil, toolserver.InvalidArgument("verdict must be approve, request_changes or comment")
	}
	if verdict != "approve" && strings.TrimSpace(req.GetBody()) == "" {
		return nil, toolserver.InvalidArgument("body is required unless verdict is approve")
	}
	for i, rc := range req.GetComments() {
		_, sideOK := sides[rc.GetSide()]
		_, lineOK := dbNumber(rc.GetLine())
		if strings.TrimSpace(rc.GetPath()) == "" || rc.GetLine() == 0 || !lineOK || !sideOK ||
			strings.TrimSpace(rc.GetBody()) == "" {
			return nil, toolserver.InvalidArgument("comments[%d] needs a path, a line of at least 1, side LEFT or RIGHT and a body", i)
		}
	}

	who := author(c)
	var id int64
	var it *item
	err := f.write(ctx, func(tx *sql.Tx) (err error) {
		if it, err = f.touchItem(ctx, tx, repo, req.GetPullNumber(), kindPull); err != nil {
			return err
		}
		if it.state != "open" {
			return toolserver.FailedPrecondition("pull request #%d in %s is %s: only an open pull request can be reviewed", it.number, it.repo, it.state)
		}
		now := f.now().UnixMicro()
		if err := tx.QueryRowContext(ctx, `INSERT INTO local_reviews (repo_id, number, author, verdict, body, created_at)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
			it.repoID, it.number, who, verdict, req.GetBody(), now).Scan(&id); err != nil {
			return err
		}
		for _, rc := range req.GetComments() {
			if _, err := tx.ExecContext(ctx, `INSERT INTO local_review_comments (review_id, path, line, side, body)
				VALUES ($1, $2, $3, $4, $5)`,
				id, rc.GetPath(), int64(rc.GetLine()), sides[rc.GetSide()], rc.GetBody()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sid := strconv.FormatInt(id, 10)
	url := f.reviewURL(it.repo, it.number, sid)
	f.emit(ctx, it, f.reviewChanges(c, req, sid, verdict, url)...)
	return &forgev1.ReviewRef{
		Forge:    f.Ref(),
		Repo:     it.repo,
		Number:   req.GetPullNumber(),
		ReviewId: sid,
		Verdict:  verdict,
		Url:      url,
	}, nil
}

// reviewChanges are the events of a submitted review: the review with its
// verdict, then each inline comment (which ownership knows by its review).
func (f *Forge) reviewChanges(c toolserver.Call, req *gatewayv1.SubmitReviewRequest, id, verdict, url string) []notify.Change {
	ev := f.event(forgev1.EventType_EVENT_TYPE_REVIEW, author(c))
	ev.Verdict, ev.Body, ev.Url, ev.ArtifactId = verdict, req.GetBody(), url, id
	out := []notify.Change{{Event: ev, Key: "review:" + id, Account: c.Account}}
	for i, rc := range req.GetComments() {
		ev := f.event(forgev1.EventType_EVENT_TYPE_REVIEW_COMMENT, author(c))
		ev.Path, ev.Line, ev.Body, ev.Url, ev.ArtifactId = rc.GetPath(), rc.GetLine(), rc.GetBody(), url, id
		out = append(out, notify.Change{Event: ev, Key: "review_comment:" + id + ":" + strconv.Itoa(i), Account: c.Account})
	}
	return out
}

// Watch confirms the issue or pull request exists, so the gateway can store
// a subscription to it. The gateway owns subscriptions; the local forge keeps
// none of its own.
func (f *Forge) Watch(ctx context.Context, _ toolserver.Call, req *gatewayv1.SubscribeRequest) error {
	repo := req.GetRepo()
	if err := checkRepo(repo); err != nil {
		return err
	}
	var kind string
	switch req.GetKind() {
	case gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_ISSUE:
		kind = kindIssue
	case gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_PULL_REQUEST:
		kind = kindPull
	default:
		return toolserver.InvalidArgument("kind must be issue or pull_request")
	}
	return f.readOne(ctx, func(q querier) error {
		_, err := findItem(ctx, q, repo, req.GetNumber(), kind)
		return err
	})
}
