package github

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/toolserver"
)

// A review thread on GitHub is a PullRequestReviewThread of its GraphQL
// API: REST has threads only as reply chains of comments and no resolve,
// so all three arms go through GraphQL, and the thread id is the thread's
// node id (PRRT_...). Replies use addPullRequestReviewThreadReply rather
// than REST's POST .../comments/{id}/replies: it takes the same node id
// the resolve takes, so a reply needs no second read to find the thread's
// first comment's REST id.
//
// A node id names a thread anywhere on GitHub, not within the pull
// request named, so before a reply or a resolve one query reads the
// thread's pull request and the named pull request's node ids: a thread
// of another pull request or repository is not found, and nothing is
// written.

// threadNodeID is a GraphQL node id as GitHub issues them (base64url
// with a type prefix, or the legacy base64 form without padding).
var threadNodeID = regexp.MustCompile(`^[A-Za-z0-9_-]{4,100}$`)

// threadCursorPrefix marks a next_cursor of forge_list_review_threads:
// GitHub's endCursor of the page shown.
const threadCursorPrefix = "threads:"

// gqlCursor is what GitHub's connection cursors are made of (base64).
var gqlCursor = regexp.MustCompile(`^[A-Za-z0-9+/=_-]{1,56}$`)

// threadAfter reads a next_cursor the list gave; "" is the first page
// (nil: GraphQL's after: null).
func threadAfter(cursor string) (any, error) {
	if cursor == "" {
		return nil, nil
	}
	after, ok := strings.CutPrefix(cursor, threadCursorPrefix)
	if !ok || !gqlCursor.MatchString(after) {
		return nil, toolserver.InvalidArgument("cursor %q is not a next_cursor forge_list_review_threads gave; omit it for the first page", cursor)
	}
	return after, nil
}

const threadsQuery = `query ReviewThreads($owner: String!, $name: String!, $number: Int!, $first: Int!, $after: String, $comments: Int!) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: $first, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id path line originalLine diffSide isResolved isOutdated
          comments(first: $comments) { nodes { url body author { login } } }
        }
      }
    }
  }
}`

// threadsData is threadsQuery's answer; what GitHub may answer null is a
// pointer, and a nodes list may hold nulls.
type threadsData struct {
	Repository *struct {
		PullRequest *struct {
			ReviewThreads struct {
				PageInfo struct {
					HasNextPage bool
					EndCursor   *string
				}
				Nodes []*struct {
					ID, Path, DiffSide     string
					Line, OriginalLine     *int
					IsResolved, IsOutdated bool
					Comments               struct {
						Nodes []*struct {
							URL, Body string
							Author    *gqlActor
						}
					}
				}
			}
		}
	}
}

