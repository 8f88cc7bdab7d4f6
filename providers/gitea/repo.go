package gitea

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"

	sdk "code.gitea.io/sdk/gitea"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/discovery"
	"github.com/forgetools/forgetools/providers/internal/dirpage"
	"github.com/forgetools/forgetools/providers/internal/rest"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// GetRepo reads a repository and the credential's permission on it.
func (p *Provider) GetRepo(ctx context.Context, _ toolserver.Call, req *gatewayv1.GetRepoRequest) (*forgev1.Repository, error) {
	repo, err := p.parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	return call(ctx, p, "get repository "+repo.String(), func(c *sdk.Client) (*forgev1.Repository, error) {
		r, resp, err := c.GetRepo(repo.owner, repo.name)
		if err != nil {
			return nil, fail(resp, err)
		}
		return &forgev1.Repository{
			Forge: p.Ref(), Repo: repo.String(), DefaultBranch: r.DefaultBranch, Description: r.Description,
			Visibility: visibility(r), Archived: r.Archived, Permission: permission(r.Permissions),
			OpenIssues: uint64(max(r.OpenIssues, 0)), Url: r.HTMLURL,
		}, nil
	})
}

// defaultBranch is the repository's default branch.
func defaultBranch(c *sdk.Client, repo repoName) (string, error) {
	r, resp, err := c.GetRepo(repo.owner, repo.name)
	if err != nil {
		return "", fail(resp, err)
	}
	if r.DefaultBranch == "" || r.Empty {
		return "", toolserver.FailedPrecondition("%s has no default branch (is it empty?)", repo)
	}
	return r.DefaultBranch, nil
}

// ReadFile reads one file's text at a ref (the default branch when none is
// given, looked up so the result names it).
func (p *Provider) ReadFile(ctx context.Context, _ toolserver.Call, req *gatewayv1.ReadFileRequest) (*forgev1.FileContent, error) {
	repo, err := p.parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	path, err := p.cleanPath(req.GetPath(), false)
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("read %s in %s", path, repo), func(c *sdk.Client) (*forgev1.FileContent, error) {
		ref := req.GetRef()
		if ref == "" {
			if ref, err = defaultBranch(c, repo); err != nil {
				return nil, err
			}
		}
		f, resp, err := c.GetContents(repo.owner, repo.name, ref, path)
		if err != nil {
			if resp != nil && resp.StatusCode == http.StatusOK {
				return nil, toolserver.InvalidArgument("%s in %s is a directory; list it with forge_list_dir", path, repo)
			}
			return nil, fail(resp, err)
		}
		if f.Type != "file" {
			return nil, toolserver.InvalidArgument("%s in %s is a %s, not a file", path, repo, f.Type)
		}
		out := &forgev1.FileContent{
			Forge: p.Ref(), Repo: repo.String(), Path: f.Path, Ref: ref, Sha: f.SHA, Size: uint64(max(f.Size, 0)),
		}
		if f.HTMLURL != nil {
			out.Url = *f.HTMLURL
		}
		var raw []byte
		if f.Content != nil {
			if raw, err = base64.StdEncoding.DecodeString(*f.Content); err != nil {
				return nil, toolserver.Unavailable("%s sent %s's content in an encoding other than base64", p.flavor.Name(), path)
			}
		} else if f.Size > 0 {
			// Content is left out above the instance's size limit: read
			// the raw blob instead.
			if raw, resp, err = c.GetFile(repo.owner, repo.name, ref, path); err != nil {
				return nil, fail(resp, err)
			}
		}
		out.Content, out.Binary, out.Truncated = rest.FileText(raw)
		return out, nil
	})
}

// ListDir lists a directory at a ref.
func (p *Provider) ListDir(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListDirRequest) (*forgev1.DirListing, error) {
	repo, err := p.parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	path, err := p.cleanPath(req.GetPath(), true)
	if err != nil {
		return nil, err
	}
	page, err := dirpage.PageOf(req)
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("list %q in %s", path, repo), func(c *sdk.Client) (*forgev1.DirListing, error) {
		ref, entries, err := p.listing(c, repo, path, req.GetRef())
		if err != nil {
			return nil, err
		}
		out := &forgev1.DirListing{Forge: p.Ref(), Repo: repo.String(), Path: path, Ref: ref}
		for _, e := range entries {
			out.Entries = append(out.Entries, &forgev1.DirEntry{
				Name: e.Name, Type: e.Type, Size: uint64(max(e.Size, 0)), Sha: e.SHA,
			})
		}
		return out, page.Cut(out)
	})
}

