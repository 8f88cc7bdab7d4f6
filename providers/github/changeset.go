package github

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	gh "github.com/google/go-github/v84/github"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// CommitFiles commits a change set through GitHub's git data API: the
// branch's ref is read, every file of the set is checked against the
// parent commit's tree (an update's or delete's expected_sha, a
// create's absence), and only then are the blobs, one tree on the
// parent's (base_tree, sha null for a delete) and one commit with that
// parent written, and the ref moved to it without force. GitHub moves a
// ref only by fast-forward then, so a head that moved after the read
// refuses the update and nothing lands on the branch: the blobs, tree
// and commit already written are unreferenced objects, which nothing
// shows and GitHub's garbage collection removes. All or nothing: a stale
// sha refuses the whole set before any write.
func (p *Provider) CommitFiles(ctx context.Context, hc toolserver.Call, req *gatewayv1.CommitFilesRequest) (*forgev1.FilesCommit, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	branch, err := branchName(req.GetBranch())
	if err != nil {
		return nil, err
	}
	paths := make([]string, len(req.GetFiles()))
	for i, fc := range req.GetFiles() {
		if paths[i], err = parsePath(fc.GetPath(), false); err != nil {
			return nil, err
		}
	}
	what := fmt.Sprintf("commit %d files to %s in %s", len(paths), branch, repo)
	return call(ctx, p, what, func(ctx context.Context) (*forgev1.FilesCommit, error) {
		if err := p.mayCommit(ctx, hc, repo, branch, what); err != nil {
			return nil, err
		}
		ref, _, err := p.author.Git.GetRef(ctx, repo.owner, repo.name, "heads/"+branch)
		if status, _ := answered(err); status == 404 {
			return nil, toolserver.NotFound("%s: there is no branch %s in %s; nothing was written: create it with forge_create_branch", what, branch, repo)
		} else if err != nil {
			return nil, err
		}
		head := ref.GetObject().GetSHA()
		if err := answeredSHA(what, "the branch's head", head); err != nil {
			return nil, err
		}
		if want := strings.ToLower(req.GetExpectedHeadSha()); want != "" && !strings.HasPrefix(head, want) {
			return nil, toolserver.FailedPrecondition("%s: %s is at %s, not the expected_head_sha %s you read; nothing was written: read it again and decide", what, branch, head, req.GetExpectedHeadSha())
		}
		parent, _, err := p.author.Git.GetCommit(ctx, repo.owner, repo.name, head)
		if err != nil {
			return nil, err
		}
		if err := answeredSHA(what, "the head's tree", parent.GetTree().GetSHA()); err != nil {
			return nil, err
		}
		walk := &treeWalk{p: p, repo: repo, root: parent.GetTree().GetSHA(), dirs: map[string]map[string]*gh.TreeEntry{}}
		entries := make([]*gh.TreeEntry, len(paths))
		for i, fc := range req.GetFiles() {
			if entries[i], err = walk.check(ctx, fc, paths[i], branch); err != nil {
				return nil, err
			}
		}
		blobs := make([]string, len(paths))
		for i, fc := range req.GetFiles() {
			if fc.GetDelete() {
				continue
			}
			b, _, err := p.author.Git.CreateBlob(ctx, repo.owner, repo.name, gh.Blob{
				Content: gh.Ptr(base64.StdEncoding.EncodeToString([]byte(fc.GetContent()))), Encoding: gh.Ptr("base64"),
			})
			if err != nil {
				return nil, err
			}
			if err := answeredSHA(what, "a blob it wrote", b.GetSHA()); err != nil {
				return nil, err
			}
			blobs[i] = b.GetSHA()
			entries[i].SHA = gh.Ptr(blobs[i])
		}
		tree, _, err := p.author.Git.CreateTree(ctx, repo.owner, repo.name, walk.root, entries)
		if err != nil {
			return nil, err
		}
		if err := answeredSHA(what, "the tree it wrote", tree.GetSHA()); err != nil {
			return nil, err
		}
		made, _, err := p.author.Git.CreateCommit(ctx, repo.owner, repo.name, gh.Commit{
			Message: gh.Ptr(req.GetMessage()), Tree: &gh.Tree{SHA: tree.SHA}, Parents: []*gh.Commit{{SHA: gh.Ptr(head)}},
		}, nil)
		if err != nil {
			return nil, err
		}
		if err := answeredSHA(what, "the commit it wrote", made.GetSHA()); err != nil {
			return nil, err
		}
		_, _, err = p.author.Git.UpdateRef(ctx, repo.owner, repo.name, "heads/"+branch, gh.UpdateRef{SHA: made.GetSHA(), Force: gh.Ptr(false)})
		if status, said := answered(err); status == 422 || status == 409 {
			return nil, toolserver.FailedPrecondition("%s: %s moved since it was read at %s (GitHub: %s); nothing was written to the branch (the commit %s made for it is on no branch): read the files again and decide",
				what, branch, head, said, made.GetSHA())
		} else if err != nil {
			return nil, err
		}
		out := &forgev1.FilesCommit{Forge: p.Ref(), Repo: repo.String(), Branch: branch, CommitSha: made.GetSHA(), ParentSha: head,
			Url: or(made.GetHTMLURL(), p.webURL(repo, "commit/"+made.GetSHA()))}
		for i, fc := range req.GetFiles() {
			f := kit.Committed(fc, blobs[i])
			f.Path = paths[i]
			out.Files = append(out.Files, f)
		}
		return out, nil
	})
}

