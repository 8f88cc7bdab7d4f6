package github

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/url"
	"strings"
	"unicode/utf8"

	gh "github.com/google/go-github/v84/github"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/internal/dirpage"
	"github.com/forgetools/forgetools/providers/internal/rest"
	"github.com/forgetools/forgetools/toolserver"
)

const (
	// maxFileBytes caps the text forge_read_file reads, as on every forge
	// (the gateway cuts it to the lines asked for); the rest is cut and
	// the result says truncated.
	maxFileBytes = rest.MaxFileText
	// binarySniff is how much of a file is looked at for a NUL byte, git's
	// own test for binary content.
	binarySniff = 8000
	// mediaRaw asks the blobs API for a blob's bytes as they are: the
	// contents API's JSON form carries no content for files over 1 MB.
	mediaRaw = "application/vnd.github.raw+json"
)

// GetRepo reads a repository and what the credential may do in it. GitHub's
// open_issues_count counts open pull requests too; they are counted (one
// request for a one-item page: its last-page number is the count) and taken
// off, so the result is open issues only.
func (p *Provider) GetRepo(ctx context.Context, _ toolserver.Call, req *gatewayv1.GetRepoRequest) (*forgev1.Repository, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	return call(ctx, p, "get repository "+repo.String(), func(ctx context.Context) (*forgev1.Repository, error) {
		r, _, err := p.author.Repositories.Get(ctx, repo.owner, repo.name)
		if err != nil {
			return nil, err
		}
		prs, resp, err := p.author.PullRequests.List(ctx, repo.owner, repo.name, &gh.PullRequestListOptions{State: "open", ListOptions: gh.ListOptions{PerPage: 1}})
		if err != nil {
			return nil, err
		}
		pulls := len(prs)
		if resp.LastPage > 0 {
			pulls = resp.LastPage
		}
		visibility := r.GetVisibility()
		if visibility == "" {
			visibility = "public"
			if r.GetPrivate() {
				visibility = "private"
			}
		}
		return &forgev1.Repository{
			Forge:         p.Ref(),
			Repo:          repo.String(),
			DefaultBranch: r.GetDefaultBranch(),
			Description:   r.GetDescription(),
			Visibility:    visibility,
			Archived:      r.GetArchived(),
			Permission:    permission(r.GetPermissions()),
			OpenIssues:    uint64(max(r.GetOpenIssuesCount()-pulls, 0)),
			Url:           r.GetHTMLURL(),
		}, nil
	})
}

// permission is the highest role GitHub grants the credential, in the
// roles' own names ("push" is the write role, "pull" the read role).
func permission(p *gh.RepositoryPermissions) string {
	switch {
	case p == nil:
		return ""
	case p.GetAdmin():
		return "admin"
	case p.GetMaintain():
		return "maintain"
	case p.GetPush():
		return "write"
	case p.GetTriage():
		return "triage"
	case p.GetPull():
		return "read"
	}
	return ""
}

// ReadFile reads one file's text at a ref through the contents API, with
// its blob sha. A file with a NUL byte in its first 8000 bytes is binary:
// its size is returned, not its content. Text past maxFileBytes is cut.
func (p *Provider) ReadFile(ctx context.Context, _ toolserver.Call, req *gatewayv1.ReadFileRequest) (*forgev1.FileContent, error) {
	repo, path, err := parseRepoPath(req.GetRepo(), req.GetPath(), false)
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("read %s in %s", path, repo), func(ctx context.Context) (*forgev1.FileContent, error) {
		ref, f, dir, err := p.contents(ctx, repo, path, req.GetRef())
		if err != nil {
			return nil, err
		}
		if f == nil {
			return nil, toolserver.InvalidArgument("%s in %s at %s is a directory (%d entries); list it with forge_list_dir", path, repo, ref, len(dir))
		}
		switch f.GetType() {
		case "symlink":
			return nil, toolserver.InvalidArgument("%s in %s at %s is a symbolic link to %q, which is not a file of the repository", path, repo, ref, f.GetTarget())
		case "submodule":
			return nil, toolserver.InvalidArgument("%s in %s at %s is a submodule (%s): its files are in that repository", path, repo, ref, f.GetSubmoduleGitURL())
		}
		content, err := p.fileBytes(ctx, repo, path, f)
		if err != nil {
			return nil, err
		}
		out := &forgev1.FileContent{
			Forge: p.Ref(),
			Repo:  repo.String(),
			Path:  path,
			Ref:   ref,
			Sha:   f.GetSHA(),
			Size:  uint64(max(f.GetSize(), 0)),
			Url:   f.GetHTMLURL(),
		}
		out.Content, out.Binary, out.Truncated = fileText(content)
		return out, nil
	})
}

// fileBytes is a file's content, at most maxFileBytes+1 bytes of it (enough
// to tell it was cut). The JSON answer carries files up to 1 MB base64
// encoded; a larger one comes with encoding "none" and its blob is
// fetched raw by sha (the blobs API serves up to 100 MB), so the bytes
// are the blob the answer named even if the ref moved, reading only what
// is kept.
func (p *Provider) fileBytes(ctx context.Context, repo repoName, path string, f *gh.RepositoryContent) ([]byte, error) {
	if f.GetEncoding() != "none" {
		s, err := f.GetContent()
		if err != nil {
			return nil, fmt.Errorf("GitHub's answer for %s is not decodable: %w", path, err)
		}
		return []byte(s[:min(len(s), maxFileBytes+1)]), nil
	}
	if !shaPattern.MatchString(f.GetSHA()) {
		return nil, toolserver.Unavailable("GitHub's answer for %s names its blob %q, which is not a sha", path, f.GetSHA())
	}
	u := fmt.Sprintf("repos/%s/%s/git/blobs/%s", repo.owner, repo.name, f.GetSHA())
	r, err := p.author.NewRequest("GET", u, nil)
	if err != nil {
		return nil, err
	}
	r.Header.Set("Accept", mediaRaw)
	resp, err := p.author.BareDo(ctx, r)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(io.LimitReader(resp.Body, maxFileBytes+1))
}

