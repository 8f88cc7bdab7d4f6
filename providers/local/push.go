package local

import (
	"context"
	"strings"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
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
	if err := checkBranch("branch", req.GetBranch()); err != nil {
		return nil, err
	}
	path := strings.TrimPrefix(req.GetPath(), "/")
	if err := localgit.CheckPath(path); err != nil {
		return nil, gitError(err)
	}
	if strings.TrimSpace(req.GetMessage()) == "" {
		return nil, toolserver.InvalidArgument("the commit message is empty")
	}
	r, err := f.repository(ctx, req.GetRepo())
	if err != nil {
		return nil, err
	}
	if req.GetBranch() == r.defaultBranch && !c.PushToDefaultBranch {
		return nil, toolserver.PermissionDenied("%s is the default branch of %s, and this account may not push to a default branch (the operator's push_to_default_branch): commit to a branch of your own and open a pull request",
			req.GetBranch(), r.name)
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