// mayCommit refuses a commit to the repository's default branch unless
// the call allows it, before anything is written.
func (p *Provider) mayCommit(ctx context.Context, c toolserver.Call, repo repoName, branch, what string) error {
	if c.PushToDefaultBranch {
		return nil
	}
	def, err := p.defaultBranch(ctx, repo)
	if err != nil {
		return err
	}
	if strings.EqualFold(branch, def) {
		return toolserver.PermissionDenied("%s: %s is the default branch of %s, and this account may not commit to it; nothing was written: create a branch (forge_create_branch), write there and open a pull request",
			what, def, repo)
	}
	return nil
}

// answeredSHA refuses an answer naming object (what GitHub was asked
// for) by something other than a full sha: nothing is built on it, and
// the branch is not moved.
func answeredSHA(what, object, sha string) error {
	if shaPattern.MatchString(sha) {
		return nil
	}
	return toolserver.Unavailable("%s: GitHub named %s %q, which is not a sha; the branch was not moved: try again later", what, object, sha)
}

// treeWalk reads the parent commit's tree one directory at a time, only
// along the paths of the set, each directory once.
type treeWalk struct {
	p    *Provider
	repo repoName
	root string
	dirs map[string]map[string]*gh.TreeEntry // directory -> name -> entry
}

// check holds one file of the set to the parent's tree and returns its
// entry for the new tree (a delete's sha null, the others' set once
// their blob is written): an update or delete needs a file there whose
// blob starts with expected_sha, a create needs nothing there. A file's
// mode (executable or not) is kept.
func (w *treeWalk) check(ctx context.Context, fc *gatewayv1.FileChange, path, branch string) (*gh.TreeEntry, error) {
	e, blocked, err := w.entry(ctx, path)
	if err != nil {
		return nil, err
	}
	expected := strings.ToLower(fc.GetExpectedSha())
	refuse := func(format string, args ...any) error {
		return toolserver.FailedPrecondition("%s on %s in %s "+format+"; nothing was written: read it again and decide", append([]any{path, branch, w.repo}, args...)...)
	}
	switch {
	case blocked != "":
		return nil, refuse("cannot be a file: %s is a file there", blocked)
	case e != nil && e.GetType() == "tree":
		return nil, refuse("is a directory")
	case e != nil && (e.GetType() != "blob" || e.GetMode() == "120000"):
		return nil, refuse("is a submodule or symbolic link, which a change set does not write")
	case expected == "" && e != nil:
		return nil, refuse("already exists (blob %s): pass its sha as expected_sha to replace it", e.GetSHA())
	case expected != "" && e == nil:
		return nil, refuse("does not exist, so there is nothing at expected_sha %s", fc.GetExpectedSha())
	case expected != "" && !strings.HasPrefix(e.GetSHA(), expected):
		return nil, refuse("is now blob %s, not %s: it changed since you read it", e.GetSHA(), fc.GetExpectedSha())
	}
	mode := "100644"
	if e != nil {
		mode = e.GetMode()
	}
	return &gh.TreeEntry{Path: gh.Ptr(path), Mode: gh.Ptr(mode), Type: gh.Ptr("blob")}, nil
}

// entry is path's entry in the tree (nil when there is none), or the
// directory on the way that is a file (blocked).
func (w *treeWalk) entry(ctx context.Context, path string) (e *gh.TreeEntry, blocked string, err error) {
	dir, sha := "", w.root
	segs := strings.Split(path, "/")
	for i, name := range segs {
		children, err := w.list(ctx, dir, sha)
		if err != nil {
			return nil, "", err
		}
		e = children[name]
		here := strings.Join(segs[:i+1], "/")
		switch {
		case i == len(segs)-1:
			return e, "", nil
		case e == nil:
			return nil, "", nil
		case e.GetType() != "tree":
			return nil, here, nil
		}
		dir, sha = here, e.GetSHA()
	}
	return nil, "", nil
}

// list is one directory's children, read once.
func (w *treeWalk) list(ctx context.Context, dir, sha string) (map[string]*gh.TreeEntry, error) {
	if c, ok := w.dirs[dir]; ok {
		return c, nil
	}
	t, _, err := w.p.author.Git.GetTree(ctx, w.repo.owner, w.repo.name, sha, false)
	if err != nil {
		return nil, err
	}
	if t.GetTruncated() {
		return nil, toolserver.Unavailable("GitHub cut its listing of %q in %s short, so the change set cannot be checked against it; nothing was written", or(dir, "/"), w.repo)
	}
	c := map[string]*gh.TreeEntry{}
	for _, e := range t.Entries {
		c[e.GetPath()] = e
	}
	w.dirs[dir] = c
	return c, nil
}
