package gitea

import (
	"net/http"

	sdk "code.gitea.io/sdk/gitea"

	"github.com/forgetools/forgetools/providers/internal/dirpage"
	"github.com/forgetools/forgetools/toolserver"
)

// listing reads the directory at path and ref in one request when it can:
// asked without a ref, Gitea (and Forgejo) read the default branch and
// name it in every entry's url ("…/contents/<path>?ref=<branch>"), so the
// ref read comes from the answer itself. Only an answer that names none
// costs a lookup of the repository.
func (p *Provider) listing(c *sdk.Client, repo repoName, path, ref string) (string, []*sdk.ContentsResponse, error) {
	entries, resp, err := c.ListContents(repo.owner, repo.name, ref, path)
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusOK {
			return "", nil, toolserver.InvalidArgument("%s in %s is a file; read it with forge_read_file", path, repo)
		}
		return "", nil, fail(resp, err)
	}
	for _, e := range entries {
		if ref != "" {
			break
		}
		if e.URL != nil {
			ref = dirpage.RefOf(*e.URL)
		}
	}
	if ref == "" {
		ref, err = defaultBranch(c, repo)
	}
	return ref, entries, err
}
