package local

import (
	"context"
	"database/sql"
	"errors"
	"net/url"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/internal/dirpage"
	"github.com/forgetools/forgetools/providers/local/localgit"
	"github.com/forgetools/forgetools/toolserver"
)

// maxFileBytes caps the text of a file forge_read_file reads: the whole
// file up to it, which the gateway side cuts to the lines asked for (at
// most FileContent's render budget per answer, kit.Window), so every line
// of a text file below it is reachable.
const maxFileBytes = 8 << 20

// repository is a repository as the git arms use it: its database row and
// its git repository, both made on first use. name is the spelling the
// repository was created with, whatever spelling a call used: results
// show it, and its git repository on disk is named by it, so every
// spelling reaches the same one.
type repository struct {
	id            int64
	name          string
	defaultBranch string
	git           *localgit.Repo
}

// repository opens name (any spelling), creating its record and its git
// repository (one initial commit on the default branch) the first time any
// call needs it.
func (f *Forge) repository(ctx context.Context, name string) (*repository, error) {
	if err := checkRepo(name); err != nil {
		return nil, err
	}
	r := &repository{}
	find := func(q querier) error {
		return q.QueryRowContext(ctx, `SELECT id, name, default_branch FROM local_repos WHERE name_key = $1`, repoKey(name)).
			Scan(&r.id, &r.name, &r.defaultBranch)
	}
	found := false
	err := f.readOne(ctx, func(q querier) error {
		err := find(q)
		found = err == nil
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		return err
	})
	if err == nil && !found {
		err = f.write(ctx, func(tx *sql.Tx) error {
			if err := f.addRepo(ctx, tx, name); err != nil {
				return err
			}
			return find(tx)
		})
	}
	if err != nil {
		return nil, err
	}
	if r.git, err = f.git.Open(r.name, r.defaultBranch, f.forgeSignature()); err != nil {
		return nil, internal(err)
	}
	// A default branch configured after the repository was made wins.
	if head, err := r.git.DefaultBranch(); err != nil || head != r.defaultBranch {
		if err := r.git.SetDefaultBranch(r.defaultBranch); err != nil {
			return nil, internal(err)
		}
	}
	return r, nil
}

// RepoPath is where the bare git repository of repo (any spelling) lives:
// what a person clones to see what an agent did. Like every call, it makes
// the repository when it does not exist yet.
func (f *Forge) RepoPath(ctx context.Context, repo string) (string, error) {
	r, err := f.repository(ctx, repo)
	if err != nil {
		return "", err
	}
	return f.git.Path(r.name), nil
}

// forgeSignature is the author of what the forge itself commits (a new
// repository's first commit).
func (f *Forge) forgeSignature() localgit.Signature {
	return localgit.Signature{Name: "forgetools", Email: "forge@" + f.emailHost(), When: f.now()}
}

// signature is the author of what an account commits.
func (f *Forge) signature(c toolserver.Call) localgit.Signature {
	name := c.AgentHandle
	if name == "" {
		name = author(c)
	}
	return localgit.Signature{Name: name, Email: author(c) + "@" + f.emailHost(), When: f.now()}
}

func (f *Forge) emailHost() string {
	host, _, _ := strings.Cut(f.host, ":")
	return host
}

// at opens repo and resolves ref in it: the commit ref names, the
// default branch when it names none; ref comes back as resolved.
func (f *Forge) at(ctx context.Context, repo, ref string) (*repository, string, plumbing.Hash, error) {
	r, err := f.repository(ctx, repo)
	if err != nil {
		return nil, "", plumbing.ZeroHash, err
	}
	if ref == "" {
		ref = r.defaultBranch
	}
	h, err := r.git.Resolve(ref)
	if err != nil {
		return nil, "", plumbing.ZeroHash, gitError(err)
	}
	return r, ref, h, nil
}

