package gitea

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	sdk "code.gitea.io/sdk/gitea"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/providers/internal/rest"
	"github.com/forgetools/forgetools/toolserver"
)

// A review thread on Gitea is a conversation: a review's inline comments
// on one line, the first opening it; replies join the review of the
// comment they answer. Gitea 1.27 replies through
// POST .../pulls/{index}/comments/{id}/replies and resolves through
// POST .../pulls/comments/{id}/resolve (or unresolve), both named in its
// swagger; Forgejo serves neither, so there those two arms answer
// unimplemented.
//
// The thread id is "<review id>-<comment id>" of the opening comment. Gitea
// resolves a comment by its id within the repository, not the pull
// request, so before a reply or a resolve the comment is looked up among
// that review's comments through the pull request named: a comment of
// another pull request or repository is not found, and nothing is written.

// reviewsPage is how many reviews one page of threads reads.
const reviewsPage = 10

// NoThreadWrites is why Forgejo answers unimplemented for replies and
// resolves.
const NoThreadWrites = "Forgejo's API has no endpoint to reply to a review comment or to resolve a conversation (Gitea added them in 1.27)"

// threadTarget checks a reply's or resolve's repository, pull request
// and thread id, and that the forge can do it: Forgejo cannot.
func (p *Provider) threadTarget(tool string, req interface {
	GetRepo() string
	GetPullNumber() uint64
	GetThreadId() string
}) (repoName, int64, error) {
	repo, n, err := p.target(req.GetRepo(), req.GetPullNumber(), "pull request")
	if err != nil {
		return repoName{}, 0, err
	}
	if _, _, err := threadRef(req.GetThreadId()); err != nil {
		return repoName{}, 0, err
	}
	if p.flavor == Forgejo {
		return repoName{}, 0, toolserver.NotImplemented("%s cannot run on Forgejo: %s", tool, NoThreadWrites)
	}
	return repo, n, nil
}

// threadRef reads "<review>-<comment>", both positive decimal numbers.
func threadRef(id string) (review, comment int64, err error) {
	r, c, ok := strings.Cut(id, "-")
	review, rerr := strconv.ParseInt(r, 10, 64)
	comment, cerr := strconv.ParseInt(c, 10, 64)
	if !ok || rerr != nil || cerr != nil || review < 1 || comment < 1 || fmt.Sprintf("%d-%d", review, comment) != id {
		return 0, 0, toolserver.InvalidArgument("thread_id %q is not a Gitea thread id (<review>-<comment>, as forge_list_review_threads shows)", id)
	}
	return review, comment, nil
}

// threadCursor reads "reviews:<page>:<offset>": a page of reviews and how
// many of its threads earlier pages showed; "" is the first page.
func threadCursor(cursor string) (page, offset int, err error) {
	if cursor == "" {
		return 1, 0, nil
	}
	var p, o int
	if n, _ := fmt.Sscanf(cursor, "reviews:%d:%d", &p, &o); n != 2 || p < 1 || o < 0 || fmt.Sprintf("reviews:%d:%d", p, o) != cursor ||
		(p == 1 && o == 0) {
		return 0, 0, toolserver.InvalidArgument("cursor %q is not a next_cursor forge_list_review_threads gave; omit it for the first page", cursor)
	}
	return p, o, nil
}

// conversations groups a page of reviews' inline comments into threads,
// in the order they were opened: one per review, path, line and side.
// opened names each comment's thread.
func conversations(rs []*sdk.PullReview, comments map[int64][]*sdk.PullReviewComment) (out []*forgev1.ReviewThread, opened map[int64]string) {
	opened = map[int64]string{}
	for _, r := range rs {
		byLine := map[string]*forgev1.ReviewThread{}
		for _, c := range comments[r.ID] {
			if c == nil {
				continue
			}
			line, side := commentLine(c)
			key := fmt.Sprintf("%s\x00%d\x00%s", c.Path, line, side)
			t := byLine[key]
			if t == nil {
				t = &forgev1.ReviewThread{ThreadId: fmt.Sprintf("%d-%d", r.ID, c.ID), Path: c.Path, Line: line, Side: side,
					Resolved: c.Resolver != nil, Outdated: r.Stale}
				byLine[key] = t
				out = append(out, t)
			}
			opened[c.ID] = t.ThreadId
			if len(t.Comments) < shown.ThreadComments {
				t.Comments = append(t.Comments, &forgev1.Comment{Author: login(c.Reviewer), Body: c.Body, Url: c.HTMLURL})
			}
		}
	}
	return out, opened
}

// commentLine is an inline comment's line: the new file's ("position"),
// or the old file's ("original_position") for one on a removed line.
func commentLine(c *sdk.PullReviewComment) (uint64, string) {
	if c.LineNum == 0 {
		return c.OldLineNum, "LEFT"
	}
	return c.LineNum, "RIGHT"
}