// fileText is what a read returns of b: the text cut to maxFileBytes on a
// character boundary (invalid UTF-8 shown as U+FFFD), or nothing for a
// binary file.
func fileText(b []byte) (text string, binary, truncated bool) {
	if bytes.IndexByte(b[:min(len(b), binarySniff)], 0) >= 0 {
		return "", true, false
	}
	if len(b) > maxFileBytes {
		cut := maxFileBytes
		for cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
		b, truncated = b[:cut], true
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), false, truncated
}

// ListDir lists a directory at a ref. GitHub lists a submodule as a "file"
// (for backward compatibility, its docs say) whose git_url is a tree and
// that has no download URL; it is reported as the submodule it is.
func (p *Provider) ListDir(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListDirRequest) (*forgev1.DirListing, error) {
	repo, path, err := parseRepoPath(req.GetRepo(), req.GetPath(), true)
	if err != nil {
		return nil, err
	}
	page, err := dirpage.PageOf(req)
	if err != nil {
		return nil, err
	}
	shown := path
	if shown == "" {
		shown = "the root"
	}
	return call(ctx, p, fmt.Sprintf("list %s in %s", shown, repo), func(ctx context.Context) (*forgev1.DirListing, error) {
		ref, f, dir, err := p.listing(ctx, repo, path, req.GetRef())
		if err != nil {
			return nil, err
		}
		if f != nil {
			return nil, toolserver.InvalidArgument("%s in %s at %s is a %s, not a directory; read it with forge_read_file", path, repo, ref, f.GetType())
		}
		out := &forgev1.DirListing{Forge: p.Ref(), Repo: repo.String(), Path: path, Ref: ref}
		for _, e := range dir {
			out.Entries = append(out.Entries, &forgev1.DirEntry{
				Name: e.GetName(),
				Type: entryType(e),
				Size: uint64(max(e.GetSize(), 0)),
				Sha:  e.GetSHA(),
			})
		}
		return out, page.Cut(out)
	})
}

func entryType(e *gh.RepositoryContent) string {
	if e.GetType() == "file" && e.DownloadURL == nil && strings.Contains(e.GetGitURL(), "/git/trees/") {
		return "submodule"
	}
	return e.GetType()
}

// contents reads path at ref (omitted = the default branch, looked up):
// a file (f) or a directory (dir), and the ref read.
func (p *Provider) contents(ctx context.Context, repo repoName, path, ref string) (string, *gh.RepositoryContent, []*gh.RepositoryContent, error) {
	ref, err := p.refOrDefault(ctx, repo, ref)
	if err != nil {
		return "", nil, nil, err
	}
	f, dir, _, err := p.author.Repositories.GetContents(ctx, repo.owner, repo.name, path, &gh.RepositoryContentGetOptions{Ref: ref})
	return ref, f, dir, err
}

// refOrDefault is ref, or the repository's default branch when ref is
// empty, so a read says which branch it read.
func (p *Provider) refOrDefault(ctx context.Context, repo repoName, ref string) (string, error) {
	if ref != "" {
		return ref, nil
	}
	return p.defaultBranch(ctx, repo)
}

func (p *Provider) defaultBranch(ctx context.Context, repo repoName) (string, error) {
	r, _, err := p.author.Repositories.Get(ctx, repo.owner, repo.name)
	if err != nil {
		return "", err
	}
	if r.GetDefaultBranch() == "" {
		return "", toolserver.FailedPrecondition("%s has no default branch (is it empty?); give a ref", repo)
	}
	return r.GetDefaultBranch(), nil
}

// parseRepoPath is a repository and a path in it, both checked.
func parseRepoPath(repoArg, path string, dir bool) (repoName, string, error) {
	repo, err := parseRepo(repoArg)
	if err != nil {
		return repoName{}, "", err
	}
	path, err = parsePath(path, dir)
	return repo, path, err
}

// parsePath checks a path for the contents API: relative to the root (a
// leading or trailing "/" is dropped), with no empty, "." or ".." segment
// and no control character. go-github refuses ".." anywhere in a path; it
// is refused here first, saying why. dir allows the empty path, the root.
func parsePath(p string, dir bool) (string, error) {
	clean := strings.Trim(p, "/")
	bad := func(why string) error {
		return toolserver.InvalidArgument("path %q %s", p, why)
	}
	switch {
	case clean == "" && dir:
		return "", nil
	case clean == "":
		return "", bad("names no file")
	case strings.Contains(clean, ".."):
		return "", bad(`contains "..", which GitHub's contents API refuses`)
	case strings.ContainsFunc(clean, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return "", bad("contains a control character")
	}
	for _, seg := range strings.Split(clean, "/") {
		if seg == "" || seg == "." {
			return "", bad("has an empty or \".\" segment")
		}
	}
	return clean, nil
}

// escapePath is a checked path escaped segment by segment for a URL (the
// slashes kept), for the go-github calls that do not escape it themselves.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}
