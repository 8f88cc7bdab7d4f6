package gitea

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	sdk "code.gitea.io/sdk/gitea"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/internal/commitpage"
	"github.com/forgetools/forgetools/toolserver"
)

// commitJSON is what forge_list_commits reads of one of Gitea's commits.
type commitJSON struct {
	SHA     string `json:"sha"`
	HTMLURL string `json:"html_url"`
	Commit  struct {
		Message string `json:"message"`
		Author  struct {
			Name string `json:"name"`
			Date string `json:"date"`
		} `json:"author"`
	} `json:"commit"`
}

// ListCommits lists a ref's history newest first through GET
// repos/{owner}/{repo}/commits (sha, path, page, limit; stat,
// verification and files off). The first page resolves the ref to its
// commit (git/commits/{ref}) and pins it in the cursor, so later pages
// read the same history wherever the branch went; each page is one
// request for exactly that page.
//
// Gitea's list has no since filter, and with a path it ignores limit and
// pages at its own size (and answers 404 for a path no commit touched):
// since is refused as not implemented, and a path's history is served
// when it fits one page, else refused saying so.
func (p *Provider) ListCommits(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListCommitsRequest) (*forgev1.CommitList, error) {
	repo, err := p.parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	page, err := commitpage.Parse(req.GetCursor(), req.Limit)
	if err != nil {
		return nil, err
	}
	path, err := p.cleanPath(req.GetPath(), true)
	if err != nil {
		return nil, err
	}
	if req.Since != nil {
		return nil, toolserver.NotImplemented("%s's commit list has no since filter: leave since out (nothing was read)", p.flavor.Name())
	}
	if path != "" && page.Head != "" {
		return nil, toolserver.NotImplemented("%s pages a path's history at its own page size: only its first page is served", p.flavor.Name())
	}
	return call(ctx, p, "list commits in "+repo.String(), func(c *sdk.Client) (*forgev1.CommitList, error) {
		ref := req.GetRef()
		if ref == "" {
			if ref, err = defaultBranch(c, repo); err != nil {
				return nil, err
			}
		}
		head := page.Head
		if head == "" {
			var commit struct {
				SHA string `json:"sha"`
			}
			resp, err := p.send(ctx, p.token, http.MethodGet, repoPath(repo, "git", "commits", ref)+"?stat=false&verification=false&files=false", nil, &commit)
			if err != nil {
				if resp != nil && (resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusUnprocessableEntity) {
					return nil, toolserver.NotFound("%s has no branch, tag or commit %s", repo, ref)
				}
				return nil, err
			}
			head = commit.SHA
		}
		q := url.Values{"sha": {head}, "page": {strconv.Itoa(page.Offset/page.Size + 1)}, "limit": {strconv.Itoa(page.Size)},
			"stat": {"false"}, "verification": {"false"}, "files": {"false"}}
		if path != "" {
			q.Set("path", path)
		}
		var got []commitJSON
		resp, err := p.send(ctx, p.token, http.MethodGet, repoPath(repo, "commits")+"?"+q.Encode(), nil, &got)
		if err != nil && path != "" && resp != nil && resp.StatusCode == http.StatusNotFound {
			return &forgev1.CommitList{Forge: p.Ref(), Repo: repo.String(), Ref: ref}, nil // no commit touched it
		}
		if err != nil {
			if page.Head != "" && resp != nil && resp.StatusCode == http.StatusNotFound {
				return nil, toolserver.InvalidArgument("cursor %q names a commit %s does not have; omit it for the first page", req.GetCursor(), repo)
			}
			return nil, err
		}
		if path != "" {
			total, _ := strconv.Atoi(resp.Header.Get("X-Total-Count"))
			if len(got) > page.Size || total > len(got) {
				return nil, toolserver.NotImplemented("%d commits change %s, more than %s serves as one page of %d: narrow the path, or leave it out and page the whole history",
					max(total, len(got)), path, p.flavor.Name(), page.Size)
			}
			got = got[:min(len(got), page.Size)]
		}
		if len(got) > page.Size {
			return nil, toolserver.Unavailable("%s answered %d commits for a page of %d", p.flavor.Name(), len(got), page.Size)
		}
		out := &forgev1.CommitList{Forge: p.Ref(), Repo: repo.String(), Ref: ref}
		for _, g := range got {
			title, _, _ := strings.Cut(strings.TrimLeft(g.Commit.Message, "\n"), "\n")
			at := g.Commit.Author.Date
			if t, err := time.Parse(time.RFC3339, at); err == nil {
				at = t.UTC().Format(time.RFC3339)
			}
			out.Commits = append(out.Commits, &forgev1.Commit{Sha: g.SHA, Title: strings.TrimSpace(title), Author: g.Commit.Author.Name, AuthoredAt: at, Url: g.HTMLURL})
		}
		// X-HasMore says whether a page follows; without it a full page
		// may have one after it.
		more := len(got) == page.Size
		if h := resp.Header.Get("X-HasMore"); h != "" {
			more = h == "true"
		}
		more = more && path == ""
		if more {
			if out.NextCursor, err = page.Next(head, len(got)); err != nil {
				return nil, toolserver.Unavailable("%s: %v", p.flavor.Name(), err)
			}
		}
		return out, nil
	})
}
