package gitlab

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"

	gl "gitlab.com/gitlab-org/api/client-go"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// CommitFiles commits a change set through GitLab's commit actions
// (POST /projects/:id/repository/commits): one commit of creates, updates
// and deletes, which GitLab makes whole or not at all. GitLab guards an
// update or delete by the last commit that touched the file
// (last_commit_id), not by blob: each file's current blob is compared with
// its expected_sha first, and its action carries that file's
// last_commit_id, so GitLab refuses the set if any file changed in
// between; a create is refused if the file exists. expected_head_sha is
// compared with the branch head before the commit: GitLab has no
// compare-and-swap of the head itself, so a commit landing in between
// that touches none of the set's files is not refused (the result's
// parent_sha shows it). The new blobs are read back at the new commit
// (one HEAD per written file).
func (p *Provider) CommitFiles(ctx context.Context, hc toolserver.Call, req *gatewayv1.CommitFilesRequest) (*forgev1.FilesCommit, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	branch := req.GetBranch()
	return call(ctx, p, fmt.Sprintf("commit %d files to %s in %s", len(req.GetFiles()), branch, repo), func(ro gl.RequestOptionFunc) (*forgev1.FilesCommit, error) {
		if err := p.mayPush(repo, branch, hc, ro); err != nil {
			return nil, err
		}
		if want := strings.ToLower(req.GetExpectedHeadSha()); want != "" {
			b, resp, err := p.author.Branches.GetBranch(repo.String(), branch, ro)
			if err != nil {
				return nil, fail(resp, err)
			}
			if b.Commit == nil || !strings.HasPrefix(b.Commit.ID, want) {
				return nil, toolserver.FailedPrecondition("%s in %s is not at the expected_head_sha %s you read; nothing was written: read it again and decide", branch, repo, req.GetExpectedHeadSha())
			}
		}
		actions, err := p.commitActions(repo, branch, req.GetFiles(), ro)
		if err != nil {
			return nil, err
		}
		c, resp, err := p.author.Commits.CreateCommit(repo.String(), &gl.CreateCommitOptions{
			Branch: ptr(branch), CommitMessage: ptr(req.GetMessage()), Actions: actions,
		}, ro)
		if err != nil {
			if resp != nil && resp.StatusCode == http.StatusBadRequest && staleAction(err) {
				return nil, toolserver.FailedPrecondition("a file of the set changed on %s in %s since you read it, nothing was written (%s): read the files again and decide", branch, repo, detail(err))
			}
			return nil, fail(resp, err)
		}
		out := &forgev1.FilesCommit{Forge: p.Ref(), Repo: repo.String(), Branch: branch, CommitSha: c.ID, Url: c.WebURL}
		if len(c.ParentIDs) > 0 {
			out.ParentSha = c.ParentIDs[0]
		}
		for _, fc := range req.GetFiles() {
			blob := ""
			if !fc.GetDelete() {
				after, resp, err := p.author.RepositoryFiles.GetFileMetaData(repo.String(), fc.GetPath(), &gl.GetFileMetaDataOptions{Ref: ptr(c.ID)}, ro)
				if err != nil {
					return nil, p.mapError("read back the commit's files (the commit "+c.ID+" was made)", fail(resp, err))
				}
				blob = after.BlobID
			}
			out.Files = append(out.Files, kit.Committed(fc, blob))
		}
		return out, nil
	})
}

// commitActions are the set's files as GitLab's actions, each update and
// delete checked against the file's current blob and carrying its
// last_commit_id.
func (p *Provider) commitActions(repo project, branch string, files []*gatewayv1.FileChange, ro gl.RequestOptionFunc) ([]*gl.CommitActionOptions, error) {
	out := make([]*gl.CommitActionOptions, 0, len(files))
	for _, fc := range files {
		a := &gl.CommitActionOptions{FilePath: ptr(fc.GetPath())}
		expected := fc.GetExpectedSha()
		if expected != "" {
			cur, resp, err := p.author.RepositoryFiles.GetFileMetaData(repo.String(), fc.GetPath(), &gl.GetFileMetaDataOptions{Ref: ptr(branch)}, ro)
			if err != nil {
				if resp != nil && resp.StatusCode == http.StatusNotFound {
					return nil, toolserver.FailedPrecondition("%s does not exist on %s in %s, so there is nothing at expected_sha %s; nothing was written", fc.GetPath(), branch, repo, expected)
				}
				return nil, fail(resp, err)
			}
			if !strings.HasPrefix(strings.ToLower(cur.BlobID), strings.ToLower(expected)) {
				return nil, toolserver.FailedPrecondition("%s on %s in %s is now blob %s, not %s: it changed since you read it; nothing was written, read it again and decide", fc.GetPath(), branch, repo, cur.BlobID, expected)
			}
			a.LastCommitID = ptr(cur.LastCommitID)
		}
		switch {
		case fc.GetDelete():
			a.Action = ptr(gl.FileDelete)
		case expected != "":
			a.Action = ptr(gl.FileUpdate)
		default:
			a.Action = ptr(gl.FileCreate)
		}
		if !fc.GetDelete() {
			// base64, so GitLab stores the bytes as sent (no newline or
			// encoding rewriting of text content).
			a.Content, a.Encoding = ptr(base64.StdEncoding.EncodeToString([]byte(fc.GetContent()))), ptr("base64")
		}
		out = append(out, a)
	}
	return out, nil
}

// staleAction reports GitLab's refusals of an action whose file is not as
// the set expects: changed since its last_commit_id, created where one
// exists, updated or deleted where none does.
func staleAction(err error) bool {
	m := detail(err)
	return strings.Contains(m, "has changed since you started editing it") || strings.Contains(m, "already exists") || strings.Contains(m, "doesn't exist")
}

// mayPush refuses a write to the default branch unless the operator
// allowed this account to push there.
func (p *Provider) mayPush(repo project, branch string, hc toolserver.Call, ro gl.RequestOptionFunc) error {
	if hc.PushToDefaultBranch {
		return nil
	}
	def, err := p.defaultBranch(repo, ro)
	if err != nil {
		return err
	}
	if def == branch {
		return toolserver.PermissionDenied("%s is the default branch of %s, and this gateway does not allow pushing to it; nothing was written: create a branch (forge_create_branch), write there and open a merge request", branch, repo)
	}
	return nil
}
