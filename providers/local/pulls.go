package local

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/toolserver"
)

// GetPullRequest reads a pull request with its conversation and reviews,
// its head commit, whether it merges cleanly into its base, and the checks
// roll-up SetChecks recorded (empty when none was: the local forge's CI
// runs on refs, not on pull requests).
func (f *Forge) GetPullRequest(ctx context.Context, _ toolserver.Call, req *gatewayv1.GetPullRequestRequest) (*forgev1.PullRequest, error) {
	r, err := f.repository(ctx, req.GetRepo())
	if err != nil {
		return nil, err
	}
	num, ok := dbNumber(req.GetPullNumber())
	if !ok {
		return nil, notFound(kindPull, r.name, req.GetPullNumber())
	}
	var out *forgev1.PullRequest
	err = f.readOne(ctx, func(q querier) error {
		var it listed
		var comments, reviews string
		var commentsTotal, reviewsTotal int
		var checks string
		err := q.QueryRowContext(ctx, reads[f.dialect].pull, repoKey(r.name), num,
			shown.PullComments, shown.PullReviews, shown.ReviewComments).
			Scan(append(it.dest(), &comments, &commentsTotal, &reviews, &reviewsTotal, &checks)...)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound(kindPull, r.name, req.GetPullNumber())
		}
		if err != nil {
			return err
		}
		if it.kind != kindPull {
			return wrongKind(kindPull, r.name, req.GetPullNumber())
		}
		out = f.pullRequest(r, &it.item)
		if out.Comments, out.CommentsTotal, err = f.decodeComments(&it.item, comments, commentsTotal); err != nil {
			return err
		}
		out.Reviews, out.ReviewsTotal, err = f.decodeReviews(&it.item, reviews, reviewsTotal)
		out.ChecksState = checks
		return err
	})
	if err != nil {
		return nil, err
	}
	if out.GetState() == "open" {
		out.Mergeable = f.mergeable(r, out)
	}
	return out, nil
}

// ListPullRequests lists pull requests, newest first (keyset on the
// number), without their conversations; "closed" includes merged ones, as on GitHub.
func (f *Forge) ListPullRequests(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListPullRequestsRequest) (*forgev1.PullRequestList, error) {
	r, err := f.repository(ctx, req.GetRepo())
	if err != nil {
		return nil, err
	}
	query := `SELECT ` + itemColumns + ` FROM local_items i JOIN local_repos r ON r.id = i.repo_id
		WHERE i.repo_id = $1 AND i.kind = 'pull'`
	args := []any{r.id}
	switch req.GetState() {
	case gatewayv1.PullRequestStateFilter_PULL_REQUEST_STATE_FILTER_UNSPECIFIED, gatewayv1.PullRequestStateFilter_PULL_REQUEST_STATE_FILTER_OPEN:
		query += ` AND i.state = 'open'`
	case gatewayv1.PullRequestStateFilter_PULL_REQUEST_STATE_FILTER_CLOSED:
		query += ` AND i.state IN ('closed', 'merged')`
	case gatewayv1.PullRequestStateFilter_PULL_REQUEST_STATE_FILTER_ALL:
	default:
		return nil, toolserver.InvalidArgument("unknown pull request state filter %d", req.GetState())
	}
	for column, v := range map[string]string{"base_ref": req.GetBase(), "head_ref": req.GetHead()} {
		if v != "" {
			args = append(args, v)
			query += ` AND i.` + column + ` = $` + strconv.Itoa(len(args))
		}
	}
	page, err := keysetOf("forge_list_pull_requests", req, req.Limit)
	if err != nil {
		return nil, err
	}
	query, args = page.newestFirst(query, args, "i.number")
	out := &forgev1.PullRequestList{}
	err = f.readOne(ctx, func(q querier) error {
		items, err := scanItems(ctx, q, query, args...)
		if err != nil {
			return err
		}
		items, out.NextCursor = cut(page, items, func(it *item) int64 { return it.number })
		for _, it := range items {
			out.PullRequests = append(out.PullRequests, f.pullRequest(r, it))
		}
		return nil
	})
	return out, err
}

