package gitlabtest

import (
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"

	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

func (s *Server) tree(c *call) answer {
	ref := fakeOr(c.Query.Get("ref"), c.p.DefaultBranch)
	if _, found := c.p.Files[ref]; !found {
		return s.message(http.StatusNotFound, "404 Tree Not Found")
	}
	var nodes []map[string]any
	for _, e := range c.p.List(ref, c.Query.Get("path")) {
		if e.Dir {
			nodes = append(nodes, map[string]any{"id": forgemodel.BlobSHA("tree:" + e.Path), "name": e.Name, "type": "tree", "path": e.Path, "mode": "040000"})
		} else {
			nodes = append(nodes, map[string]any{"id": forgemodel.BlobSHA(e.Content), "name": e.Name, "type": "blob", "path": e.Path, "mode": "100644"})
		}
	}
	return treePaged(c.Query, nodes)
}

func (s *Server) createBranch(c *call) answer {
	var in struct {
		Branch string `json:"branch"`
		Ref    string `json:"ref"`
	}
	if !forgefake.Decode(c.Body, &in) {
		in.Branch, in.Ref = c.Query.Get("branch"), c.Query.Get("ref")
	}
	if in.Branch == "" || in.Ref == "" {
		return answer{Status: http.StatusBadRequest, Body: map[string]any{"error": "branch is missing, ref is missing"}}
	}
	p := c.p
	if _, found := p.Branches[in.Branch]; found {
		return s.message(http.StatusBadRequest, "Branch already exists")
	}
	from, found := p.Branches[in.Ref]
	if !found {
		return s.message(http.StatusBadRequest, "Invalid reference name: "+in.Ref)
	}
	p.Branch(in.Branch, in.Ref)
	return created(map[string]any{
		"name": in.Branch, "merged": false, "protected": false, "default": false, "can_push": true,
		"web_url": s.web("/%s/-/tree/%s", p.Path, in.Branch),
		"commit":  map[string]any{"id": from, "short_id": from[:8], "title": "commit", "web_url": s.web("/%s/-/commit/%s", p.Path, from)},
	})
}

// file serves GET .../repository/files/:path (content, base64) and HEAD
// (metadata in X-Gitlab-* headers).
func (s *Server) file(c *call) answer {
	name, ref := c.Value("file"), c.Query.Get("ref")
	if ref == "" {
		return answer{Status: http.StatusBadRequest, Body: map[string]any{"error": "ref is missing"}}
	}
	// A ref may be a branch's head commit, as the read-back of a commit
	// made through the API names it.
	branch := fakeOr(c.p.BranchAt(ref), ref)
	content, found := c.p.Files[branch][name]
	if !found {
		return s.message(http.StatusNotFound, "404 File Not Found")
	}
	meta := map[string]any{
		"file_name": name[strings.LastIndexByte(name, '/')+1:], "file_path": name, "size": len(content),
		"encoding": "base64", "content_sha256": "", "ref": ref, "blob_id": forgemodel.BlobSHA(content),
		"commit_id": c.p.Branches[branch], "last_commit_id": c.p.LastCommit[branch][name], "execute_filemode": false,
	}
	if c.R.Method == http.MethodHead {
		h := http.Header{}
		for k, hk := range map[string]string{"blob_id": "X-Gitlab-Blob-Id", "commit_id": "X-Gitlab-Commit-Id", "last_commit_id": "X-Gitlab-Last-Commit-Id",
			"file_path": "X-Gitlab-File-Path", "file_name": "X-Gitlab-File-Name", "ref": "X-Gitlab-Ref", "encoding": "X-Gitlab-Encoding"} {
			h.Set(hk, meta[k].(string))
		}
		h.Set("X-Gitlab-Size", strconv.Itoa(len(content)))
		return answer{Status: http.StatusOK, Header: h}
	}
	meta["content"] = base64.StdEncoding.EncodeToString([]byte(content))
	return ok(meta)
}

// writeFile serves POST (create) and PUT (update, last_commit_id checked)
// .../repository/files/:path.
func (s *Server) writeFile(c *call) answer {
	var in struct {
		Branch        string `json:"branch"`
		Content       string `json:"content"`
		CommitMessage string `json:"commit_message"`
		LastCommitID  string `json:"last_commit_id"`
		Encoding      string `json:"encoding"`
	}
	if !forgefake.Decode(c.Body, &in) || in.Branch == "" || in.CommitMessage == "" {
		return answer{Status: http.StatusBadRequest, Body: map[string]any{"error": "branch is missing, commit_message is missing"}}
	}
	name, method := c.Value("file"), c.R.Method
	files, found := c.p.Files[in.Branch]
	if !found {
		return s.message(http.StatusBadRequest, "You can only create or edit files when you are on a branch")
	}
	_, exists := files[name]
	switch {
	case method == http.MethodPost && exists:
		return s.message(http.StatusBadRequest, "A file with this name already exists")
	case method == http.MethodPut && !exists:
		return s.message(http.StatusBadRequest, "A file with this name doesn't exist")
	case method == http.MethodPut && in.LastCommitID != "" && in.LastCommitID != c.p.LastCommit[in.Branch][name]:
		return s.message(http.StatusBadRequest, "You are attempting to update a file that has changed since you started editing it.")
	}
	content := in.Content
	if in.Encoding == "base64" {
		raw, err := base64.StdEncoding.DecodeString(in.Content)
		if err != nil {
			return s.message(http.StatusBadRequest, "content is not base64")
		}
		content = string(raw)
	}
	files[name] = content
	s.Commit(c.p, in.Branch, forgemodel.Meta{Author: c.user, Message: in.CommitMessage}, name)
	status := http.StatusCreated
	if method == http.MethodPut {
		status = http.StatusOK
	}
	return answer{Status: status, Body: map[string]any{"file_path": name, "branch": in.Branch}}
}

func (s *Server) listPipelines(c *call) answer {
	var out []*forgemodel.Run
	for i := len(c.p.Runs) - 1; i >= 0; i-- {
		pl := c.p.Runs[i]
		if (c.Query.Get("ref") != "" && pl.Ref != c.Query.Get("ref")) || (c.Query.Get("status") != "" && pl.Status != c.Query.Get("status")) {
			continue
		}
		out = append(out, pl)
	}
	return paged(c.Query, out, func(pl *forgemodel.Run) any { return s.pipelineJSON(c.p, pl) })
}

// createPipeline is POST .../pipeline: a pipeline on a branch or tag, with
// variables; 400 when the ref does not exist.
func (s *Server) createPipeline(c *call) answer {
	var in struct {
		Ref       string `json:"ref"`
		Variables []struct {
			Key   string `json:"key"`
			Value string `json:"value"`
		} `json:"variables"`
	}
	if !forgefake.Decode(c.Body, &in) || in.Ref == "" {
		return answer{Status: http.StatusBadRequest, Body: map[string]any{"error": "ref is missing"}}
	}
	if _, found := c.p.Branches[in.Ref]; !found {
		return s.message(http.StatusBadRequest, map[string]any{"base": []string{"Reference not found"}})
	}
	vars := map[string]string{}
	for _, v := range in.Variables {
		vars[v.Key] = v.Value
	}
	return created(s.pipelineJSON(c.p, s.addPipeline(c.p, in.Ref, "created", "api", vars)))
}
