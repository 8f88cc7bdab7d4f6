package gitlab

import (
	"context"
	"encoding/base64"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	gl "gitlab.com/gitlab-org/api/client-go"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/discovery"
	"github.com/forgetools/forgetools/providers/internal/dirpage"
	"github.com/forgetools/forgetools/providers/internal/rest"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// GetRepo reads a project and the credential's access to it.
func (p *Provider) GetRepo(ctx context.Context, _ toolserver.Call, req *gatewayv1.GetRepoRequest) (*forgev1.Repository, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	return call(ctx, p, "get project "+repo.String(), func(ro gl.RequestOptionFunc) (*forgev1.Repository, error) {
		pr, resp, err := p.author.Projects.GetProject(repo.String(), nil, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		return &forgev1.Repository{
			Forge: p.Ref(), Repo: pr.PathWithNamespace, DefaultBranch: pr.DefaultBranch, Description: pr.Description,
			Visibility: string(pr.Visibility), Archived: pr.Archived, Permission: projectPermission(pr.Permissions),
			OpenIssues: uint64(max(pr.OpenIssuesCount, 0)), Url: pr.WebURL,
		}, nil
	})
}

// ReadFile reads one file's text at a ref (the default branch when none is
// given, looked up so the result names it). The blob id is the sha
// forge_write_file takes back.
func (p *Provider) ReadFile(ctx context.Context, _ toolserver.Call, req *gatewayv1.ReadFileRequest) (*forgev1.FileContent, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	path := strings.TrimPrefix(req.GetPath(), "/")
	return call(ctx, p, fmt.Sprintf("read %s in %s", path, repo), func(ro gl.RequestOptionFunc) (*forgev1.FileContent, error) {
		ref := req.GetRef()
		if ref == "" {
			if ref, err = p.defaultBranch(repo, ro); err != nil {
				return nil, err
			}
		}
		f, resp, err := p.author.RepositoryFiles.GetFile(repo.String(), path, &gl.GetFileOptions{Ref: ptr(ref)}, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		raw := []byte(f.Content)
		if f.Encoding == "base64" {
			if raw, err = base64.StdEncoding.DecodeString(f.Content); err != nil {
				return nil, toolserver.Unavailable("GitLab sent %s's content as base64 that does not decode", path)
			}
		}
		out := &forgev1.FileContent{
			Forge: p.Ref(), Repo: repo.String(), Path: f.FilePath, Ref: ref, Sha: f.BlobID, Size: uint64(max(f.Size, 0)),
		}
		out.Content, out.Binary, out.Truncated = rest.FileText(raw)
		return out, nil
	})
}

// ListDir lists a directory (the repository tree, one level) at a ref,
// one GitLab page (dirPage entries) a request: the cursor is the page
// number. GitLab's tree has no sizes. Without a ref it reads the default
// branch in the one request, and the listing says HEAD (git's name for
// it) rather than naming the branch: the tree answer does not say which
// branch it read, and naming it would cost a lookup of the project per
// page. The directory's count is GitLab's X-Total, which it sends on a
// tree's first page always and on later ones while the directory holds
// fewer than 10,000 entries (Kaminari's count limit); past that no count
// is shown, rather than a made-up one.
func (p *Provider) ListDir(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListDirRequest) (*forgev1.DirListing, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	path := strings.Trim(req.GetPath(), "/")
	cur := kit.CursorsFor("forge_list_dir", req)
	page, err := cur.Key(req.GetCursor(), math.MaxInt32/dirPage)
	if err != nil {
		return nil, err
	}
	page = max(page, 1)
	return call(ctx, p, fmt.Sprintf("list %q in %s", path, repo), func(ro gl.RequestOptionFunc) (*forgev1.DirListing, error) {
		ref, shownRef := req.GetRef(), req.GetRef()
		opt := &gl.ListTreeOptions{ListOptions: gl.ListOptions{PerPage: dirPage, Page: page}}
		if ref != "" {
			opt.Ref = ptr(ref)
		} else {
			shownRef, ref = dirpage.DefaultRef, "the default branch"
		}
		if path != "" {
			opt.Path = ptr(path)
		}
		nodes, resp, err := p.author.Repositories.ListTree(repo.String(), opt, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		nodes = nodes[:min(len(nodes), dirPage)]
		switch {
		case len(nodes) == 0 && page > 1:
			return nil, toolserver.InvalidArgument("cursor %q is past the end of %s at %s in %s (it changed since); omit it for the first page", req.GetCursor(), path, ref, repo)
		case len(nodes) == 0 && path != "":
			// GitLab answers an empty tree for a path that is not a
			// directory (a file, or nothing).
			return nil, toolserver.NotFound("%s at %s in %s is not a directory (a file, or nothing)", path, ref, repo)
		}
		out := &forgev1.DirListing{Forge: p.Ref(), Repo: repo.String(), Path: path, Ref: shownRef}
		for _, n := range nodes {
			out.Entries = append(out.Entries, &forgev1.DirEntry{Name: n.Name, Type: entryType(n), Sha: n.ID})
		}
		seen := (page-1)*dirPage + int64(len(nodes))
		// GitLab's first tree page names page 2 whatever follows, but
		// sends the count there; a later page names a next one only when
		// there is one. A short page is the last, whatever a count says.
		total, counted := listTotal(resp)
		more := len(nodes) == dirPage && (counted && seen < total || !counted && nextPage(resp) != 0)
		if more {
			out.NextCursor = cur.NextKey(page + 1)
		}
		if page > 1 || more {
			if counted {
				out.EntriesTotal = uint32(min(max(total, seen), math.MaxUint32))
			} else {
				out.EntriesTotalUnknown = true
			}
		}
		return out, nil
	})
}

// dirPage is a directory page on GitLab: the most its tree serves in a
// request, so that a page costs one.
const dirPage = perPage

// listTotal is the item count a list page's X-Total header gives, and
// whether it gives one (GitLab omits it past its count limit).
func listTotal(resp *gl.Response) (int64, bool) {
	if resp == nil || resp.Header.Get("X-Total") == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(resp.Header.Get("X-Total"), 10, 64)
	return n, err == nil && n >= 0
}

// entryType is a tree node's kind in the tools' words.
func entryType(n *gl.TreeNode) string {
	switch {
	case n.Type == "tree":
		return "dir"
	case n.Type == "commit":
		return "submodule"
	case n.Mode == "120000":
		return "symlink"
	default:
		return "file"
	}
}

// CreateBranch creates a branch in one call: GitLab's POST
// .../repository/branches takes the new name and any ref (branch, tag or
// commit) to start from; the default branch is looked up when none is
// given.
func (p *Provider) CreateBranch(ctx context.Context, _ toolserver.Call, req *gatewayv1.CreateBranchRequest) (*forgev1.BranchRef, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("create branch %s in %s", req.GetBranch(), repo), func(ro gl.RequestOptionFunc) (*forgev1.BranchRef, error) {
		from := req.GetFromRef()
		if from == "" {
			if from, err = p.defaultBranch(repo, ro); err != nil {
				return nil, err
			}
		}
		b, resp, err := p.author.Branches.CreateBranch(repo.String(), &gl.CreateBranchOptions{Branch: ptr(req.GetBranch()), Ref: ptr(from)}, ro)
		if err != nil {
			if resp != nil && resp.StatusCode == http.StatusBadRequest && strings.Contains(err.Error(), "already exists") {
				return nil, toolserver.AlreadyExists("branch %s already exists in %s", req.GetBranch(), repo)
			}
			return nil, fail(resp, err)
		}
		out := &forgev1.BranchRef{Forge: p.Ref(), Repo: repo.String(), Branch: b.Name, Url: b.WebURL}
		if b.Commit != nil {
			out.Sha = b.Commit.ID
		}
		return out, nil
	})
}

// WriteFile commits one file to a branch: a create when no expected_sha is
// given, else an update of the blob the agent read. GitLab guards updates
// by the last commit that touched the file, not by blob: the current blob
// is compared with expected_sha first, and the update carries that
// file's last_commit_id so GitLab refuses it if the file changed in
// between. The files API answers with no commit sha, so the branch head
// and the new blob are read back (one HEAD of the file). A write to the
// default branch needs the operator's approval.
func (p *Provider) WriteFile(ctx context.Context, hc toolserver.Call, req *gatewayv1.WriteFileRequest) (*forgev1.FileCommit, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	path := strings.TrimPrefix(req.GetPath(), "/")
	branch := req.GetBranch()
	return call(ctx, p, fmt.Sprintf("write %s to %s in %s", path, branch, repo), func(ro gl.RequestOptionFunc) (*forgev1.FileCommit, error) {
		if err := p.mayPush(repo, branch, hc, ro); err != nil {
			return nil, err
		}
		files := p.author.RepositoryFiles
		if expected := req.GetExpectedSha(); expected == "" {
			_, resp, err := files.CreateFile(repo.String(), path, &gl.CreateFileOptions{
				Branch: ptr(branch), Content: ptr(req.GetContent()), CommitMessage: ptr(req.GetMessage()),
			}, ro)
			if err != nil {
				if resp != nil && resp.StatusCode == http.StatusBadRequest && strings.Contains(err.Error(), "already exists") {
					return nil, toolserver.FailedPrecondition("%s already exists on %s in %s; nothing was written: read it and pass its sha as expected_sha to update it", path, branch, repo)
				}
				return nil, fail(resp, err)
			}
		} else {
			cur, resp, err := files.GetFileMetaData(repo.String(), path, &gl.GetFileMetaDataOptions{Ref: ptr(branch)}, ro)
			if err != nil {
				if resp != nil && resp.StatusCode == http.StatusNotFound {
					return nil, toolserver.FailedPrecondition("%s does not exist on %s in %s, so there is nothing at expected_sha to update; nothing was written", path, branch, repo)
				}
				return nil, fail(resp, err)
			}
			if !strings.HasPrefix(strings.ToLower(cur.BlobID), strings.ToLower(expected)) {
				return nil, toolserver.FailedPrecondition("%s on %s in %s is now blob %s, not %s: it changed since you read it; nothing was written, read it again and decide", path, branch, repo, cur.BlobID, expected)
			}
			if _, resp, err = files.UpdateFile(repo.String(), path, &gl.UpdateFileOptions{
				Branch: ptr(branch), Content: ptr(req.GetContent()), CommitMessage: ptr(req.GetMessage()),
				LastCommitID: ptr(cur.LastCommitID),
			}, ro); err != nil {
				return nil, fail(resp, err)
			}
		}
		after, resp, err := files.GetFileMetaData(repo.String(), path, &gl.GetFileMetaDataOptions{Ref: ptr(branch)}, ro)
		if err != nil {
			return nil, p.mapError("read back the commit (the file was written)", fail(resp, err))
		}
		return &forgev1.FileCommit{
			Forge: p.Ref(), Repo: repo.String(), Branch: branch, Path: path,
			CommitSha: after.CommitID, BlobSha: after.BlobID,
		}, nil
	})
}

// Repositories lists the projects the credential is a member of
// (membership=true; not every public project it could read), with its
// access on each, ordered by id so paging is stable.
func (p *Provider) Repositories(ctx context.Context, each func(discovery.Repository) error) error {
	opt := &gl.ListProjectsOptions{
		ListOptions: gl.ListOptions{PerPage: perPage, Page: 1},
		Membership:  ptr(true), OrderBy: ptr("id"), Sort: ptr("asc"),
	}
	type projects = kit.Page[*gl.Project, int]
	return kit.Every(func(next int) (projects, error) {
		if next != 0 {
			opt.Page = int64(next)
		}
		return call(ctx, p, "list projects", func(ro gl.RequestOptionFunc) (projects, error) {
			ps, resp, err := p.author.Projects.ListProjects(opt, ro)
			return projects{Items: ps, Next: nextPage(resp)}, fail(resp, err)
		})
	}, func(pr *gl.Project) error {
		return each(discovery.Repository{Repo: pr.PathWithNamespace, Permission: projectPermission(pr.Permissions)})
	})
}
