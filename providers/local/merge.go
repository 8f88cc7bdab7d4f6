package local

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/forgetools/forgetools/enumname"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local/localgit"
	"github.com/forgetools/forgetools/toolserver"
)

// MergePullRequest merges an open, ready pull request whose head is still
// expected_head_sha, as a merge commit, a squash or a rebase, moves its
// base branch and marks it merged. Anything else (a head that moved, a
// conflict, a draft, a closed pull request) is failed_precondition and
// writes nothing. Merging into the default branch is the normal end of a
// pull request, so it needs no push_to_default_branch. Subscribers hear of
// the merge as the caller's own state event.
func (f *Forge) MergePullRequest(ctx context.Context, c toolserver.Call, req *gatewayv1.MergePullRequestRequest) (*forgev1.MergeResult, error) {
	// The tool's spellings (merge, squash, rebase) are localgit's methods.
	method := localgit.MethodMerge
	if m := req.GetMethod(); m != gatewayv1.MergeMethod_MERGE_METHOD_UNSPECIFIED {
		method = enumname.Of(m)
	}
	r, err := f.repository(ctx, req.GetRepo())
	if err != nil {
		return nil, err
	}
	var merged localgit.Merged
	var it *item
	// The pull request's row stays locked while git merges, so two merges
	// of one pull request cannot both happen; the row is marked merged in
	// the same transaction, after the base branch moved.
	err = f.write(ctx, func(tx *sql.Tx) (err error) {
		if it, err = f.touchItem(ctx, tx, r.name, req.GetPullNumber(), kindPull); err != nil {
			return err
		}
		var title string
		var draft bool
		if err := tx.QueryRowContext(ctx, `SELECT title, draft FROM local_items WHERE repo_id = $1 AND number = $2`,
			it.repoID, it.number).Scan(&title, &draft); err != nil {
			return err
		}
		switch {
		case it.state != "open":
			return toolserver.FailedPrecondition("pull request #%d in %s is %s: only an open pull request can be merged", it.number, r.name, it.state)
		case draft:
			return toolserver.FailedPrecondition("pull request #%d in %s is a draft: mark it ready for review first", it.number, r.name)
		}
		message := fmt.Sprintf("Merge pull request #%d from %s\n\n%s\n", it.number, it.headRef.String, title)
		if method == localgit.MethodSquash {
			message = fmt.Sprintf("%s (#%d)\n", title, it.number)
		}
		merged, err = r.git.Merge(localgit.MergeRequest{
			Base: it.baseRef.String, Head: it.headRef.String, ExpectedHead: req.GetExpectedHeadSha(),
			Method: method, Message: message, Committer: f.signature(c),
		})
		if err != nil {
			return gitError(err)
		}
		_, err = tx.ExecContext(ctx, `UPDATE local_items SET state = 'merged', closed_at = $1, head_sha = $2, merge_sha = $3
			WHERE repo_id = $4 AND number = $5`, f.now().UnixMicro(), merged.Head.String(), merged.Commit.String(), it.repoID, it.number)
		return err
	})
	if err != nil {
		return nil, err
	}
	f.emit(ctx, it, f.stateChange(author(c), c.Account, "merged"))
	return &forgev1.MergeResult{
		Forge: f.Ref(), Repo: r.name, Number: req.GetPullNumber(), Method: method, Sha: merged.Commit.String(),
		Url: f.itemURL(kindPull, r.name, it.number),
	}, nil
}