// ListReviewThreads reads one page of a pull request's review threads, in
// one query.
func (p *Provider) ListReviewThreads(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListReviewThreadsRequest) (*forgev1.ReviewThreadList, error) {
	repo, n, err := parseNumbered(req.GetRepo(), req.GetPullNumber(), "pull request")
	if err != nil {
		return nil, err
	}
	after, err := threadAfter(req.GetCursor())
	if err != nil {
		return nil, err
	}
	what := fmt.Sprintf("list the threads of pull request %s#%d", repo, n)
	return call(ctx, p, what, func(ctx context.Context) (*forgev1.ReviewThreadList, error) {
		var data threadsData
		errs, resp, err := p.graphQL(ctx, p.author, what, threadsQuery, map[string]any{
			"owner": repo.owner, "name": repo.name, "number": n,
			"first": shown.ReviewThreads, "after": after, "comments": shown.ThreadComments,
		}, &data)
		if err != nil {
			return nil, err
		}
		if after != nil && hasType(errs, "INVALID_CURSOR_ARGUMENTS") {
			return nil, toolserver.InvalidArgument("%s: cursor %q is not one GitHub accepts (it may have expired); omit it for the first page", what, req.GetCursor())
		}
		if err := p.gqlFailure(what, errs, resp); err != nil {
			return nil, err
		}
		if data.Repository == nil || data.Repository.PullRequest == nil {
			return nil, toolserver.NotFound("%s: GitHub's GraphQL API has no such pull request (it does not exist, or the credential cannot see it)", what)
		}
		ts := data.Repository.PullRequest.ReviewThreads
		out := &forgev1.ReviewThreadList{Forge: p.Ref(), Repo: repo.String(), Number: uint64(n)}
		if len(ts.Nodes) > shown.ReviewThreads {
			// Its endCursor would then skip the threads past the page.
			return nil, toolserver.Unavailable("%s: GitHub answered %d threads for a page of %d", what, len(ts.Nodes), shown.ReviewThreads)
		}
		for _, t := range ts.Nodes {
			if t == nil || !threadNodeID.MatchString(t.ID) {
				continue // an id no reply could name is no thread to show
			}
			th := &forgev1.ReviewThread{ThreadId: t.ID, Path: t.Path, Side: t.DiffSide, Resolved: t.IsResolved, Outdated: t.IsOutdated}
			line := t.Line
			if line == nil {
				line = t.OriginalLine // outdated: where it was written
			}
			if line != nil {
				th.Line = uint64(max(*line, 0))
			}
			for _, c := range t.Comments.Nodes[:min(len(t.Comments.Nodes), shown.ThreadComments)] {
				if c != nil {
					th.Comments = append(th.Comments, &forgev1.Comment{Author: c.Author.login(), Body: c.Body, Url: c.URL})
				}
			}
			out.Threads = append(out.Threads, th)
		}
		if ts.PageInfo.HasNextPage && ts.PageInfo.EndCursor != nil {
			if !gqlCursor.MatchString(*ts.PageInfo.EndCursor) {
				return nil, toolserver.Unavailable("%s: GitHub's page cursor is not the base64 its API gives", what)
			}
			out.NextCursor = threadCursorPrefix + *ts.PageInfo.EndCursor
		}
		return out, nil
	})
}

// hasType reports whether any of errs is of GraphQL error type t.
func hasType(errs []gqlError, t string) bool {
	for _, e := range errs {
		if e.Type == t {
			return true
		}
	}
	return false
}

const threadOwnerQuery = `query ReviewThreadOwner($owner: String!, $name: String!, $number: Int!, $thread: ID!) {
  repository(owner: $owner, name: $name) { pullRequest(number: $number) { id } }
  node(id: $thread) {
    __typename
    ... on PullRequestReviewThread { pullRequest { id } }
  }
}`

type threadOwnerData struct {
	Repository *struct {
		PullRequest *struct{ ID string }
	}
	Node *struct {
		Typename    string `json:"__typename"`
		PullRequest *struct{ ID string }
	}
}

// threadOf checks that thread id is a thread of pull request n of repo.
// A thread id GitHub does not know is
// not found as one of another pull request is.
func (p *Provider) threadOf(ctx context.Context, repo repoName, n int, id, what string) error {
	var data threadOwnerData
	errs, resp, err := p.graphQL(ctx, p.author, what, threadOwnerQuery, map[string]any{
		"owner": repo.owner, "name": repo.name, "number": n, "thread": id,
	}, &data)
	if err != nil {
		return err
	}
	var fatal []gqlError
	for _, e := range errs {
		if !e.under("node") || e.Type != "NOT_FOUND" {
			fatal = append(fatal, e)
		}
	}
	if err := p.gqlFailure(what, fatal, resp); err != nil {
		return err
	}
	if data.Repository == nil || data.Repository.PullRequest == nil || data.Repository.PullRequest.ID == "" {
		return toolserver.NotFound("%s: GitHub's GraphQL API has no such pull request (it does not exist, or the credential cannot see it)", what)
	}
	t := data.Node
	if t == nil || t.Typename != "PullRequestReviewThread" || t.PullRequest == nil || t.PullRequest.ID != data.Repository.PullRequest.ID {
		return toolserver.NotFound("review thread %s not found on pull request #%d in %s", id, n, repo)
	}
	return nil
}

// threadTarget checks a reply's or resolve's repository, pull request and
// thread id.
func threadTarget(req interface {
	GetRepo() string
	GetPullNumber() uint64
	GetThreadId() string
}) (repoName, int, string, error) {
	repo, n, err := parseNumbered(req.GetRepo(), req.GetPullNumber(), "pull request")
	if err == nil && !threadNodeID.MatchString(req.GetThreadId()) {
		err = toolserver.InvalidArgument("thread_id %q is not a GitHub review thread id (a node id such as PRRT_..., as forge_list_review_threads shows)", req.GetThreadId())
	}
	return repo, n, req.GetThreadId(), err
}

