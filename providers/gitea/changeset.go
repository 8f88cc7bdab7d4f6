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
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// changeFile is one operation of Gitea's ChangeFilesOptions.
type changeFile struct {
	Operation string `json:"operation"`
	Path      string `json:"path"`
	Content   string `json:"content,omitempty"`
	SHA       string `json:"sha,omitempty"`
}

// filesAnswer is the part of Gitea's FilesResponse read back: each file's
// new blob (null for a deleted one, and the list may stop short at
// Gitea's response caps) and the commit with its parent.
type filesAnswer struct {
	Files []*struct {
		SHA string `json:"sha"`
	} `json:"files"`
	Commit *struct {
		SHA     string `json:"sha"`
		HTMLURL string `json:"html_url"`
		Parents []struct {
			SHA string `json:"sha"`
		} `json:"parents"`
	} `json:"commit"`
}

// CommitFiles commits a change set through Gitea's change-files API (POST
// /repos/{owner}/{repo}/contents): one commit of creates, updates and
// deletes, made in one temporary clone and pushed once, so Gitea writes
// all or nothing. Each update and delete is compared with its
// expected_sha first (a prefix, any case) and sent with the full blob
// sha, which Gitea checks again as it commits; a create is refused where
// a file exists. expected_head_sha is compared with the branch head
// before the commit: Gitea's API takes no expected parent, so a commit
// landing in between that touches none of the set's files is not refused
// (the result's parent_sha shows it). The SDK's ChangeFiles decodes the
// answer as a single file's, so the request is sent directly.
func (p *Provider) CommitFiles(ctx context.Context, hc toolserver.Call, req *gatewayv1.CommitFilesRequest) (*forgev1.FilesCommit, error) {
	repo, err := p.parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	paths := make([]string, len(req.GetFiles()))
	for i, fc := range req.GetFiles() {
		if paths[i], err = p.cleanPath(fc.GetPath(), false); err != nil {
			return nil, err
		}
	}
	branch := req.GetBranch()
	return call(ctx, p, fmt.Sprintf("commit %d files to %s in %s", len(paths), branch, repo), func(c *sdk.Client) (*forgev1.FilesCommit, error) {
		if err := mayPush(c, repo, branch, hc); err != nil {
			return nil, err
		}
		if want := strings.ToLower(req.GetExpectedHeadSha()); want != "" {
			b, resp, err := c.GetRepoBranch(repo.owner, repo.name, branch)
			if err != nil {
				return nil, fail(resp, err)
			}
			if b.Commit == nil || !strings.HasPrefix(strings.ToLower(b.Commit.ID), want) {
				return nil, toolserver.FailedPrecondition("%s in %s is not at the expected_head_sha %s you read; nothing was written: read it again and decide", branch, repo, req.GetExpectedHeadSha())
			}
		}
		ops := make([]changeFile, len(paths))
		for i, fc := range req.GetFiles() {
			op := changeFile{Operation: "create", Path: paths[i]}
			if expected := fc.GetExpectedSha(); expected != "" {
				cur, r, gerr := c.GetContents(repo.owner, repo.name, branch, paths[i])
				if gerr != nil {
					if r != nil && r.StatusCode == http.StatusNotFound {
						return nil, toolserver.FailedPrecondition("%s does not exist on %s in %s, so there is nothing at expected_sha %s; nothing was written", paths[i], branch, repo, expected)
					}
					return nil, fail(r, gerr)
				}
				if !strings.HasPrefix(strings.ToLower(cur.SHA), strings.ToLower(expected)) {
					return nil, toolserver.FailedPrecondition("%s on %s in %s is now blob %s, not %s: it changed since you read it; nothing was written, read it again and decide", paths[i], branch, repo, cur.SHA, expected)
				}
				op.Operation, op.SHA = "update", cur.SHA
			}
			if fc.GetDelete() {
				op.Operation = "delete"
			} else {
				op.Content = base64.StdEncoding.EncodeToString([]byte(fc.GetContent()))
			}
			ops[i] = op
		}
		author, committer := p.commitIdentity(hc)
		var out filesAnswer
		resp, err := p.send(ctx, p.token, http.MethodPost, repoPath(repo, "contents"), map[string]any{
			"branch": branch, "message": req.GetMessage(), "author": author, "committer": committer, "files": ops,
		}, &out)
		if err != nil {
			if resp != nil && staleChange(resp.StatusCode, detail(err)) {
				return nil, toolserver.FailedPrecondition("a file of the set changed on %s in %s since you read it, nothing was written (%s): read the files again and decide", branch, repo, detail(err))
			}
			return nil, err
		}
		if out.Commit == nil || out.Commit.SHA == "" {
			return nil, toolserver.Internal("Gitea answered the commit to %s without the commit it made; read the branch to see what landed", branch)
		}
		res := &forgev1.FilesCommit{Forge: p.Ref(), Repo: repo.String(), Branch: branch, CommitSha: out.Commit.SHA, Url: out.Commit.HTMLURL}
		if len(out.Commit.Parents) > 0 {
			res.ParentSha = out.Commit.Parents[0].SHA
		}
		for i, fc := range req.GetFiles() {
			blob := ""
			switch {
			case fc.GetDelete():
			case i < len(out.Files) && out.Files[i] != nil:
				blob = out.Files[i].SHA
			default:
				// Past Gitea's response caps: read the blob at the commit.
				cur, r, gerr := c.GetContents(repo.owner, repo.name, out.Commit.SHA, paths[i])
				if gerr != nil {
					return nil, p.mapError("read back the commit's files (the commit "+out.Commit.SHA+" was made)", fail(r, gerr))
				}
				blob = cur.SHA
			}
			f := kit.Committed(fc, blob)
			f.Path = paths[i]
			res.Files = append(res.Files, f)
		}
		return res, nil
	})
}

// staleChange reports Gitea's refusals of a change whose file is not as
// the set expects: a sha that no longer matches or a create where a file
// exists (422), an update or delete where none does (404).
func staleChange(status int, msg string) bool {
	switch status {
	case http.StatusUnprocessableEntity:
		return strings.Contains(msg, "sha does not match") || strings.Contains(msg, "already exists")
	case http.StatusNotFound:
		return strings.Contains(msg, "repository file does not exist")
	}
	return false
}

// mayPush refuses a write to the default branch unless the operator
// allowed this account to push there.
func mayPush(c *sdk.Client, repo repoName, branch string, hc toolserver.Call) error {
	if hc.PushToDefaultBranch {
		return nil
	}
	def, err := defaultBranch(c, repo)
	if err != nil {
		return err
	}
	if def == branch {
		return refuseDefault(repo, branch)
	}
	return nil
}
