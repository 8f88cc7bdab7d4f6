package gitlab

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	gl "gitlab.com/gitlab-org/api/client-go"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/providers/internal/searchpage"
	"github.com/forgetools/forgetools/toolserver"
)

// Searches use GitLab's project search API (GET /projects/:id/search,
// scope blobs, issues or merge_requests), one project per request: the
// project is the URL's path, so nothing in the query (sent as the search
// parameter, encoded) can reach another project. A search without a repo
// reads the gateway's list one project after another (searchpage.Fan).

var _ gatewayv1handler.ForgeSearchHandler = (*Provider)(nil)

// SearchCode searches each project's blobs at ref (the default branch when
// none). GitLab answers a chunk of lines around one or more matches
// (data, from startline): a match shows the chunk, at the line number of
// its first line that holds the query (else the chunk's start).
func (p *Provider) SearchCode(ctx context.Context, c toolserver.Call, req *gatewayv1.SearchCodeRequest) (*forgev1.CodeMatchList, error) {
	const tool = "forge_search_code"
	repos, err := searchpage.Parsed(tool, req.GetRepo(), c, parseRepo)
	if err != nil {
		return nil, err
	}
	cur, err := searchpage.Parse(tool, req.GetCursor(), len(repos), 1)
	if err != nil {
		return nil, err
	}
	out := &forgev1.CodeMatchList{}
	out.Matches, out.NextCursor, err = searchpage.Fan(cur, len(repos), 1, func(i, page int) ([]*forgev1.CodeMatch, int, error) {
		repo := repos[i]
		pg, err := call(ctx, p, "search code in "+repo.String(), func(ro gl.RequestOptionFunc) (found[*forgev1.CodeMatch], error) {
			opt := &gl.SearchOptions{ListOptions: gl.ListOptions{Page: int64(page), PerPage: int64(searchpage.CodeSize)}}
			if ref := req.GetRef(); ref != "" {
				opt.Ref = ptr(ref)
			}
			blobs, resp, err := p.author.Search.BlobsByProject(repo.String(), req.GetQuery(), opt, ro)
			if err != nil {
				return found[*forgev1.CodeMatch]{}, fail(resp, err)
			}
			var ms []*forgev1.CodeMatch
			for _, b := range blobs[:min(len(blobs), searchpage.CodeSize)] {
				line, text := matchedLine(b.Data, int(b.Startline), req.GetQuery())
				path := b.Path
				if path == "" {
					path = b.Filename
				}
				ms = append(ms, &forgev1.CodeMatch{Forge: p.Ref(), Repo: repo.String(), Path: path, Line: uint64(max(line, 0)), Text: text})
			}
			return found[*forgev1.CodeMatch]{ms, int(resp.NextPage)}, nil
		})
		return pg.items, pg.next, err
	})
	return out, err
}

// found is one page of a search and the forge's next page (0: none).
type found[T any] struct {
	items []T
	next  int
}

// matchedLine is the number of the first line of a chunk starting at
// line start that contains query (ignoring case), else start, and the
// chunk's text.
func matchedLine(data string, start int, query string) (int, string) {
	q := strings.ToLower(query)
	for i, l := range strings.Split(data, "\n") {
		if strings.Contains(strings.ToLower(l), q) {
			return start + i, strings.Trim(data, "\n")
		}
	}
	return start, strings.Trim(data, "\n")
}

// searchKinds are the scopes an issue search reads, in order.
func searchKinds(k gatewayv1.SubscriptionKind) []string {
	switch k {
	case gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_ISSUE:
		return []string{"issue"}
	case gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_PULL_REQUEST:
		return []string{"pull_request"}
	}
	return []string{"issue", "pull_request"}
}

// SearchIssues searches each project's issues, then its merge requests
// (when kind asks for both). "closed" keeps merged merge requests too:
// GitLab's state filter names one state, so that page is filtered here.
func (p *Provider) SearchIssues(ctx context.Context, c toolserver.Call, req *gatewayv1.SearchIssuesRequest) (*forgev1.SearchHitList, error) {
	const tool = "forge_search_issues"
	repos, err := searchpage.Parsed(tool, req.GetRepo(), c, parseRepo)
	if err != nil {
		return nil, err
	}
	kinds := searchKinds(req.GetKind())
	cur, err := searchpage.Parse(tool, req.GetCursor(), len(repos)*len(kinds), 1)
	if err != nil {
		return nil, err
	}
	var want func(string) bool
	var stateParam *string
	switch req.GetState() {
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_UNSPECIFIED, gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_OPEN:
		stateParam, want = ptr("opened"), func(s string) bool { return s == "opened" }
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_CLOSED:
		want = func(s string) bool { return s != "opened" }
	default:
		want = func(string) bool { return true }
	}
	out := &forgev1.SearchHitList{}
	out.Hits, out.NextCursor, err = searchpage.Fan(cur, len(repos)*len(kinds), 1, func(phase, page int) ([]*forgev1.SearchHit, int, error) {
		repo, kind := repos[phase/len(kinds)], kinds[phase%len(kinds)]
		what := fmt.Sprintf("search %ss in %s", kind, repo)
		pg, err := call(ctx, p, what, func(ro gl.RequestOptionFunc) (found[*forgev1.SearchHit], error) {
			opt := &gl.SearchOptions{ListOptions: gl.ListOptions{Page: int64(page), PerPage: int64(searchpage.HitSize)}}
			// The client's SearchOptions has no state; GitLab takes one
			// as a query parameter of the same request.
			ros := []gl.RequestOptionFunc{ro}
			if stateParam != nil {
				ros = append(ros, withState(*stateParam))
			}
			// Issues and merge requests, in the fields a hit shows.
			var items []searched
			var resp *gl.Response
			var err error
			if kind == "issue" {
				var is []*gl.Issue
				is, resp, err = p.author.Search.IssuesByProject(repo.String(), req.GetQuery(), opt, ros...)
				for _, i := range is {
					items = append(items, searched{i.IID, i.State, i.Title, i.WebURL, i.UpdatedAt})
				}
			} else {
				var ms []*gl.MergeRequest
				ms, resp, err = p.author.Search.MergeRequestsByProject(repo.String(), req.GetQuery(), opt, ros...)
				for _, m := range ms {
					items = append(items, searched{m.IID, m.State, m.Title, m.WebURL, m.UpdatedAt})
				}
			}
			var hits []*forgev1.SearchHit
			for _, it := range items[:min(len(items), searchpage.HitSize)] {
				if want(it.state) {
					hits = append(hits, &forgev1.SearchHit{Forge: p.Ref(), Repo: repo.String(), Number: uint64(max(it.iid, 0)), Kind: kind,
						State: state(it.state), Title: it.title, Url: it.url, UpdatedAt: stamp(it.updated)})
				}
			}
			if err != nil {
				return found[*forgev1.SearchHit]{}, fail(resp, err)
			}
			return found[*forgev1.SearchHit]{hits, int(resp.NextPage)}, nil
		})
		return pg.items, pg.next, err
	})
	return out, err
}

// searched is an issue or merge request as a search hit shows it.
type searched struct {
	iid               int64
	state, title, url string
	updated           *time.Time
}

// withState adds GitLab's state filter to a search request.
func withState(v string) gl.RequestOptionFunc {
	return func(r *retryablehttp.Request) error {
		q := r.URL.Query()
		q.Set("state", v)
		r.URL.RawQuery = q.Encode()
		return nil
	}
}
