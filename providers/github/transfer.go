package github

import (
	"context"
	"net/url"
	"strconv"
	"strings"

	gh "github.com/google/go-github/v84/github"

	"github.com/forgetools/forgetools/toolserver"
)

// transferred checks a read of issue n that GitHub answered through a
// redirect. GitHub redirects the issue paths of a renamed repository, which
// is the same repository under a new name (the read goes on), and the path
// of a transferred issue, which is another repository's issue now (perhaps
// under another number): shown under the requested repo and number, it
// would be a different artifact than the one asked for. So a redirect to
// another number, or to another repository's id, is reported as the move,
// naming the issue's new location. resp is the answer the read ended with.
func (p *Provider) transferred(ctx context.Context, repo repoName, n int, i *gh.Issue, resp *gh.Response) error {
	if resp == nil || resp.Response == nil || resp.Request == nil {
		return nil
	}
	id, m, ok := repositoriesIssuePath(resp.Request.URL.Path)
	if !ok {
		return nil // not redirected (go-github asked for /repos/owner/name/...)
	}
	if m == n {
		own, _, err := p.author.Repositories.Get(ctx, repo.owner, repo.name) // follows a rename
		if err != nil {
			return err
		}
		if own.GetID() == id {
			return nil // renamed: the same repository, the same issue
		}
	}
	where := "another repository"
	if u, err := url.Parse(i.GetRepositoryURL()); err == nil {
		if seg := strings.Split(strings.Trim(u.Path, "/"), "/"); len(seg) >= 2 {
			where = seg[len(seg)-2] + "/" + seg[len(seg)-1]
		}
	}
	return toolserver.NotFound("issue #%d in %s was transferred to %s#%d: read it there (repo %s, issue_number %d)",
		n, repo, where, i.GetNumber(), where, i.GetNumber())
}

// repositoriesIssuePath reads ".../repositories/ID/issues/N" (the address
// GitHub redirects to), with any API path prefix before it.
func repositoriesIssuePath(path string) (id int64, n int, ok bool) {
	seg := strings.Split(path, "/")
	for k := 0; k+3 < len(seg); k++ {
		if seg[k] != "repositories" || seg[k+2] != "issues" {
			continue
		}
		id, err1 := strconv.ParseInt(seg[k+1], 10, 64)
		n, err2 := strconv.Atoi(seg[k+3])
		return id, n, err1 == nil && err2 == nil
	}
	return 0, 0, false
}
