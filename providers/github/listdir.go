package github

import (
	"context"

	gh "github.com/google/go-github/v84/github"

	"github.com/forgetools/forgetools/providers/internal/dirpage"
)

// listing reads the directory (or file) at path and ref in one request
// when it can: asked without a ref, GitHub reads the default branch and
// names it in every entry's url ("…/contents/<path>?ref=<branch>"), so the
// ref read is taken from its own answer rather than from a second request
// for the repository. Only an answer that names no ref (an empty listing)
// costs the lookup.
func (p *Provider) listing(ctx context.Context, repo repoName, path, ref string) (string, *gh.RepositoryContent, []*gh.RepositoryContent, error) {
	f, dir, _, err := p.author.Repositories.GetContents(ctx, repo.owner, repo.name, path, &gh.RepositoryContentGetOptions{Ref: ref})
	if err != nil || ref != "" {
		return ref, f, dir, err
	}
	if f != nil {
		ref = dirpage.RefOf(f.GetURL())
	} else if len(dir) > 0 {
		ref = dirpage.RefOf(dir[0].GetURL())
	}
	if ref == "" {
		ref, err = p.defaultBranch(ctx, repo)
	}
	return ref, f, dir, err
}
