package giteatest

import (
	"encoding/base64"
	"net/http"

	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

// readContents is GET .../contents/PATH: a file (with its content), or a
// directory's listing.
func (s *Server) readContents(c *call) answer {
	rp, path := c.r, c.Value("path")
	ref := fakeOr(c.Query.Get("ref"), rp.DefaultBranch)
	files, found := rp.Files[ref]
	if !found {
		return s.notFound()
	}
	if body, isFile := files[path]; isFile {
		return ok(s.contentJSON(rp, ref, path, body, true))
	}
	var entries []any
	for _, e := range rp.List(ref, path) {
		if e.Dir {
			entries = append(entries, s.dirJSON(rp, ref, e.Path))
		} else {
			entries = append(entries, s.contentJSON(rp, ref, e.Path, e.Content, false))
		}
	}
	if entries == nil {
		return s.notFound()
	}
	return ok(entries)
}

// writeContents is POST (create) and PUT (update, with the current sha)
// .../contents/PATH.
func (s *Server) writeContents(c *call) answer {
	var in struct {
		Content string `json:"content"`
		Message string `json:"message"`
		Branch  string `json:"branch"`
		SHA     string `json:"sha"`
	}
	if !forgefake.Decode(c.Body, &in) {
		return s.apiError(http.StatusUnprocessableEntity, "invalid JSON")
	}
	raw, err := base64.StdEncoding.DecodeString(in.Content)
	if err != nil {
		return s.apiError(http.StatusUnprocessableEntity, "invalid base64 content")
	}
	rp, path, method := c.r, c.Value("path"), c.R.Method
	branch := fakeOr(in.Branch, rp.DefaultBranch)
	files, found := rp.Files[branch]
	if !found {
		return s.apiError(http.StatusNotFound, "branch does not exist [name: "+branch+"]")
	}
	cur, exists := files[path]
	switch {
	case method == http.MethodPost && exists:
		return s.apiError(http.StatusUnprocessableEntity, "repository file already exists [path: "+path+"]")
	case method == http.MethodPut && !exists:
		return s.apiError(http.StatusNotFound, "repository file does not exist [path: "+path+"]")
	case method == http.MethodPut && in.SHA != forgemodel.BlobSHA(cur):
		return s.apiError(http.StatusUnprocessableEntity, "sha does not match [given: "+in.SHA+", expected: "+forgemodel.BlobSHA(cur)+"]")
	}
	files[path] = string(raw)
	sha := s.Commit(rp, branch, forgemodel.Meta{Author: c.login, Message: in.Message + "\n"}, path)
	out := map[string]any{
		"content": s.contentJSON(rp, branch, path, string(raw), false),
		"commit": map[string]any{
			"url": s.api("/repos/%s/git/commits/%s", rp.Path, sha), "sha": sha, "created": stamp(s.Tick()),
			"html_url": s.web("/%s/commit/%s", rp.Path, sha), "message": in.Message + "\n",
			"author": map[string]any{"name": c.login, "email": c.login + "@noreply." + s.host},
		},
		"verification": map[string]any{"verified": false, "reason": "gpg.error.not_signed_commit"},
	}
	if method == http.MethodPost {
		return created(out)
	}
	return ok(out)
}
