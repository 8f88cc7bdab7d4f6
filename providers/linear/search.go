package linear

import (
	"context"
	"regexp"
	"strings"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/providers/internal/searchpage"
	"github.com/forgetools/forgetools/toolserver"
)

var _ gatewayv1handler.ForgeSearchHandler = (*Provider)(nil)

// querySearchIssues finds issues of the listed teams whose title or
// description contains a term, newest first, one page after a cursor. The
// term is a GraphQL variable compared with containsIgnoreCase, never query
// text, and the team filter is the provider's: nothing in the term can
// reach another team.
const querySearchIssues = `query SearchIssues($filter: IssueFilter!, $first: Int!, $after: String) {
  issues(filter: $filter, first: $first, after: $after, orderBy: createdAt) {
    nodes { id identifier number title url state { type } team { key } }
    pageInfo { hasNextPage endCursor }
  }
}`

type searchFilter struct {
	Team  *teamKeys       `json:"team,omitempty"`
	State *stateFilter    `json:"state,omitempty"`
	Or    []*searchFilter `json:"or,omitempty"`
	Title *containsCmp    `json:"title,omitempty"`
	Desc  *containsCmp    `json:"description,omitempty"`
}

// teamKeys is TeamFilter by key; the inner clauses of or leave it out.
type teamKeys struct {
	Key *stringCmp `json:"key,omitempty"`
}

type containsCmp struct {
	ContainsIgnoreCase string `json:"containsIgnoreCase"`
}

type searchVars struct {
	Filter *searchFilter `json:"filter"`
	First  int           `json:"first"`
	After  *string       `json:"after"`
}

type searchAnswer struct {
	Issues struct {
		Nodes    []issueNode `json:"nodes"`
		PageInfo pageInfo    `json:"pageInfo"`
	} `json:"issues"`
}

// linearCursor is the shape of Linear's page cursors (an issue's UUID):
// a next_cursor is "linear:" and one, and nothing else is taken.
var linearCursor = regexp.MustCompile(`^linear:[0-9A-Za-z-]{1,56}$`)

// SearchIssues searches the issues of the team the call names, else of the
// teams the gateway lists for the account's scope, in one query. Linear has
// no pull requests: a search for them is refused.
func (p *Provider) SearchIssues(ctx context.Context, c toolserver.Call, req *gatewayv1.SearchIssuesRequest) (*forgev1.SearchHitList, error) {
	const tool = "forge_search_issues"
	if req.GetKind() == gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_PULL_REQUEST {
		return nil, toolserver.InvalidArgument("%s: leave kind out or ask for issues", NoPullRequests)
	}
	names, err := searchpage.Repos(tool, req.GetRepo(), c)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(names))
	for _, n := range names {
		k, err := parseTeamKey(n)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	var after *string
	if cur := req.GetCursor(); cur != "" {
		if !linearCursor.MatchString(cur) {
			return nil, toolserver.InvalidArgument("cursor %q is not a next_cursor %s gave; omit it for the first page", cur, tool)
		}
		a := strings.TrimPrefix(cur, "linear:")
		after = &a
	}
	f := &searchFilter{Team: &teamKeys{Key: &stringCmp{In: keys}}, Or: []*searchFilter{
		{Title: &containsCmp{req.GetQuery()}}, {Desc: &containsCmp{req.GetQuery()}},
	}}
	switch req.GetState() {
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_UNSPECIFIED, gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_OPEN:
		f.State = &stateFilter{Type: stringCmp{In: openStateTypes}}
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_CLOSED:
		f.State = &stateFilter{Type: stringCmp{Nin: openStateTypes}}
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL:
	default:
		return nil, toolserver.InvalidArgument("linear: unknown state filter %v", req.GetState())
	}
	var a searchAnswer
	if err := p.do(ctx, "search issues", querySearchIssues, searchVars{Filter: f, First: searchpage.HitSize, After: after}, &a); err != nil {
		return nil, err
	}
	out := &forgev1.SearchHitList{}
	for _, n := range a.Issues.Nodes[:min(len(a.Issues.Nodes), searchpage.HitSize)] {
		out.Hits = append(out.Hits, &forgev1.SearchHit{Forge: p.Ref(), Repo: n.Team.Key, Number: uint64(n.Number), Kind: "issue",
			Identifier: n.Identifier, State: issueState(n.State.Type), Title: n.Title, Url: n.URL})
	}
	if next := a.Issues.PageInfo.next(); next != "" && linearCursor.MatchString("linear:"+next) {
		out.NextCursor = "linear:" + next
	}
	return out, nil
}

// SearchCode is unimplemented: Linear holds issues, not code.
func (p *Provider) SearchCode(context.Context, toolserver.Call, *gatewayv1.SearchCodeRequest) (*forgev1.CodeMatchList, error) {
	return nil, toolserver.NotImplemented("%s", NoRepository)
}
