package github

import (
	"context"
	"strings"

	gh "github.com/google/go-github/v84/github"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/internal/commitpage"
	"github.com/forgetools/forgetools/toolserver"
)

// ListCommits lists a ref's history newest first through GET
// repos/{owner}/{repo}/commits (sha, path, since, per_page, page). The
// first page resolves the ref to its commit (commits/{ref} as a bare sha)
// and pins it in the cursor, so later pages read the same history
// wherever the branch went; each page is one request for exactly that
// page, and whether another follows is GitHub's Link header's word.
func (p *Provider) ListCommits(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListCommitsRequest) (*forgev1.CommitList, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	page, err := commitpage.Parse(req.GetCursor(), req.Limit)
	if err != nil {
		return nil, err
	}
	path, err := parsePath(req.GetPath(), true)
	if err != nil {
		return nil, err
	}
	if err := checkRef("ref", req.GetRef()); err != nil {
		return nil, err
	}
	return call(ctx, p, "list commits in "+repo.String(), func(ctx context.Context) (*forgev1.CommitList, error) {
		ref, err := p.refOrDefault(ctx, repo, req.GetRef())
		if err != nil {
			return nil, err
		}
		head := page.Head
		if head == "" {
			if head, err = p.commitOf(ctx, repo, ref, "ref"); err != nil {
				return nil, err
			}
		}
		opt := &gh.CommitsListOptions{SHA: head, Path: path, ListOptions: gh.ListOptions{Page: page.Offset/page.Size + 1, PerPage: page.Size}}
		if req.Since != nil {
			opt.Since = req.GetSince().AsTime().UTC()
		}
		got, resp, err := p.author.Repositories.ListCommits(ctx, repo.owner, repo.name, opt)
		if status, _ := answered(err); page.Head != "" && (status == 404 || status == 422) {
			return nil, toolserver.InvalidArgument("cursor %q names a commit %s does not have; omit it for the first page", req.GetCursor(), repo)
		} else if err != nil {
			return nil, err
		}
		if len(got) > page.Size {
			return nil, toolserver.Unavailable("GitHub answered %d commits for a page of %d", len(got), page.Size)
		}
		out := &forgev1.CommitList{Forge: p.Ref(), Repo: repo.String(), Ref: ref}
		for _, c := range got {
			out.Commits = append(out.Commits, commitOut(c))
		}
		if nextPage(resp) != 0 && len(got) > 0 {
			if out.NextCursor, err = page.Next(head, len(got)); err != nil {
				return nil, toolserver.Unavailable("GitHub: %v", err)
			}
		}
		return out, nil
	})
}

// commitOut is a GitHub commit in the shared shape: its title is the
// message's first line, its author the git author's name.
func commitOut(c *gh.RepositoryCommit) *forgev1.Commit {
	title, _, _ := strings.Cut(strings.TrimLeft(c.GetCommit().GetMessage(), "\n"), "\n")
	author := c.GetCommit().GetAuthor()
	return &forgev1.Commit{
		Sha: c.GetSHA(), Title: strings.TrimSpace(title), Author: author.GetName(),
		AuthoredAt: timestamp(author.Date), Url: c.GetHTMLURL(),
	}
}