const replyMutation = `mutation ReplyToReviewThread($thread: ID!, $body: String!) {
  addPullRequestReviewThreadReply(input: {pullRequestReviewThreadId: $thread, body: $body}) {
    comment { databaseId url }
  }
}`

// ReplyToReviewThread answers a thread of the pull request named.
func (p *Provider) ReplyToReviewThread(ctx context.Context, _ toolserver.Call, req *gatewayv1.ReplyToReviewThreadRequest) (*forgev1.CommentRef, error) {
	repo, n, id, err := threadTarget(req)
	if err != nil {
		return nil, err
	}
	what := fmt.Sprintf("reply to thread %s of pull request %s#%d", id, repo, n)
	return call(ctx, p, what, func(ctx context.Context) (*forgev1.CommentRef, error) {
		if err := p.threadOf(ctx, repo, n, id, what); err != nil {
			return nil, err
		}
		var data struct {
			AddPullRequestReviewThreadReply *struct {
				Comment *struct {
					DatabaseID *int64
					URL        string
				}
			}
		}
		if err := p.mutate(ctx, what, replyMutation, map[string]any{"thread": id, "body": req.GetBody()}, &data); err != nil {
			return nil, err
		}
		r := data.AddPullRequestReviewThreadReply
		if r == nil || r.Comment == nil {
			return nil, toolserver.Unavailable("%s: GitHub answered without the reply it made", what)
		}
		out := &forgev1.CommentRef{Forge: p.Ref(), Repo: repo.String(), Number: uint64(n), Url: r.Comment.URL}
		if r.Comment.DatabaseID != nil {
			out.CommentId = strconv.FormatInt(*r.Comment.DatabaseID, 10)
		}
		return out, nil
	})
}

const resolveMutation = `mutation ResolveReviewThread($thread: ID!) {
  resolveReviewThread(input: {threadId: $thread}) { thread { isResolved } }
}`

const unresolveMutation = `mutation UnresolveReviewThread($thread: ID!) {
  unresolveReviewThread(input: {threadId: $thread}) { thread { isResolved } }
}`

// ResolveReviewThread resolves or reopens a thread of the pull request
// named; the state in the ack is the one GitHub answers with.
func (p *Provider) ResolveReviewThread(ctx context.Context, _ toolserver.Call, req *gatewayv1.ResolveReviewThreadRequest) (*forgev1.ReviewThreadRef, error) {
	repo, n, id, err := threadTarget(req)
	if err != nil {
		return nil, err
	}
	what := fmt.Sprintf("resolve thread %s of pull request %s#%d", id, repo, n)
	return call(ctx, p, what, func(ctx context.Context) (*forgev1.ReviewThreadRef, error) {
		if err := p.threadOf(ctx, repo, n, id, what); err != nil {
			return nil, err
		}
		var data struct {
			ResolveReviewThread, UnresolveReviewThread *struct {
				Thread *struct{ IsResolved bool }
			}
		}
		mutation := resolveMutation
		if req.GetUnresolve() {
			mutation = unresolveMutation
		}
		if err := p.mutate(ctx, what, mutation, map[string]any{"thread": id}, &data); err != nil {
			return nil, err
		}
		payload := data.ResolveReviewThread
		if req.GetUnresolve() {
			payload = data.UnresolveReviewThread
		}
		if payload == nil || payload.Thread == nil {
			return nil, toolserver.Unavailable("%s: GitHub answered without the thread", what)
		}
		state := "unresolved"
		if payload.Thread.IsResolved {
			state = "resolved"
		}
		return &forgev1.ReviewThreadRef{Forge: p.Ref(), Repo: repo.String(), Number: uint64(n), ThreadId: id, State: state}, nil
	})
}

// mutate sends mutation m with the author's credential and judges the
// answer's errors; the payload decodes into data.
func (p *Provider) mutate(ctx context.Context, what, m string, vars map[string]any, data any) error {
	errs, resp, err := p.graphQL(ctx, p.author, what, m, vars, data)
	if err != nil {
		return err
	}
	return p.gqlFailure(what, errs, resp)
}