// ListReviewThreads reads one page of a pull request's reviews and their
// inline comments, and shows up to a page of the conversations they hold.
func (p *Provider) ListReviewThreads(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListReviewThreadsRequest) (*forgev1.ReviewThreadList, error) {
	repo, n, err := p.target(req.GetRepo(), req.GetPullNumber(), "pull request")
	if err != nil {
		return nil, err
	}
	page, offset, err := threadCursor(req.GetCursor())
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("list the threads of pull request %s#%d", repo, n), func(c *sdk.Client) (*forgev1.ReviewThreadList, error) {
		o := sdk.ListOptions{Page: page, PageSize: reviewsPage}
		rs, resp, err := c.ListPullReviews(repo.owner, repo.name, n, sdk.ListPullReviewsOptions{ListOptions: o})
		if err != nil {
			return nil, fail(resp, err)
		}
		more := reviewsFollow(o, len(rs), resp)
		comments := map[int64][]*sdk.PullReviewComment{}
		var submitted []*sdk.PullReview
		for _, r := range rs {
			if r == nil || r.State == sdk.ReviewStatePending || r.State == sdk.ReviewStateRequestReview || r.CodeCommentsCount == 0 {
				continue
			}
			cs, resp, err := c.ListPullReviewComments(repo.owner, repo.name, n, r.ID)
			if err != nil {
				return nil, fail(resp, err)
			}
			submitted, comments[r.ID] = append(submitted, r), cs
		}
		threads, _ := conversations(submitted, comments)
		if offset > 0 && offset >= len(threads) {
			return nil, toolserver.InvalidArgument("cursor %q is past the page's %d threads (the reviews changed since)", req.GetCursor(), len(threads))
		}
		out := &forgev1.ReviewThreadList{Forge: p.Ref(), Repo: repo.String(), Number: uint64(n)}
		end := min(offset+shown.ReviewThreads, len(threads))
		out.Threads = threads[offset:end]
		switch {
		case end < len(threads):
			out.NextCursor = fmt.Sprintf("reviews:%d:%d", page, end)
		case more:
			out.NextCursor = fmt.Sprintf("reviews:%d:0", page+1)
		}
		return out, nil
	})
}

// openingComment finds the thread's opening comment through the pull
// request: the review must be the pull request's and hold the comment.
func openingComment(c *sdk.Client, repo repoName, n int64, id string) (int64, error) {
	review, comment, err := threadRef(id)
	if err != nil {
		return 0, err
	}
	cs, resp, err := c.ListPullReviewComments(repo.owner, repo.name, n, review)
	if err != nil {
		if rest.Status(fail(resp, err)) == http.StatusNotFound {
			return 0, threadNotFound(id, repo, n)
		}
		return 0, fail(resp, err)
	}
	for _, rc := range cs {
		if rc != nil && rc.ID == comment {
			return comment, nil
		}
	}
	return 0, threadNotFound(id, repo, n)
}

func threadNotFound(id string, repo repoName, n int64) error {
	return toolserver.NotFound("review thread %s not found on pull request #%d in %s", id, n, repo)
}

// ReplyToReviewThread answers the thread's opening comment.
func (p *Provider) ReplyToReviewThread(ctx context.Context, _ toolserver.Call, req *gatewayv1.ReplyToReviewThreadRequest) (*forgev1.CommentRef, error) {
	repo, n, err := p.threadTarget("forge_reply_to_review_thread", req)
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("reply to thread %s of pull request %s#%d", req.GetThreadId(), repo, n), func(c *sdk.Client) (*forgev1.CommentRef, error) {
		comment, err := openingComment(c, repo, n, req.GetThreadId())
		if err != nil {
			return nil, err
		}
		rc, resp, err := c.CreatePullReviewCommentReply(repo.owner, repo.name, n, comment, sdk.CreatePullReviewCommentReplyOptions{Body: req.GetBody()})
		if err != nil {
			return nil, fail(resp, err)
		}
		return &forgev1.CommentRef{Forge: p.Ref(), Repo: repo.String(), Number: uint64(n), CommentId: strconv.FormatInt(rc.ID, 10), Url: rc.HTMLURL}, nil
	})
}

// ResolveReviewThread resolves or reopens the thread's opening comment,
// which carries the conversation's state.
func (p *Provider) ResolveReviewThread(ctx context.Context, _ toolserver.Call, req *gatewayv1.ResolveReviewThreadRequest) (*forgev1.ReviewThreadRef, error) {
	repo, n, err := p.threadTarget("forge_resolve_review_thread", req)
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("resolve thread %s of pull request %s#%d", req.GetThreadId(), repo, n), func(c *sdk.Client) (*forgev1.ReviewThreadRef, error) {
		comment, err := openingComment(c, repo, n, req.GetThreadId())
		if err != nil {
			return nil, err
		}
		resolve, state := c.ResolvePullReviewComment, "resolved"
		if req.GetUnresolve() {
			resolve, state = c.UnresolvePullReviewComment, "unresolved"
		}
		if resp, err := resolve(repo.owner, repo.name, comment); err != nil {
			return nil, fail(resp, err)
		}
		return &forgev1.ReviewThreadRef{Forge: p.Ref(), Repo: repo.String(), Number: uint64(n), ThreadId: req.GetThreadId(), State: state}, nil
	})
}
