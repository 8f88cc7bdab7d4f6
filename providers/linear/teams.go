package linear

import (
	"context"

	"github.com/forgetools/forgetools/providers/discovery"
	"github.com/forgetools/forgetools/providers/kit"
)

// queryTeams pages through the teams the credential can see.
const queryTeams = `query Teams($after: String) {
  teams(first: 50, after: $after) { nodes { key } pageInfo { hasNextPage endCursor } }
}`

type teamsPage struct {
	Teams struct {
		Nodes    []struct{ Key string } `json:"nodes"`
		PageInfo pageInfo               `json:"pageInfo"`
	} `json:"teams"`
}

// Repositories lists the keys of the teams the credential can see: on
// Linear a team key is what the tools take as repo. Linear grants an API
// key its user's access to every team it can see, with no per-team level
// to report, so Permission is empty.
func (p *Provider) Repositories(ctx context.Context, each func(discovery.Repository) error) error {
	type teams = kit.Page[struct{ Key string }, string]
	return kit.Every(func(next string) (teams, error) {
		var after *string // the first page is asked for with null
		if next != "" {
			after = &next
		}
		var page teamsPage
		if err := p.do(ctx, "Teams", queryTeams, map[string]any{"after": after}, &page); err != nil {
			return teams{}, err
		}
		return teams{Items: page.Teams.Nodes, Next: page.Teams.PageInfo.next()}, nil
	}, func(t struct{ Key string }) error { return each(discovery.Repository{Repo: t.Key}) })
}
