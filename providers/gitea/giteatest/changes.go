package giteatest

import (
	"encoding/base64"
	"maps"
	"net/http"

	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

// changeFiles is POST .../contents, Gitea's repoChangeFiles: files[] of
// create, update and delete (each update and delete with the file's
// current blob sha) as one commit on branch, answered 201 with a
// FilesResponse (files[] in request order, null for a deleted file;
// commit with its parents). Every operation is checked before any is
// applied, so a refused set changes nothing, as Gitea's (one commit in a
// temporary clone, pushed once) does; the statuses and messages are
// Gitea's (422 for a sha that does not match or a file that exists, 404
// for a file or branch that does not).
func (s *Server) changeFiles(c *call) answer {
	var in struct {
		Branch  string `json:"branch"`
		Message string `json:"message"`
		Files   []struct {
			Operation string `json:"operation"`
			Path      string `json:"path"`
			Content   string `json:"content"`
			SHA       string `json:"sha"`
		} `json:"files"`
	}
	if !forgefake.Decode(c.Body, &in) || len(in.Files) == 0 {
		return s.apiError(http.StatusUnprocessableEntity, "[Files]: Required")
	}
	rp := c.r
	branch := fakeOr(in.Branch, rp.DefaultBranch)
	files, found := rp.Files[branch]
	if !found {
		return s.apiError(http.StatusNotFound, "branch does not exist [name: "+branch+"]")
	}
	next := maps.Clone(files)
	for _, f := range in.Files {
		cur, exists := files[f.Path]
		switch {
		case f.Operation != "create" && f.Operation != "update" && f.Operation != "delete":
			return s.apiError(http.StatusUnprocessableEntity, "[Files]: invalid operation "+f.Operation+" (this fake has no upload or rename)")
		case f.Operation == "create" && exists:
			return s.apiError(http.StatusUnprocessableEntity, "repository file already exists [path: "+f.Path+"]")
		case f.Operation != "create" && !exists:
			return s.apiError(http.StatusNotFound, "repository file does not exist [path: "+f.Path+"]")
		case f.Operation != "create" && f.SHA == "":
			return s.apiError(http.StatusUnprocessableEntity, "a SHA or commit ID must be proved when updating a file")
		case f.Operation != "create" && f.SHA != forgemodel.BlobSHA(cur):
			return s.apiError(http.StatusUnprocessableEntity, "sha does not match [given: "+f.SHA+", expected: "+forgemodel.BlobSHA(cur)+"]")
		}
		if f.Operation == "delete" {
			delete(next, f.Path)
			continue
		}
		raw, err := base64.StdEncoding.DecodeString(f.Content)
		if err != nil {
			return s.apiError(http.StatusUnprocessableEntity, "invalid base64 content")
		}
		next[f.Path] = string(raw)
	}
	parent := rp.Branches[branch]
	rp.Files[branch] = next
	sha := s.Commit(rp, branch, forgemodel.Meta{Author: c.login, Message: in.Message + "\n"})
	out := make([]any, len(in.Files))
	for i, f := range in.Files {
		if body, ok := next[f.Path]; ok && f.Operation != "delete" {
			out[i] = s.contentJSON(rp, branch, f.Path, body, true)
		}
	}
	return created(map[string]any{
		"files": out,
		"commit": map[string]any{
			"url": s.api("/repos/%s/git/commits/%s", rp.Path, sha), "sha": sha, "created": stamp(s.Tick()),
			"html_url": s.web("/%s/commit/%s", rp.Path, sha), "message": in.Message + "\n",
			"author":  map[string]any{"name": c.login, "email": c.login + "@noreply." + s.host},
			"parents": []any{map[string]any{"sha": parent, "url": s.api("/repos/%s/git/commits/%s", rp.Path, parent)}},
		},
		"verification": map[string]any{"verified": false, "reason": "gpg.error.not_signed_commit"},
	})
}

// getBranch is GET .../branches/BRANCH.
func (s *Server) getBranch(c *call) answer {
	rp, name := c.r, c.Value("branch")
	head, found := rp.Branches[name]
	if !found {
		return s.apiError(http.StatusNotFound, "branch does not exist [name: "+name+"]")
	}
	return ok(map[string]any{
		"name": name, "protected": false, "user_can_push": true, "user_can_merge": true,
		"commit": map[string]any{"id": head, "message": "commit\n", "url": s.web("/%s/commit/%s", rp.Path, head), "timestamp": stamp(s.Now())},
	})
}