// maxBranchName is the longest branch name Gitea takes (its API's
// binding limit, which the SDK checks too): longer is refused here, as
// invalid_argument, not left to an error the SDK raises without a status.
const maxBranchName = 100

// CreateBranch creates a branch in one call: Gitea's POST .../branches
// takes the new name and old_ref_name, the branch, tag or commit to start
// from (the default branch when none is given). The SDK sends only the
// deprecated old_branch_name, which Gitea resolves as a branch alone, so
// the request is sent as Gitea documents it. A start that names nothing
// makes Gitea answer 500, so it is resolved first.
func (p *Provider) CreateBranch(ctx context.Context, _ toolserver.Call, req *gatewayv1.CreateBranchRequest) (*forgev1.BranchRef, error) {
	repo, err := p.parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	branch, from := req.GetBranch(), req.GetFromRef()
	for _, n := range []struct{ what, v string }{{"branch name", branch}, {"from_ref", from}} {
		if len(n.v) > maxBranchName {
			return nil, toolserver.InvalidArgument("%s is %d bytes; %s allows at most %d", n.what, len(n.v), p.flavor.Name(), maxBranchName)
		}
	}
	return call(ctx, p, fmt.Sprintf("create branch %s in %s", branch, repo), func(c *sdk.Client) (*forgev1.BranchRef, error) {
		if from != "" {
			var commit struct {
				SHA string `json:"sha"`
			}
			resp, err := p.send(ctx, p.token, http.MethodGet, repoPath(repo, "git", "commits", from)+"?stat=false&verification=false&files=false", nil, &commit)
			if err != nil {
				if resp != nil && (resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusUnprocessableEntity) {
					if _, r, gerr := c.GetRepo(repo.owner, repo.name); gerr != nil {
						return nil, fail(r, gerr)
					}
					return nil, toolserver.NotFound("%s has no branch, tag or commit %s to start a branch from; nothing was created", repo, from)
				}
				return nil, err
			}
		}
		var b sdk.Branch
		resp, err := p.send(ctx, p.token, http.MethodPost, repoPath(repo, "branches"),
			map[string]string{"new_branch_name": branch, "old_ref_name": from}, &b)
		if err != nil {
			if resp != nil && resp.StatusCode == http.StatusConflict {
				return nil, toolserver.AlreadyExists("branch %s already exists in %s", branch, repo)
			}
			return nil, err
		}
		out := &forgev1.BranchRef{Forge: p.Ref(), Repo: repo.String(), Branch: b.Name}
		if b.Commit != nil {
			out.Sha = b.Commit.ID
		}
		return out, nil
	})
}

// cleanPath is a repository path with its leading "/" taken off, or
// invalid_argument for one that climbs out ("..") or names nothing: Gitea
// answers such a path 500, as if a retry could help.
func (p *Provider) cleanPath(raw string, dir bool) (string, error) {
	path := strings.TrimPrefix(raw, "/")
	if dir {
		path = strings.Trim(path, "/")
	}
	for _, seg := range strings.Split(path, "/") {
		if seg == ".." || seg == "." || (seg == "" && !(dir && path == "")) || strings.ContainsRune(seg, 0) {
			return "", toolserver.InvalidArgument("path %q is not a path inside the repository (no '.', '..' or empty segments); nothing was sent to %s", raw, p.flavor.Name())
		}
	}
	return path, nil
}

