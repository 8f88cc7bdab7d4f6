package gitea

import (
	"context"

	sdk "code.gitea.io/sdk/gitea"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/providers/internal/searchpage"
	"github.com/forgetools/forgetools/toolserver"
)

var _ gatewayv1handler.ForgeSearchHandler = (*Provider)(nil)

// SearchCode is unimplemented: Gitea's and Forgejo's REST API has no code
// search (their swagger, through Gitea 1.27, lists none), whether or not
// the instance runs a code indexer; the indexer serves the web interface
// only.
func (p *Provider) SearchCode(context.Context, toolserver.Call, *gatewayv1.SearchCodeRequest) (*forgev1.CodeMatchList, error) {
	return nil, toolserver.NotImplemented("%s's API has no code search (its code indexer, when enabled, serves only the web interface): read files with forge_read_file and forge_list_dir", p.flavor.Name())
}

// SearchIssues searches each repository's issues and pull requests with
// its issue list's keyword filter (GET /repos/{owner}/{repo}/issues?q=),
// one repository of the list after another. The repository is the URL's
// path, so nothing in the query (sent as q, encoded) reaches another one;
// the global /repos/issues/search is not used, since it cannot be held to
// a list of repositories.
func (p *Provider) SearchIssues(ctx context.Context, c toolserver.Call, req *gatewayv1.SearchIssuesRequest) (*forgev1.SearchHitList, error) {
	const tool = "forge_search_issues"
	repos, err := searchpage.Parsed(tool, req.GetRepo(), c, p.parseRepo)
	if err != nil {
		return nil, err
	}
	cur, err := searchpage.Parse(tool, req.GetCursor(), len(repos), 1)
	if err != nil {
		return nil, err
	}
	opt := sdk.ListIssueOption{State: issueState(req.GetState()), KeyWord: req.GetQuery()}
	switch req.GetKind() {
	case gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_ISSUE:
		opt.Type = sdk.IssueTypeIssue
	case gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_PULL_REQUEST:
		opt.Type = sdk.IssueTypePull
	}
	out := &forgev1.SearchHitList{}
	out.Hits, out.NextCursor, err = searchpage.Fan(cur, len(repos), 1, func(i, page int) ([]*forgev1.SearchHit, int, error) {
		repo := repos[i]
		pg, err := call(ctx, p, "search issues in "+repo.String(), func(cl *sdk.Client) (hitPage, error) {
			o := opt
			o.ListOptions = sdk.ListOptions{Page: page, PageSize: searchpage.HitSize}
			is, resp, err := cl.ListRepoIssues(repo.owner, repo.name, o)
			if err != nil {
				return hitPage{}, fail(resp, err)
			}
			var hp hitPage
			for _, it := range is[:min(len(is), searchpage.HitSize)] {
				h := &forgev1.SearchHit{Forge: p.Ref(), Repo: repo.String(), Number: uint64(max(it.Index, 0)), Kind: "issue",
					State: string(it.State), Title: it.Title, Url: it.HTMLURL, UpdatedAt: stamp(it.Updated)}
				if it.PullRequest != nil {
					h.Kind = "pull_request"
				}
				hp.hits = append(hp.hits, h)
			}
			if resp != nil {
				hp.next = resp.NextPage
			}
			return hp, nil
		})
		return pg.hits, pg.next, err
	})
	return out, err
}

// hitPage is one page of a repository's search hits and Gitea's next page
// (0: none).
type hitPage struct {
	hits []*forgev1.SearchHit
	next int
}
