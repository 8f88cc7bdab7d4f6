package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	gh "github.com/google/go-github/v84/github"

	"github.com/forgetools/forgetools/toolserver"
)

var _ toolserver.AuthorVouch = (*Provider)(nil)

// OrgMember asks GET /orgs/{org}/members/{username} with the author's
// credential: 204 is a member, 404 is not (GitHub redirects a requester
// outside the organisation to the public members, which go-github
// follows, so a private member then reads as no member: fail closed).
func (p *Provider) OrgMember(ctx context.Context, _ toolserver.Call, org, login string) (bool, error) {
	if !validRepoPart(org) || !validRepoPart(login) {
		return false, toolserver.InvalidArgument("%q is not a GitHub organisation and %q a login", org, login)
	}
	return call(ctx, p, fmt.Sprintf("check whether %s is a member of %s", login, org), func(ctx context.Context) (bool, error) {
		member, _, err := p.author.Organizations.IsMember(ctx, org, login)
		return member, err
	})
}

// RepoWriter asks GET /repos/{owner}/{repo}/collaborators/{username}/permission
// with the author's credential: write or admin (GitHub's legacy
// "permission", where maintain reads as write) is a writer; read, none,
// or a login GitHub does not know (404) is not.
func (p *Provider) RepoWriter(ctx context.Context, _ toolserver.Call, repoArg, login string) (bool, error) {
	repo, err := parseRepo(repoArg)
	if err != nil {
		return false, err
	}
	if !validRepoPart(login) {
		return false, toolserver.InvalidArgument("%q is not a GitHub login", login)
	}
	return call(ctx, p, fmt.Sprintf("read %s's permission on %s/%s", login, repo.owner, repo.name), func(ctx context.Context) (bool, error) {
		lvl, _, err := p.author.Repositories.GetPermissionLevel(ctx, repo.owner, repo.name, login)
		var ge *gh.ErrorResponse
		if errors.As(err, &ge) && ge.Response != nil && ge.Response.StatusCode == http.StatusNotFound {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		switch lvl.GetPermission() {
		case "admin", "write":
			return true, nil
		}
		return false, nil
	})
}
