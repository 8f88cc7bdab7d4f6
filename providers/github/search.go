package github

import (
	"context"
	"strings"
	"unicode"

	gh "github.com/google/go-github/v84/github"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/providers/internal/searchpage"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// Searches use GitHub's search API (GET /search/code, GET /search/issues),
// one request a page for every repository the search covers: GitHub ORs
// several repo: qualifiers in one q. GitHub's q takes qualifiers anywhere
// (repo:, org:, is:, OR, NOT, parentheses), so the agent's text is sent
// as one quoted phrase, which GitHub reads as literal text, and the
// repo: qualifiers the provider adds after it are the only ones; text
// that cannot be quoted (a double quote or a backslash in it) is
// refused, not escaped. The gateway drops any result from outside the
// call's repositories all the same (gateway/searchscope.go). GitHub's
// search quota (30 requests a minute) is its own; its refusal maps to
// resource_exhausted like any other limit. Pages are GitHub's page
// numbers in a cursor bound to the query; GitHub serves a search's first
// 1,000 results.

var _ gatewayv1handler.ForgeSearchHandler = (*Provider)(nil)

// searchPer is a search page's size: what the renderer shows of either
// result.
var searchPer = min(searchpage.CodeSize, searchpage.HitSize, maxPerPage)

// acceptTextMatch asks the search API for text_matches, the fragments
// around each match.
const acceptTextMatch = "application/vnd.github.text-match+json"

// searchQuery is GitHub's q for the agent's text over repos, with the
// extra qualifiers: the text one quoted phrase, then a repo: qualifier
// for each repository.
func searchQuery(tool, text string, repos []repoName, extra ...string) (string, error) {
	if strings.ContainsAny(text, `"\`) {
		return "", toolserver.InvalidArgument(`%s on GitHub searches the query as one literal phrase, and a double quote or backslash in it would end the phrase and let the rest be read as qualifiers: leave them out`, tool)
	}
	if strings.IndexFunc(text, unicode.IsControl) >= 0 {
		return "", toolserver.InvalidArgument("%s on GitHub takes a query of one line without control characters", tool)
	}
	parts := []string{`"` + strings.TrimSpace(text) + `"`}
	for _, r := range repos {
		parts = append(parts, "repo:"+r.String())
	}
	return strings.Join(append(parts, extra...), " "), nil
}

// searchPage is the search options of the page the cursor names.
func searchPage(cur kit.Cursors, cursor string) (*gh.SearchOptions, gh.ListOptions, error) {
	page, err := cur.Page(cursor)
	o := gh.ListOptions{PerPage: searchPer}
	if page > 1 {
		o.Page = int(page)
	}
	return &gh.SearchOptions{TextMatch: true, ListOptions: o}, o, err
}

// SearchCode searches the files of each repository's default branch, the
// only branch GitHub's code search indexes, so a ref is refused. GitHub
// gives a match's fragment but not its line, so a match has no line.
func (p *Provider) SearchCode(ctx context.Context, c toolserver.Call, req *gatewayv1.SearchCodeRequest) (*forgev1.CodeMatchList, error) {
	const tool = "forge_search_code"
	if req.GetRef() != "" {
		return nil, toolserver.InvalidArgument("GitHub's code search searches only each repository's default branch: omit ref, or read the file at %q with forge_read_file", req.GetRef())
	}
	repos, err := searchpage.Parsed(tool, req.GetRepo(), c, parseRepo)
	if err != nil {
		return nil, err
	}
	q, err := searchQuery(tool, req.GetQuery(), repos)
	if err != nil {
		return nil, err
	}
	cur := kit.CursorsFor(tool, req)
	opts, page, err := searchPage(cur, req.GetCursor())
	if err != nil {
		return nil, err
	}
	return call(ctx, p, "search code", func(ctx context.Context) (*forgev1.CodeMatchList, error) {
		res, resp, err := p.author.Search.Code(ctx, q, opts)
		if err != nil {
			return nil, err
		}
		out := &forgev1.CodeMatchList{NextCursor: nextCursor(cur, page, resp)}
		for _, r := range res.CodeResults[:min(len(res.CodeResults), searchPer)] {
			m := &forgev1.CodeMatch{Forge: p.Ref(), Repo: r.GetRepository().GetFullName(), Path: r.GetPath()}
			var frags []string
			for _, tm := range r.TextMatches {
				frags = append(frags, strings.Trim(tm.GetFragment(), "\n"))
			}
			m.Text = strings.Join(frags, "\n…\n")
			out.Matches = append(out.Matches, m)
		}
		return out, nil
	})
}

// searchKind and searchState are the qualifiers of an issue search's kind
// and state; both kinds and every state send none.
var (
	searchKind = map[gatewayv1.SubscriptionKind]string{
		gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_ISSUE:        "is:issue",
		gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_PULL_REQUEST: "is:pr",
	}
	searchState = map[gatewayv1.IssueStateFilter]string{
		gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_UNSPECIFIED: "is:open",
		gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_OPEN:        "is:open",
		gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_CLOSED:      "is:closed",
	}
)

// SearchIssues searches the issues and pull requests of the repositories
// it covers, in their titles, bodies and comments (GitHub's default), by
// kind and state.
func (p *Provider) SearchIssues(ctx context.Context, c toolserver.Call, req *gatewayv1.SearchIssuesRequest) (*forgev1.SearchHitList, error) {
	const tool = "forge_search_issues"
	repos, err := searchpage.Parsed(tool, req.GetRepo(), c, parseRepo)
	if err != nil {
		return nil, err
	}
	var extra []string
	for _, q := range []string{searchKind[req.GetKind()], searchState[req.GetState()]} {
		if q != "" {
			extra = append(extra, q)
		}
	}
	q, err := searchQuery(tool, req.GetQuery(), repos, extra...)
	if err != nil {
		return nil, err
	}
	cur := kit.CursorsFor(tool, req)
	opts, page, err := searchPage(cur, req.GetCursor())
	if err != nil {
		return nil, err
	}
	opts.TextMatch = false // a hit shows its title, not fragments
	return call(ctx, p, "search issues", func(ctx context.Context) (*forgev1.SearchHitList, error) {
		res, resp, err := p.author.Search.Issues(ctx, q, opts)
		if err != nil {
			return nil, err
		}
		out := &forgev1.SearchHitList{NextCursor: nextCursor(cur, page, resp)}
		for _, i := range res.Issues[:min(len(res.Issues), searchPer)] {
			h := &forgev1.SearchHit{Forge: p.Ref(), Repo: repoOfURL(i.GetRepositoryURL()), Number: uint64(max(i.GetNumber(), 0)),
				Kind: "issue", State: i.GetState(), Title: i.GetTitle(), Url: i.GetHTMLURL(), UpdatedAt: timestamp(i.UpdatedAt)}
			if i.IsPullRequest() {
				h.Kind = "pull_request"
			}
			out.Hits = append(out.Hits, h)
		}
		return out, nil
	})
}

// repoOfURL is the owner/name of a repository's API address
// (".../repos/owner/name"); "" when it is none, which the gateway's scope
// filter then drops.
func repoOfURL(u string) string {
	_, rest, ok := strings.Cut(u, "/repos/")
	if !ok {
		return ""
	}
	if r, err := parseRepo(rest); err == nil {
		return r.String()
	}
	return ""
}
