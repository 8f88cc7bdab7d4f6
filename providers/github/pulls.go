package github

import (
	"context"
	"strings"

	gh "github.com/google/go-github/v84/github"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// checks is the head commit's roll-up over REST (a webhook's check
// events: webhook.go; forge_get_pull_request reads it by GraphQL,
// graphql_pull.go), or "" when it cannot be had: a token may lack the
// statuses or checks permission, and a pull request is still worth reading
// without it.
func (p *Provider) checks(ctx context.Context, repo repoName, sha string) string {
	if sha == "" {
		return ""
	}
	status, _, err := p.author.Repositories.GetCombinedStatus(ctx, repo.owner, repo.name, sha, &gh.ListOptions{PerPage: maxPerPage})
	if err != nil {
		p.log.DebugContext(ctx, "github: no commit status for pull request head", "host", p.host, "repo", repo.String(), "code", p.mapError("status", err).Code.String())
		return ""
	}
	runs, complete, err := p.checkRuns(ctx, repo, sha)
	if err != nil {
		p.log.DebugContext(ctx, "github: no check runs for pull request head", "host", p.host, "repo", repo.String(), "code", p.mapError("checks", err).Code.String())
		return ""
	}
	state := checksState(status, runs)
	if !complete && state != "failure" {
		// Runs left unread could fail: only a failure already seen is
		// certain.
		p.log.DebugContext(ctx, "github: too many check runs to read them all", "host", p.host, "repo", repo.String(), "read", len(runs))
		return ""
	}
	return state
}

// checkRuns reads every check run of the commit sha, page by page, until it
// has total_count of them; complete is false when the page limit stopped it
// first.
func (p *Provider) checkRuns(ctx context.Context, repo repoName, sha string) (runs []*gh.CheckRun, complete bool, err error) {
	opts := &gh.ListCheckRunsOptions{ListOptions: gh.ListOptions{PerPage: maxPerPage}}
	type checks = kit.Page[*gh.CheckRun, int]
	err = kit.Pages(checkPageLimit, func(next int) (checks, error) {
		opts.Page = next
		page, resp, err := p.author.Checks.ListCheckRunsForRef(ctx, repo.owner, repo.name, sha, opts)
		if err != nil {
			return checks{}, err
		}
		pg := checks{Items: page.CheckRuns, Next: nextPage(resp)}
		if len(runs)+len(page.CheckRuns) >= page.GetTotal() || len(page.CheckRuns) == 0 {
			pg.Next = 0 // all total_count read, or GitHub has no more to give
		}
		complete = pg.Next == 0
		return pg, nil
	}, func(r *gh.CheckRun) bool { runs = append(runs, r); return true })
	if err != nil {
		return nil, false, err
	}
	return runs, complete, nil
}

// checkPageLimit bounds the check run pages one read follows: GitHub lists
// at most the runs of a ref's 1,000 most recent check suites, and a
// pathological commit should still cost a bounded number of requests.
const checkPageLimit = 20

// CreatePullRequest opens a pull request from an already pushed head. An
// omitted base is the repository's default branch, looked up first. A keyed
// create marks its body, and a resumed one returns the pull request an
// earlier attempt opened, if any (recover.go).
func (p *Provider) CreatePullRequest(ctx context.Context, c toolserver.Call, req *gatewayv1.CreatePullRequestRequest) (*forgev1.PullRequest, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	return call(ctx, p, "create pull request in "+repo.String(), func(ctx context.Context) (*forgev1.PullRequest, error) {
		if i, err := p.earlier(ctx, c, repo); err != nil {
			return nil, err
		} else if i != nil && i.IsPullRequest() {
			pr, _, err := p.author.PullRequests.Get(ctx, repo.owner, repo.name, i.GetNumber())
			if err != nil {
				return nil, err
			}
			return p.pullRequest(repo, pr), nil
		}
		base := req.GetBaseRef()
		if base == "" {
			r, _, err := p.author.Repositories.Get(ctx, repo.owner, repo.name)
			if err != nil {
				return nil, err
			}
			if base = r.GetDefaultBranch(); base == "" {
				return nil, toolserver.FailedPrecondition("%s has no default branch (is it empty?); give base_ref", repo)
			}
		}
		in := &gh.NewPullRequest{Title: gh.Ptr(req.GetTitle()), Head: gh.Ptr(req.GetHeadRef()), Base: gh.Ptr(base)}
		if body := markBody(c, req.GetBody()); body != "" {
			in.Body = gh.Ptr(body)
		}
		if req.GetDraft() {
			in.Draft = gh.Ptr(true)
		}
		pr, _, err := p.author.PullRequests.Create(ctx, repo.owner, repo.name, in)
		if err != nil {
			return nil, err
		}
		return p.pullRequest(repo, pr), nil
	})
}

// CommentOnPullRequest posts a conversation comment (GitHub stores those as
// issue comments), not a review.
func (p *Provider) CommentOnPullRequest(ctx context.Context, _ toolserver.Call, req *gatewayv1.CommentOnPullRequestRequest) (*forgev1.CommentRef, error) {
	return p.comment(ctx, "pull request", req.GetRepo(), req.GetPullNumber(), req.GetBody())
}

var pullStates = map[gatewayv1.PullRequestStateFilter]string{
	gatewayv1.PullRequestStateFilter_PULL_REQUEST_STATE_FILTER_CLOSED: "closed",
	gatewayv1.PullRequestStateFilter_PULL_REQUEST_STATE_FILTER_ALL:    "all",
}

// ListPullRequests lists pull requests newest first, one page of at most
// limit (paging.go). GitHub's listing carries each head sha and merge time but never
// mergeability (it computes that per pull request), so mergeable is empty
// here; forge_get_pull_request has it.
func (p *Provider) ListPullRequests(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListPullRequestsRequest) (*forgev1.PullRequestList, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	cur := kit.CursorsFor("forge_list_pull_requests", req)
	page, err := listPage(cur, req.GetCursor(), req.Limit)
	if err != nil {
		return nil, err
	}
	opts := &gh.PullRequestListOptions{
		State:       or(pullStates[req.GetState()], "open"),
		Base:        req.GetBase(),
		Head:        qualifiedHead(repo, req.GetHead()),
		Sort:        "created",
		Direction:   "desc",
		ListOptions: page,
	}
	return call(ctx, p, "list pull requests in "+repo.String(), func(ctx context.Context) (*forgev1.PullRequestList, error) {
		prs, resp, err := p.author.PullRequests.List(ctx, repo.owner, repo.name, opts)
		if err != nil {
			return nil, err
		}
		list := &forgev1.PullRequestList{NextCursor: nextCursor(cur, page, resp)}
		for _, pr := range prs[:min(len(prs), opts.PerPage)] {
			list.PullRequests = append(list.PullRequests, p.pullRequest(repo, pr))
		}
		return list, nil
	})
}

// qualifiedHead is GitHub's head filter, "owner:branch": a bare branch is
// taken to be in the repository itself (GitHub ignores a bare name).
func qualifiedHead(repo repoName, head string) string {
	if head == "" || strings.Contains(head, ":") {
		return head
	}
	return repo.owner + ":" + head
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
