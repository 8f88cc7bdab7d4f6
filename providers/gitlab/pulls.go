package gitlab

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	gl "gitlab.com/gitlab-org/api/client-go"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/providers/internal/rest"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// GetPullRequest reads a merge request (by iid) with its approvals, its
// notes (diff notes as review comments, the rest as the conversation) and
// its head pipeline's state.
func (p *Provider) GetPullRequest(ctx context.Context, _ toolserver.Call, req *gatewayv1.GetPullRequestRequest) (*forgev1.PullRequest, error) {
	repo, n, err := target(req.GetRepo(), req.GetPullNumber(), "merge request")
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("get merge request %s!%d", repo, n), func(ro gl.RequestOptionFunc) (*forgev1.PullRequest, error) {
		mr, resp, err := p.author.MergeRequests.GetMergeRequest(repo.String(), n, nil, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		approvals, resp, err := p.author.MergeRequestApprovals.GetConfiguration(repo.String(), n, ro)
		if err != nil {
			// Approvals are read where the credential may; a merge request
			// is still worth reading without them.
			p.log.DebugContext(ctx, "gitlab: no approvals for merge request", "host", p.host, "repo", repo.String(),
				"code", p.mapError("approvals", fail(resp, err)).Code.String())
			approvals = nil
		}
		notes, more, err := firstNotes(func(o gl.ListOptions) ([]*gl.Note, *gl.Response, error) {
			return p.author.Notes.ListMergeRequestNotes(repo.String(), n,
				&gl.ListMergeRequestNotesOptions{ListOptions: o, OrderBy: ptr("created_at"), Sort: ptr("asc")}, ro)
		})
		if err != nil {
			return nil, err
		}
		out := p.basicMR(repo, &mr.BasicMergeRequest)
		out.Reviews = reviews(approvals, notes)
		cs := comments(notes)
		out.Comments = cs[:min(len(cs), shown.PullComments)]
		// GitLab counts user notes, diff notes among them: past the first
		// page, the conversation is that count less the diff notes seen.
		forge := 0
		if more {
			forge = int(mr.UserNotesCount) - diffNotes(notes)
		}
		out.CommentsTotal = shown.Total(len(out.Comments), len(cs), forge)
		out.ChecksState = checksState(mr.HeadPipeline)
		return out, nil
	})
}