// GetRepo reads a repository's settings. The local forge lets every account
// write; whether it may push to the default branch is the gateway
// account's push_to_default_branch.
func (f *Forge) GetRepo(ctx context.Context, _ toolserver.Call, req *gatewayv1.GetRepoRequest) (*forgev1.Repository, error) {
	r, err := f.repository(ctx, req.GetRepo())
	if err != nil {
		return nil, err
	}
	var open uint64
	err = f.readOne(ctx, func(q querier) error {
		return q.QueryRowContext(ctx, `SELECT count(*) FROM local_items WHERE repo_id = $1 AND kind = 'issue' AND state = 'open'`,
			r.id).Scan(&open)
	})
	if err != nil {
		return nil, err
	}
	return &forgev1.Repository{
		Forge: f.Ref(), Repo: r.name, DefaultBranch: r.defaultBranch, Visibility: f.visibilityOf(r.name),
		Permission: "write", OpenIssues: open, Url: f.baseURL + "/" + r.name,
	}, nil
}

// ReadFile reads one file at a ref: its text up to maxFileBytes, or only
// its size when it is binary.
func (f *Forge) ReadFile(ctx context.Context, _ toolserver.Call, req *gatewayv1.ReadFileRequest) (*forgev1.FileContent, error) {
	r, ref, commit, err := f.at(ctx, req.GetRepo(), req.GetRef())
	if err != nil {
		return nil, err
	}
	path := strings.TrimPrefix(req.GetPath(), "/")
	file, err := r.git.ReadFile(commit, path, maxFileBytes)
	if err != nil {
		return nil, gitError(err)
	}
	return &forgev1.FileContent{
		Forge: f.Ref(), Repo: r.name, Path: path, Ref: ref, Sha: file.Blob.String(), Size: uint64(file.Size),
		Binary: file.Binary, Content: file.Content, Truncated: file.Truncated, Url: f.pageURL(r.name, "blob", ref, path),
	}, nil
}

// ListDir lists a directory at a ref; "" (or "/") is the root.
func (f *Forge) ListDir(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListDirRequest) (*forgev1.DirListing, error) {
	r, ref, commit, err := f.at(ctx, req.GetRepo(), req.GetRef())
	if err != nil {
		return nil, err
	}
	path := strings.Trim(req.GetPath(), "/")
	entries, err := r.git.ListDir(commit, path)
	if err != nil {
		return nil, gitError(err)
	}
	out := &forgev1.DirListing{Forge: f.Ref(), Repo: r.name, Path: path, Ref: ref}
	for _, e := range entries {
		out.Entries = append(out.Entries, &forgev1.DirEntry{Name: e.Name, Type: e.Type, Size: uint64(e.Size), Sha: e.Hash.String()})
	}
	return out, dirpage.Cut(out, req)
}

// pageURL is BaseURL/<repo>/<kind>/<ref>[/<path>], each segment escaped.
func (f *Forge) pageURL(repo, kind, ref string, path ...string) string {
	u := f.baseURL + "/" + repo + "/" + kind + "/" + escapeSegments(ref)
	for _, p := range path {
		if p != "" {
			u += "/" + escapeSegments(p)
		}
	}
	return u
}

func escapeSegments(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// gitError words a localgit failure as the in-band error the model reads.
func gitError(err error) error {
	for _, k := range []struct {
		kind error
		as   func(string, ...any) *toolserver.Error
	}{
		{localgit.ErrNotFound, toolserver.NotFound},
		{localgit.ErrExists, toolserver.AlreadyExists},
		{localgit.ErrStale, toolserver.FailedPrecondition},
		{localgit.ErrConflict, toolserver.FailedPrecondition},
		{localgit.ErrInvalid, toolserver.InvalidArgument},
	} {
		if errors.Is(err, k.kind) {
			return k.as("%s", strings.TrimPrefix(err.Error(), k.kind.Error()+": "))
		}
	}
	return internal(err)
}

// visibilityOf is a repository's configured visibility; private unless
// configured otherwise.
func (f *Forge) visibilityOf(name string) string {
	if v, ok := f.visibility[repoKey(name)]; ok {
		return v
	}
	return "private"
}
