package gitlab

import (
	"context"
	"net/http"
	"strings"
	"time"

	gl "gitlab.com/gitlab-org/api/client-go"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/internal/commitpage"
	"github.com/forgetools/forgetools/toolserver"
)

// ListCommits lists a ref's history newest first through GET
// projects/:id/repository/commits (ref_name, path, since, page,
// per_page). The first page resolves the ref to its commit (GET
// repository/commits/:sha takes a branch or tag name too) and pins it in
// the cursor, so later pages read the same history wherever the branch
// went; each page is one request for exactly that page.
func (p *Provider) ListCommits(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListCommitsRequest) (*forgev1.CommitList, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	page, err := commitpage.Parse(req.GetCursor(), req.Limit)
	if err != nil {
		return nil, err
	}
	return call(ctx, p, "list commits in "+repo.String(), func(ro gl.RequestOptionFunc) (*forgev1.CommitList, error) {
		ref := req.GetRef()
		if ref == "" {
			if ref, err = p.defaultBranch(repo, ro); err != nil {
				return nil, err
			}
		}
		head := page.Head
		if head == "" {
			c, resp, err := p.author.Commits.GetCommit(repo.String(), ref, nil, ro)
			if err != nil {
				if resp != nil && resp.StatusCode == http.StatusNotFound {
					return nil, toolserver.NotFound("%s has no branch, tag or commit %s", repo, ref)
				}
				return nil, fail(resp, err)
			}
			head = c.ID
		}
		opt := &gl.ListCommitsOptions{ListOptions: gl.ListOptions{Page: int64(page.Offset/page.Size + 1), PerPage: int64(page.Size)}, RefName: ptr(head)}
		if path := strings.Trim(req.GetPath(), "/"); path != "" {
			opt.Path = ptr(path)
		}
		if req.Since != nil {
			opt.Since = ptr(req.GetSince().AsTime().UTC())
		}
		got, resp, err := p.author.Commits.ListCommits(repo.String(), opt, ro)
		if err != nil {
			if page.Head != "" && resp != nil && resp.StatusCode == http.StatusNotFound {
				return nil, toolserver.InvalidArgument("cursor %q names a commit %s does not have; omit it for the first page", req.GetCursor(), repo)
			}
			return nil, fail(resp, err)
		}
		if len(got) > page.Size {
			return nil, toolserver.Unavailable("GitLab answered %d commits for a page of %d", len(got), page.Size)
		}
		out := &forgev1.CommitList{Forge: p.Ref(), Repo: repo.String(), Ref: ref}
		for _, c := range got {
			at := ""
			if c.AuthoredDate != nil {
				at = c.AuthoredDate.UTC().Format(time.RFC3339)
			}
			out.Commits = append(out.Commits, &forgev1.Commit{Sha: c.ID, Title: c.Title, Author: c.AuthorName, AuthoredAt: at, Url: c.WebURL})
		}
		if nextPage(resp) != 0 {
			if out.NextCursor, err = page.Next(head, len(got)); err != nil {
				return nil, toolserver.Unavailable("GitLab: %v", err)
			}
		}
		return out, nil
	})
}
