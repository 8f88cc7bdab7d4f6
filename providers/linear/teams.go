package linear

import (
	"context"

	"github.com/forgetools/forgetools/providers/discovery"
)

// queryTeams pages through the teams the credential can see.
const queryTeams = `query Teams($after: String) {
  teams(first: 50, after: $after) { nodes { key } pageInfo { hasNextPage endCursor } }
}`

type teamsPage struct {
	Teams struct {
		Nodes    []struct{ Key string } `json:"nodes"`
		PageInfo struct {
			HasNextPage bool   `json:"hasNextPage"`
			EndCursor   string `json:"endCursor"`
		} `json:"pageInfo"`
	} `json:"teams"`
}

// Repositories lists the keys of the teams the credential can see: on
// Linear a team key is what the tools take as repo. Linear grants an API
// key its user's access to every team it can see, with no per-team level
// to report, so Permission is empty.
func (p *Provider) Repositories(ctx context.Context, each func(discovery.Repository) error) error {
	var after *string
	for {
		var page teamsPage
		if err := p.do(ctx, "Teams", queryTeams, map[string]any{"after": after}, &page); err != nil {
			return err
		}
		for _, t := range page.Teams.Nodes {
			if err := each(discovery.Repository{Repo: t.Key}); err != nil {
				return err
			}
		}
		if !page.Teams.PageInfo.HasNextPage || page.Teams.PageInfo.EndCursor == "" {
			return nil
		}
		end := page.Teams.PageInfo.EndCursor
		after = &end
	}
}