// WriteFile commits one file to a branch: a create when no expected_sha is
// given, else an update of the blob the agent read. The current blob is
// compared first (any case, a prefix of at least 7 digits), so a file
// that moved since the read is never overwritten; Gitea checks the full
// sha again on the update. A write to the default branch needs the
// operator's approval (toolserver.Call.PushToDefaultBranch).
func (p *Provider) WriteFile(ctx context.Context, hc toolserver.Call, req *gatewayv1.WriteFileRequest) (*forgev1.FileCommit, error) {
	repo, err := p.parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	path, err := p.cleanPath(req.GetPath(), false)
	if err != nil {
		return nil, err
	}
	branch := req.GetBranch()
	return call(ctx, p, fmt.Sprintf("write %s to %s in %s", path, branch, repo), func(c *sdk.Client) (*forgev1.FileCommit, error) {
		if err := mayPush(c, repo, branch, hc); err != nil {
			return nil, err
		}
		content := base64.StdEncoding.EncodeToString([]byte(req.GetContent()))
		opts := sdk.FileOptions{Message: req.GetMessage(), BranchName: branch}
		opts.Author, opts.Committer = p.commitIdentity(hc)
		var (
			fr   *sdk.FileResponse
			resp *sdk.Response
		)
		if expected := req.GetExpectedSha(); expected == "" {
			fr, resp, err = c.CreateFile(repo.owner, repo.name, path, sdk.CreateFileOptions{FileOptions: opts, Content: content})
			if err != nil && resp != nil && resp.StatusCode == http.StatusUnprocessableEntity && strings.Contains(err.Error(), "already exists") {
				return nil, toolserver.FailedPrecondition("%s already exists on %s in %s; nothing was written: read it and pass its sha as expected_sha to update it", path, branch, repo)
			}
		} else {
			cur, r, gerr := c.GetContents(repo.owner, repo.name, branch, path)
			if gerr != nil {
				if r != nil && r.StatusCode == http.StatusNotFound {
					return nil, toolserver.FailedPrecondition("%s does not exist on %s in %s, so there is nothing at expected_sha to update; nothing was written", path, branch, repo)
				}
				return nil, fail(r, gerr)
			}
			if !strings.HasPrefix(strings.ToLower(cur.SHA), strings.ToLower(expected)) {
				return nil, toolserver.FailedPrecondition("%s on %s in %s is now blob %s, not %s: it changed since you read it; nothing was written, read it again and decide", path, branch, repo, cur.SHA, expected)
			}
			fr, resp, err = c.UpdateFile(repo.owner, repo.name, path, sdk.UpdateFileOptions{FileOptions: opts, SHA: cur.SHA, Content: content})
		}
		if err != nil {
			return nil, fail(resp, err)
		}
		out := &forgev1.FileCommit{Forge: p.Ref(), Repo: repo.String(), Branch: branch, Path: path}
		if fr.Commit != nil {
			out.CommitSha, out.Url = fr.Commit.SHA, fr.Commit.HTMLURL
		}
		if fr.Content != nil {
			out.BlobSha = fr.Content.SHA
		}
		return out, nil
	})
}

// commitIdentity is who a written commit names: the account's owner as
// its author (on whose behalf), the agent as its committer (who wrote
// it), as the README promises. Gitea needs an email with each name: a
// no-reply address on the instance's host. Without handles (a call from
// outside the gateway) both are left to Gitea: the token's user.
func (p *Provider) commitIdentity(hc toolserver.Call) (author, committer sdk.Identity) {
	host, _, _ := strings.Cut(p.host, ":")
	id := func(name string) sdk.Identity {
		if name == "" {
			return sdk.Identity{}
		}
		return sdk.Identity{Name: name, Email: name + "@noreply." + host}
	}
	author, committer = id(hc.OwnerHandle), id(hc.AgentHandle)
	if author.Name == "" {
		author = committer
	}
	if committer.Name == "" {
		committer = author
	}
	return author, committer
}

// refuseDefault is the answer to a push to the default branch the
// operator has not allowed.
func refuseDefault(repo fmt.Stringer, branch string) error {
	return toolserver.PermissionDenied("%s is the default branch of %s, and this gateway does not allow pushing to it; nothing was written: create a branch (forge_create_branch), write there and open a pull request", branch, repo)
}

// Repositories lists the repositories the credential can reach
// (GET /user/repos: its own, its organizations' and those it collaborates
// on), with its permission on each.
func (p *Provider) Repositories(ctx context.Context, each func(discovery.Repository) error) error {
	// No overall timeout: a large account takes many pages; each page
	// gets the provider's.
	type repos = kit.Page[*sdk.Repository, int]
	return kit.Every(func(next int) (repos, error) {
		return call(ctx, p, "list repositories", func(c *sdk.Client) (repos, error) {
			o := sdk.ListOptions{Page: max(next, 1), PageSize: pageSize}
			rs, resp, err := c.ListMyRepos(sdk.ListReposOptions{ListOptions: o})
			return repos{Items: rs, Next: following(o, len(rs))}, fail(resp, err)
		})
	}, func(r *sdk.Repository) error {
		return each(discovery.Repository{Repo: r.FullName, Permission: permission(r.Permissions)})
	})
}
