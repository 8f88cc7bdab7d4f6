package github

import (
	"context"

	gh "github.com/google/go-github/v84/github"

	"github.com/forgetools/forgetools/providers/discovery"
	"github.com/forgetools/forgetools/providers/kit"
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
	type repos = kit.Page[*gh.Repository, int]
	return kit.Every(func(next int) (repos, error) {
		opts.Page = next
		return call(ctx, p, "list repositories", func(ctx context.Context) (repos, error) {
			rs, resp, err := p.author.Repositories.ListByAuthenticatedUser(ctx, opts)
			return repos{Items: rs, Next: nextPage(resp)}, err
		})
	}, func(r *gh.Repository) error {
		return each(discovery.Repository{Repo: r.GetFullName(), Permission: permission(r.GetPermissions())})
	})
}
