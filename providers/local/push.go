package local

import (
	"context"
	"strings"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/providers/local/localgit"
	"github.com/forgetools/forgetools/toolserver"
)

// CreateBranch points a new branch at from_ref (the default branch when
// omitted).
func (f *Forge) CreateBranch(ctx context.Context, _ toolserver.Call, req *gatewayv1.CreateBranchRequest) (*forgev1.BranchRef, error) {
	if err := checkBranch("branch", req.GetBranch()); err != nil {
		return nil, err
	}
	r, _, at, err := f.at(ctx, req.GetRepo(), req.GetFromRef())
	if err != nil {
		return nil, err
	}
	if err := r.git.CreateBranch(req.GetBranch(), at); err != nil {
		return nil, gitError(err)
	}
	return &forgev1.BranchRef{
		Forge: f.Ref(), Repo: r.name, Branch: req.GetBranch(), Sha: at.String(), Url: f.pageURL(r.name, "tree", req.GetBranch()),
	}, nil
}

// WriteFile commits one file's content to a branch as the account. An
// update must name the blob it read (expected_sha); a stale or missing one
// is failed_precondition and nothing is written. The default branch takes
// commits only from an account the operator allowed to push there.
func (f *Forge) WriteFile(ctx context.Context, c toolserver.Call, req *gatewayv1.WriteFileRequest) (*forgev1.FileCommit, error) {
	path := strings.TrimPrefix(req.GetPath(), "/")
	if err := localgit.CheckPath(path); err != nil {
		return nil, gitError(err)
	}
	r, err := f.commitTarget(ctx, c, req.GetRepo(), req.GetBranch(), req.GetMessage())
	if err != nil {
		return nil, err
	}
	w, err := r.git.WriteFile(localgit.Change{
		Branch: req.GetBranch(), Path: path, Content: []byte(req.GetContent()), ExpectedBlob: req.GetExpectedSha(),
		Message: req.GetMessage(), Author: f.signature(c),
	})
	if err != nil {
		return nil, gitError(err)
	}
	f.pushed(ctx, c, r, req.GetBranch(), w.Commit.String())
	return &forgev1.FileCommit{
		Forge: f.Ref(), Repo: r.name, Branch: req.GetBranch(), Path: path, CommitSha: w.Commit.String(),
		BlobSha: w.Blob.String(), Url: f.pageURL(r.name, "commit", w.Commit.String()),
	}, nil
}

// CommitFiles commits a change set to a branch as one commit, or nothing:
// each update and delete names the blob it read, an optional
// expected_head_sha the branch head, and localgit compares them all
// before it moves the branch by compare-and-swap. The default branch
// takes it only from an account allowed to push there, as WriteFile.
func (f *Forge) CommitFiles(ctx context.Context, c toolserver.Call, req *gatewayv1.CommitFilesRequest) (*forgev1.FilesCommit, error) {
	r, err := f.commitTarget(ctx, c, req.GetRepo(), req.GetBranch(), req.GetMessage())
	if err != nil {
		return nil, err
	}
	edits := make([]localgit.Edit, len(req.GetFiles()))
	for i, fc := range req.GetFiles() {
		edits[i] = localgit.Edit{Path: fc.GetPath(), Content: []byte(fc.GetContent()), ExpectedBlob: fc.GetExpectedSha(), Delete: fc.GetDelete()}
	}
	done, err := r.git.CommitFiles(localgit.ChangeSet{
		Branch: req.GetBranch(), Edits: edits, ExpectedHead: req.GetExpectedHeadSha(), Message: req.GetMessage(), Author: f.signature(c),
	})
	if err != nil {
		return nil, gitError(err)
	}
	if !done.Unchanged {
		f.pushed(ctx, c, r, req.GetBranch(), done.Commit.String())
	}
	out := &forgev1.FilesCommit{
		Forge: f.Ref(), Repo: r.name, Branch: req.GetBranch(), CommitSha: done.Commit.String(), ParentSha: done.Parent.String(),
		Url: f.pageURL(r.name, "commit", done.Commit.String()),
	}
	for i, fc := range req.GetFiles() {
		out.Files = append(out.Files, kit.Committed(fc, done.Blobs[i].String()))
	}
	return out, nil
}

// commitTarget is the repository a commit to branch goes to, once the
// branch name and message are valid and the account may push there: the
// default branch takes commits only from an account the operator allowed
// to push to it.
func (f *Forge) commitTarget(ctx context.Context, c toolserver.Call, repo, branch, message string) (*repository, error) {
	if err := checkBranch("branch", branch); err != nil {
		return nil, err
	}
	if strings.TrimSpace(message) == "" {
		return nil, toolserver.InvalidArgument("the commit message is empty")
	}
	r, err := f.repository(ctx, repo)
	if err != nil {
		return nil, err
	}
	if branch == r.defaultBranch && !c.PushToDefaultBranch {
		return nil, toolserver.PermissionDenied("%s is the default branch of %s, and this account may not push to a default branch (the operator's push_to_default_branch): commit to a branch of your own and open a pull request",
			branch, r.name)
	}
	return r, nil
}
