package github

import (
	"context"
	"net/url"

	gh "github.com/google/go-github/v84/github"
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
		ref = refOfURL(f.GetURL())
	} else if len(dir) > 0 {
		ref = refOfURL(dir[0].GetURL())
	}
	if ref == "" {
		ref, err = p.defaultBranch(ctx, repo)
	}
	return ref, f, dir, err
}

// refOfURL is the ref a contents url names in its query, "" for none.
func refOfURL(u string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return parsed.Query().Get("ref")
}
