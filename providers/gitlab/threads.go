package gitlab

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	gl "gitlab.com/gitlab-org/api/client-go"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/providers/internal/rest"
	"github.com/forgetools/forgetools/toolserver"
)

// A review thread on GitLab is a merge request's diff discussion: its id
// is the discussion's, its notes are the thread's comments, and resolving
// it is PUT .../discussions/:id?resolved=. Discussions that are not on
// the diff (the overview's notes and threads) are not review threads and
// are left out of the list.

// discussionID is GitLab's discussion id: 40 hex digits. A page of
// threads is one GitLab page of discussions, shown.ReviewThreads long.
var discussionID = regexp.MustCompile(`^[0-9a-f]{40}$`)

// pageCursor marks a cursor as a page of this list's.
const pageCursor = "page:"

// threadPage reads a next_cursor the list gave: GitLab's next page of
// discussions; "" is the first.
func threadPage(cursor string) (int64, error) {
	if cursor == "" {
		return 1, nil
	}
	rest, ok := strings.CutPrefix(cursor, pageCursor)
	n, err := strconv.ParseInt(rest, 10, 32)
	if !ok || err != nil || n < 2 || strconv.FormatInt(n, 10) != rest {
		return 0, toolserver.InvalidArgument("cursor %q is not a next_cursor forge_list_review_threads gave; omit it for the first page", cursor)
	}
	return n, nil
}

// threadTarget checks a reply's or resolve's project, merge request and
// thread id, which must be a GitLab discussion id.
func threadTarget(req interface {
	GetRepo() string
	GetPullNumber() uint64
	GetThreadId() string
}) (project, int64, string, error) {
	repo, n, err := target(req.GetRepo(), req.GetPullNumber(), "merge request")
	if err == nil && !discussionID.MatchString(req.GetThreadId()) {
		err = toolserver.InvalidArgument("thread_id %q is not a GitLab discussion id (40 hex digits, as forge_list_review_threads shows)", req.GetThreadId())
	}
	return repo, n, req.GetThreadId(), err
}

// ListReviewThreads reads one page of a merge request's discussions and
// keeps the diff discussions. A thread is outdated when it was written
// against a head that is no longer the merge request's.
func (p *Provider) ListReviewThreads(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListReviewThreadsRequest) (*forgev1.ReviewThreadList, error) {
	repo, n, err := target(req.GetRepo(), req.GetPullNumber(), "merge request")
	if err != nil {
		return nil, err
	}
	page, err := threadPage(req.GetCursor())
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("list the threads of merge request %s!%d", repo, n), func(ro gl.RequestOptionFunc) (*forgev1.ReviewThreadList, error) {
		mr, resp, err := p.author.MergeRequests.GetMergeRequest(repo.String(), n, nil, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		ds, resp, err := p.author.Discussions.ListMergeRequestDiscussions(repo.String(), n,
			&gl.ListMergeRequestDiscussionsOptions{ListOptions: gl.ListOptions{Page: page, PerPage: int64(shown.ReviewThreads)}}, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		out := &forgev1.ReviewThreadList{Forge: p.Ref(), Repo: repo.String(), Number: uint64(n)}
		for _, d := range ds {
			if t := reviewThread(d, mr); t != nil {
				out.Threads = append(out.Threads, t)
			}
		}
		if resp.NextPage > page {
			out.NextCursor = pageCursor + strconv.FormatInt(resp.NextPage, 10)
		}
		return out, nil
	})
}

// reviewThread is a diff discussion as a thread; nil for any other.
func reviewThread(d *gl.Discussion, mr *gl.MergeRequest) *forgev1.ReviewThread {
	if d == nil || len(d.Notes) == 0 || d.Notes[0] == nil || d.Notes[0].Position == nil || d.Notes[0].System {
		return nil
	}
	first := d.Notes[0]
	t := &forgev1.ReviewThread{ThreadId: d.ID, Resolved: first.Resolved}
	t.Path, t.Line, t.Side = anchor(first.Position)
	if head := first.Position.HeadSHA; head != "" && mr.DiffRefs.HeadSha != "" && head != mr.DiffRefs.HeadSha {
		t.Outdated = true
	}
	for _, note := range d.Notes {
		if note == nil || note.System || len(t.Comments) == shown.ThreadComments {
			continue
		}
		id := strconv.FormatInt(note.ID, 10)
		t.Comments = append(t.Comments, &forgev1.Comment{Author: note.Author.Username, Body: note.Body, Url: mr.WebURL + "#note_" + id})
	}
	return t
}

// ReplyToReviewThread adds a note to a discussion of the merge request
// named; GitLab finds the discussion through the merge request, so one of
// another merge request or project is not found.
func (p *Provider) ReplyToReviewThread(ctx context.Context, _ toolserver.Call, req *gatewayv1.ReplyToReviewThreadRequest) (*forgev1.CommentRef, error) {
	repo, n, id, err := threadTarget(req)
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("reply to thread %s of merge request %s!%d", id, repo, n), func(ro gl.RequestOptionFunc) (*forgev1.CommentRef, error) {
		mr, resp, err := p.author.MergeRequests.GetMergeRequest(repo.String(), n, nil, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		note, resp, err := p.author.Discussions.AddMergeRequestDiscussionNote(repo.String(), n, id,
			&gl.AddMergeRequestDiscussionNoteOptions{Body: ptr(req.GetBody())}, ro)
		if err != nil {
			return nil, threadFail(resp, err, id, repo, n)
		}
		return p.noteRef(repo, n, note, mr.WebURL), nil
	})
}

// ResolveReviewThread resolves or reopens a discussion of the merge
// request named; the state in the ack is the one GitLab answers with.
func (p *Provider) ResolveReviewThread(ctx context.Context, _ toolserver.Call, req *gatewayv1.ResolveReviewThreadRequest) (*forgev1.ReviewThreadRef, error) {
	repo, n, id, err := threadTarget(req)
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("resolve thread %s of merge request %s!%d", id, repo, n), func(ro gl.RequestOptionFunc) (*forgev1.ReviewThreadRef, error) {
		d, resp, err := p.author.Discussions.ResolveMergeRequestDiscussion(repo.String(), n, id,
			&gl.ResolveMergeRequestDiscussionOptions{Resolved: ptr(!req.GetUnresolve())}, ro)
		if err != nil {
			return nil, threadFail(resp, err, id, repo, n)
		}
		state := "unresolved"
		if len(d.Notes) > 0 && d.Notes[0] != nil && d.Notes[0].Resolved {
			state = "resolved"
		}
		return &forgev1.ReviewThreadRef{Forge: p.Ref(), Repo: repo.String(), Number: uint64(n), ThreadId: id, State: state}, nil
	})
}

// threadFail names the thread when GitLab does not find it (404: the
// merge request has no such discussion) or will not resolve it (403: not
// a resolvable discussion, or no right to); other failures map as usual.
func threadFail(resp *gl.Response, err error, id string, repo project, n int64) error {
	err = fail(resp, err)
	switch rest.Status(err) {
	case http.StatusNotFound:
		return toolserver.NotFound("review thread %s not found on merge request !%d in %s", id, n, repo)
	case http.StatusForbidden:
		return toolserver.PermissionDenied("GitLab refused to change thread %s of merge request !%d in %s: it is not a resolvable diff thread, or the credential may not resolve it", id, n, repo)
	}
	return err
}