// ListPullRequests lists merge requests newest first, the page the cursor
// names, filtered by state, target (base) and source (head) branch on
// GitLab's side. GitLab's "closed" leaves merged ones out, where the
// tools' closed (as GitHub's) takes them in: closed lists every state and
// drops the open ones from the page.
func (p *Provider) ListPullRequests(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListPullRequestsRequest) (*forgev1.PullRequestList, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	cur := kit.CursorsFor("forge_list_pull_requests", req)
	page, err := cur.Page(req.GetCursor())
	if err != nil {
		return nil, err
	}
	st, closed := "opened", false
	switch req.GetState() {
	case gatewayv1.PullRequestStateFilter_PULL_REQUEST_STATE_FILTER_CLOSED:
		st, closed = "all", true
	case gatewayv1.PullRequestStateFilter_PULL_REQUEST_STATE_FILTER_ALL:
		st = "all"
	}
	opt := &gl.ListProjectMergeRequestsOptions{
		ListOptions: gl.ListOptions{PerPage: listLimit(req.GetLimit()), Page: page},
		State:       ptr(st), OrderBy: ptr("created_at"), Sort: ptr("desc"),
	}
	if b := req.GetBase(); b != "" {
		opt.TargetBranch = ptr(b)
	}
	if h := req.GetHead(); h != "" {
		opt.SourceBranch = ptr(h)
	}
	return call(ctx, p, "list merge requests in "+repo.String(), func(ro gl.RequestOptionFunc) (*forgev1.PullRequestList, error) {
		mrs, resp, err := p.author.MergeRequests.ListProjectMergeRequests(repo.String(), opt, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		list := &forgev1.PullRequestList{NextCursor: cur.NextKey(int64(nextPage(resp)))}
		for _, mr := range mrs[:min(len(mrs), int(opt.PerPage))] {
			if !closed || (mr.State != "opened" && mr.State != "locked") {
				list.PullRequests = append(list.PullRequests, p.basicMR(repo, mr))
			}
		}
		return list, nil
	})
}

// CreatePullRequest opens a merge request from an already pushed source
// branch. An omitted base is the project's default branch, looked up
// first. A draft is a title starting "Draft:", which is how GitLab marks
// one.
func (p *Provider) CreatePullRequest(ctx context.Context, _ toolserver.Call, req *gatewayv1.CreatePullRequestRequest) (*forgev1.PullRequest, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	title := req.GetTitle()
	if req.GetDraft() && !strings.HasPrefix(strings.ToLower(title), "draft:") {
		title = "Draft: " + title
	}
	return call(ctx, p, "create merge request in "+repo.String(), func(ro gl.RequestOptionFunc) (*forgev1.PullRequest, error) {
		base := req.GetBaseRef()
		if base == "" {
			var err error
			if base, err = p.defaultBranch(repo, ro); err != nil {
				return nil, err
			}
		}
		in := &gl.CreateMergeRequestOptions{Title: ptr(title), SourceBranch: ptr(req.GetHeadRef()), TargetBranch: ptr(base)}
		if req.GetBody() != "" {
			in.Description = ptr(req.GetBody())
		}
		mr, resp, err := p.author.MergeRequests.CreateMergeRequest(repo.String(), in, ro)
		if err != nil {
			if resp != nil && resp.StatusCode == http.StatusConflict {
				return nil, toolserver.AlreadyExists("%s", p.mapError("create merge request", fail(resp, err)).Message)
			}
			return nil, fail(resp, err)
		}
		return p.basicMR(repo, &mr.BasicMergeRequest), nil
	})
}

// defaultBranch is the project's default branch.
func (p *Provider) defaultBranch(repo project, ro gl.RequestOptionFunc) (string, error) {
	pr, resp, err := p.author.Projects.GetProject(repo.String(), nil, ro)
	if err != nil {
		return "", fail(resp, err)
	}
	if pr.DefaultBranch == "" || pr.EmptyRepo {
		return "", toolserver.FailedPrecondition("%s has no default branch (is it empty?)", repo)
	}
	return pr.DefaultBranch, nil
}

// CommentOnPullRequest posts a note on a merge request's overview (not a
// diff discussion).
func (p *Provider) CommentOnPullRequest(ctx context.Context, _ toolserver.Call, req *gatewayv1.CommentOnPullRequestRequest) (*forgev1.CommentRef, error) {
	repo, n, err := target(req.GetRepo(), req.GetPullNumber(), "merge request")
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("comment on merge request %s!%d", repo, n), func(ro gl.RequestOptionFunc) (*forgev1.CommentRef, error) {
		mr, resp, err := p.author.MergeRequests.GetMergeRequest(repo.String(), n, nil, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		note, resp, err := p.author.Notes.CreateMergeRequestNote(repo.String(), n, &gl.CreateMergeRequestNoteOptions{Body: ptr(req.GetBody())}, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		return p.noteRef(repo, n, note, mr.WebURL), nil
	})
}

// MergePullRequest accepts a merge request with sha set to the head the
// agent reviewed: GitLab refuses (409) when the source branch moved since.
// GitLab merges with the project's merge method (merge commit,
// semi-linear or fast-forward); squash is a per-merge choice, rebase is
// not, so a rebase is refused rather than done some other way.
func (p *Provider) MergePullRequest(ctx context.Context, _ toolserver.Call, req *gatewayv1.MergePullRequestRequest) (*forgev1.MergeResult, error) {
	repo, n, err := target(req.GetRepo(), req.GetPullNumber(), "merge request")
	if err != nil {
		return nil, err
	}
	in := &gl.AcceptMergeRequestOptions{SHA: ptr(req.GetExpectedHeadSha())}
	method := "merge"
	switch req.GetMethod() {
	case gatewayv1.MergeMethod_MERGE_METHOD_SQUASH:
		in.Squash, method = ptr(true), "squash"
	case gatewayv1.MergeMethod_MERGE_METHOD_REBASE:
		return nil, toolserver.InvalidArgument("GitLab merges with the project's merge method (set in its settings), so rebase cannot be chosen per merge; use merge (which fast-forwards on a fast-forward project) or squash")
	}
	return call(ctx, p, fmt.Sprintf("merge merge request %s!%d", repo, n), func(ro gl.RequestOptionFunc) (*forgev1.MergeResult, error) {
		if len(req.GetExpectedHeadSha()) < 40 {
			// GitLab compares the full sha: resolve a short one against
			// the merge request's head first.
			mr, resp, err := p.author.MergeRequests.GetMergeRequest(repo.String(), n, nil, ro)
			if err != nil {
				return nil, fail(resp, err)
			}
			if !strings.HasPrefix(strings.ToLower(mr.SHA), strings.ToLower(req.GetExpectedHeadSha())) {
				return nil, moved(repo, n, mr.SHA, req.GetExpectedHeadSha())
			}
			in.SHA = ptr(mr.SHA)
		}
		mr, resp, err := p.author.MergeRequests.AcceptMergeRequest(repo.String(), n, in, ro)
		if err != nil {
			if rest.Status(fail(resp, err)) == http.StatusConflict {
				return nil, moved(repo, n, "", req.GetExpectedHeadSha())
			}
			return nil, fail(resp, err)
		}
		out := &forgev1.MergeResult{Forge: p.Ref(), Repo: repo.String(), Number: uint64(n), Method: method, Url: mr.WebURL}
		switch {
		case mr.MergeCommitSHA != "":
			out.Sha = mr.MergeCommitSHA
		case mr.SquashCommitSHA != "":
			out.Sha = mr.SquashCommitSHA
		default:
			out.Sha = mr.SHA // a fast-forward: the target now points at the head
		}
		return out, nil
	})
}

func moved(repo project, n int64, head, expected string) error {
	if head == "" {
		return toolserver.FailedPrecondition("GitLab answered 409: the source branch of %s!%d moved past %s since you read it; nothing was merged, read it again and decide", repo, n, expected)
	}
	return toolserver.FailedPrecondition("the head of %s!%d is %s, not %s: it moved since you read it; nothing was merged, read it again and decide", repo, n, head, expected)
}
