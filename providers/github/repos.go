package github

import (
	"context"

	gh "github.com/google/go-github/v84/github"

	"github.com/forgetools/forgetools/providers/discovery"
)

// Repositories lists the repositories the author credential can reach
// (GET /user/repos: owned, collaborating, and through organization
// membership), by full name, with its permission on each, following
// GitHub's Link paging to the end. Permissions are named as
// forge_get_repository names them (see permission in repository.go).
func (p *Provider) Repositories(ctx context.Context, each func(discovery.Repository) error) error {
	opts := &gh.RepositoryListByAuthenticatedUserOptions{
		Affiliation: "owner,collaborator,organization_member", Sort: "full_name",
		ListOptions: gh.ListOptions{PerPage: maxPerPage},
	}
	for {
		type page struct {
			repos []*gh.Repository
			next  int
		}
		pg, err := call(ctx, p, "list repositories", func(ctx context.Context) (page, error) {
			rs, resp, err := p.author.Repositories.ListByAuthenticatedUser(ctx, opts)
			if err != nil {
				return page{}, err
			}
			return page{rs, resp.NextPage}, nil
		})
		if err != nil {
			return err
		}
		for _, r := range pg.repos {
			if err := each(discovery.Repository{Repo: r.GetFullName(), Permission: permission(r.GetPermissions())}); err != nil {
				return err
			}
		}
		if pg.next == 0 {
			return nil
		}
		opts.Page = pg.next
	}
}