// CreatePullRequest opens a pull request from head_ref into base_ref (the
// repository's default branch when omitted); both must be branches of the
// repository. Like GitHub, it refuses a second open pull request for the
// same head and base. The same account repeating a create with the same
// client_request_id gets the pull request the first made, whatever became
// of its branches since.
func (f *Forge) CreatePullRequest(ctx context.Context, c toolserver.Call, req *gatewayv1.CreatePullRequestRequest) (*forgev1.PullRequest, error) {
	repo, head, base := req.GetRepo(), req.GetHeadRef(), req.GetBaseRef()
	if err := checkRepo(repo); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.GetTitle()) == "" {
		return nil, toolserver.InvalidArgument("pull request title is empty")
	}
	if err := checkBranch("head_ref", head); err != nil {
		return nil, err
	}
	if base != "" {
		if err := checkBranch("base_ref", base); err != nil {
			return nil, err
		}
	}
	r, err := f.repository(ctx, repo)
	if err != nil {
		return nil, err
	}
	if base == "" {
		base = r.defaultBranch
	}
	if head == base {
		return nil, toolserver.InvalidArgument("head_ref and base_ref are both %q: a pull request merges one branch into another", head)
	}
	it := &item{kind: kindPull, title: req.GetTitle(), body: req.GetBody(), state: "open", author: author(c),
		draft: req.GetDraft(), headRef: sql.NullString{String: head, Valid: true}, baseRef: sql.NullString{String: base, Valid: true},
		requestKey: keyOf(c)}
	err = f.write(ctx, func(tx *sql.Tx) error {
		earlier, err := f.create(ctx, tx, c, r.name, it, itemLists{}, func() error {
			if err := checkBranches(r, head, base); err != nil {
				return err
			}
			return checkNotOpen(ctx, tx, it, head, base)
		})
		it = cmp.Or(earlier, it)
		return err
	})
	if err != nil {
		return nil, err
	}
	return f.pullRequest(r, it), nil
}

// checkBranches refuses a pull request whose head or base is not a branch
// of r: the local forge is git-backed, so a branch must be pushed first.
func checkBranches(r *repository, head, base string) error {
	for _, b := range []struct{ what, branch string }{{"head_ref", head}, {"base_ref", base}} {
		_, ok, err := r.git.Branch(b.branch)
		if err != nil {
			return internal(err)
		}
		if !ok {
			return toolserver.InvalidArgument("%s %q is not a branch of %s: push it first (forge_create_branch, then forge_write_file)", b.what, b.branch, r.name)
		}
	}
	return nil
}

// CommentOnPullRequest posts a conversation comment (not a review) on a pull
// request.
func (f *Forge) CommentOnPullRequest(ctx context.Context, c toolserver.Call, req *gatewayv1.CommentOnPullRequestRequest) (*forgev1.CommentRef, error) {
	return f.comment(ctx, c, kindPull, req.GetRepo(), req.GetPullNumber(), req.GetBody())
}

// checkNotOpen refuses a pull request from head into base while another is
// open (GitHub's 422 "A pull request already exists"). The caller holds the
// repository's counter row, so no other create can race between this check
// and its insert.
func checkNotOpen(ctx context.Context, tx *sql.Tx, in *item, head, base string) error {
	var open int64
	err := tx.QueryRowContext(ctx, `SELECT number FROM local_items
		WHERE repo_id = $1 AND kind = 'pull' AND state = 'open' AND head_ref = $2 AND base_ref = $3`,
		in.repoID, head, base).Scan(&open)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	return toolserver.AlreadyExists("a pull request from %q into %q is already open in %s: #%d", head, base, in.repo, open)
}

// pullRequest is the pull request item describes. An open one's head is
// its head branch as it is now; a merged one's, the head that was merged.
func (f *Forge) pullRequest(r *repository, it *item) *forgev1.PullRequest {
	out := &forgev1.PullRequest{
		Forge:   f.Ref(),
		Repo:    it.repo,
		Number:  uint64(it.number),
		State:   it.state,
		Url:     f.itemURL(kindPull, it.repo, it.number),
		HeadRef: it.headRef.String,
		BaseRef: it.baseRef.String,
		Draft:   it.draft,
		Author:  it.author,
		Title:   it.title,
		Body:    it.body,
		HeadSha: it.headSHA,
		Merged:  it.state == "merged",
	}
	if out.HeadSha == "" {
		if h, ok, err := r.git.Branch(it.headRef.String); err == nil && ok {
			out.HeadSha = h.String()
		}
	}
	return out
}

// mergeable says whether an open pull request merges into its base without
// a conflict: "true" or "false", "" when git cannot tell.
func (f *Forge) mergeable(r *repository, pr *forgev1.PullRequest) string {
	base, ok, err := r.git.Branch(pr.GetBaseRef())
	if err != nil || !ok || pr.GetHeadSha() == "" {
		return "false" // a branch was deleted: nothing to merge
	}
	clean, err := r.git.Mergeable(base, plumbing.NewHash(pr.GetHeadSha()))
	if err != nil {
		return ""
	}
	return strconv.FormatBool(clean)
}
