package githubtest

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

// The git data API (blobs, trees, commits and ref updates) on the
// model's git objects: a blob or tree written here is a loose object of
// the repository (forgemodel.Git's Blobs and Trees) until a commit holds
// it, and a ref update is refused unless it fast-forwards or is forced,
// as GitHub refuses it.

const (
	docBlobs   = "https://docs.github.com/rest/git/blobs"
	docTrees   = "https://docs.github.com/rest/git/trees"
	docCommitG = "https://docs.github.com/rest/git/commits"
	docRefsU   = "https://docs.github.com/rest/git/refs#update-a-reference"
)

// gitDataRoutes are the git data endpoints, below a repository's root.
func (s *Server) gitDataRoutes(rt *forgefake.Router) {
	on(rt, "GET /git/blobs/{sha}", func(c *call) answer { return s.getBlob(c.rp, c.Value("sha"), c.R.Header.Get("Accept")) })
	on(rt, "POST /git/blobs", func(c *call) answer { return s.createBlob(c.rp, c.Body) })
	on(rt, "GET /git/trees/{sha}", func(c *call) answer {
		return s.getTree(c.rp, c.Value("sha"), c.Query.Get("recursive") != "")
	})
	on(rt, "POST /git/trees", func(c *call) answer { return s.createTree(c.rp, c.Body) })
	on(rt, "GET /git/commits/{sha}", func(c *call) answer {
		if cm := c.rp.Commits[c.Value("sha")]; cm != nil {
			return jsonAnswer(http.StatusOK, s.gitCommitJSON(c.rp, cm))
		}
		return errorAnswer(http.StatusNotFound, "Not Found", docCommitG+"#get-a-commit-object", nil)
	})
	on(rt, "POST /git/commits", func(c *call) answer { return s.createGitCommit(c.rp, c.login, c.Body) })
	on(rt, "PATCH /git/refs/{ref...}", func(c *call) answer { return s.updateRef(c.rp, c.Value("ref"), c.Body) })
}

type blobJSON struct {
	Content  string `json:"content"`
	Encoding string `json:"encoding"`
	URL      string `json:"url"`
	SHA      string `json:"sha"`
	Size     int    `json:"size"`
	NodeID   string `json:"node_id"`
}

type shortBlobJSON struct {
	URL string `json:"url"`
	SHA string `json:"sha"`
}

type treeEntryJSON struct {
	Path string `json:"path"`
	Mode string `json:"mode"`
	Type string `json:"type"`
	SHA  string `json:"sha"`
	Size *int   `json:"size,omitempty"`
	URL  string `json:"url,omitempty"`
}

type treeJSON struct {
	SHA       string          `json:"sha"`
	URL       string          `json:"url"`
	Tree      []treeEntryJSON `json:"tree"`
	Truncated bool            `json:"truncated"`
}

// getBlob is GET /repos/o/n/git/blobs/{sha}: base64 in JSON, or the bytes
// themselves with the raw media type (blobs up to 100 MB, where the
// contents API's JSON stops at 1 MB).
func (s *Server) getBlob(r *repo, sha, accept string) answer {
	b, ok := r.BlobAt(sha)
	if !ok {
		return errorAnswer(http.StatusNotFound, "Not Found", docBlobs+"#get-a-blob", nil)
	}
	if strings.HasPrefix(accept, mediaRaw) {
		return answer{Status: http.StatusOK, Raw: slices.Clone(b), Type: mediaRaw}
	}
	return jsonAnswer(http.StatusOK, blobJSON{
		Content: wrap60(base64.StdEncoding.EncodeToString(b)), Encoding: "base64",
		URL: s.api("/repos/%s/git/blobs/%s", r.Path, sha), SHA: sha, Size: len(b), NodeID: "B_kwDO" + sha[:12],
	})
}

// createBlob is POST /repos/o/n/git/blobs: content as utf-8 (the
// default) or base64.
func (s *Server) createBlob(r *repo, body []byte) answer {
	var in struct {
		Content  *string `json:"content"`
		Encoding string  `json:"encoding"`
	}
	doc := docBlobs + "#create-a-blob"
	if err := json.Unmarshal(body, &in); err != nil {
		return errorAnswer(http.StatusBadRequest, "Problems parsing JSON", doc, nil)
	}
	if in.Content == nil {
		return errorAnswer(http.StatusUnprocessableEntity, "Invalid request.\n\n\"content\" wasn't supplied.", doc, nil)
	}
	var content []byte
	switch cmp.Or(in.Encoding, "utf-8") {
	case "utf-8", "utf8":
		if !utf8.ValidString(*in.Content) {
			return errorAnswer(http.StatusUnprocessableEntity, "content is not valid UTF-8", doc, nil)
		}
		content = []byte(*in.Content)
	case "base64":
		b, err := base64.StdEncoding.DecodeString(*in.Content)
		if err != nil {
			return errorAnswer(http.StatusUnprocessableEntity, "content is not valid Base64", doc, nil)
		}
		content = b
	default:
		return errorAnswer(http.StatusUnprocessableEntity, "encoding must be one of utf-8 or base64", doc, nil)
	}
	sha := r.AddBlob(content)
	return jsonAnswer(http.StatusCreated, shortBlobJSON{URL: s.api("/repos/%s/git/blobs/%s", r.Path, sha), SHA: sha})
}

// getTree is GET /repos/o/n/git/trees/{sha}: a directory's children, or
// with recursive every path below it (directories included).
func (s *Server) getTree(r *repo, sha string, recursive bool) answer {
	files, ok := r.TreeAt(sha)
	if !ok {
		return errorAnswer(http.StatusNotFound, "Not Found", docTrees+"#get-a-tree", nil)
	}
	return jsonAnswer(http.StatusOK, s.treeJSON(r, files, recursive))
}

// treeJSON lists files as a tree: each object with its mode, and each
// directory (040000) named by the files it holds.
func (s *Server) treeJSON(r *repo, files map[string]forgemodel.Object, recursive bool) treeJSON {
	sha := forgemodel.TreeSHA(files)
	out := treeJSON{SHA: sha, URL: s.api("/repos/%s/git/trees/%s", r.Path, sha), Tree: []treeEntryJSON{}}
	dirs := map[string]bool{}
	for _, p := range slices.Sorted(maps.Keys(files)) {
		parts := strings.Split(p, "/")
		for i := 1; i < len(parts); i++ {
			d := strings.Join(parts[:i], "/")
			if dirs[d] || (!recursive && i > 1) {
				continue
			}
			dirs[d] = true
			sub := forgemodel.TreeSHA(forgemodel.Subtree(files, d))
			out.Tree = append(out.Tree, treeEntryJSON{Path: d, Mode: "040000", Type: "tree", SHA: sub, URL: s.api("/repos/%s/git/trees/%s", r.Path, sub)})
		}
		if len(parts) > 1 && !recursive {
			continue
		}
		o := files[p]
		e := treeEntryJSON{Path: p, Mode: "100644", Type: "blob", SHA: o.SHA()}
		switch o.Kind {
		case "symlink":
			e.Mode = "120000"
		case "submodule":
			e.Mode, e.Type = "160000", "commit"
		}
		if e.Type == "blob" {
			size := len(o.Content)
			e.Size, e.URL = &size, s.api("/repos/%s/git/blobs/%s", r.Path, e.SHA)
		}
		out.Tree = append(out.Tree, e)
	}
	slices.SortStableFunc(out.Tree, func(a, b treeEntryJSON) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// createTree is POST /repos/o/n/git/trees: the base tree's files (none
// without base_tree) with each entry written over them; an entry with
// sha null deletes its path. Blobs must exist (422 otherwise, as GitHub
// answers).
func (s *Server) createTree(r *repo, body []byte) answer {
	var in struct {
		BaseTree string `json:"base_tree"`
		Tree     []struct {
			Path    string           `json:"path"`
			Mode    string           `json:"mode"`
			Type    string           `json:"type"`
			SHA     *json.RawMessage `json:"sha"`
			Content *string          `json:"content"`
		} `json:"tree"`
	}
	doc := docTrees + "#create-a-tree"
	if err := json.Unmarshal(body, &in); err != nil {
		return errorAnswer(http.StatusBadRequest, "Problems parsing JSON", doc, nil)
	}
	if in.Tree == nil {
		return errorAnswer(http.StatusUnprocessableEntity, "Invalid request.\n\n\"tree\" wasn't supplied.", doc, nil)
	}
	files := map[string]forgemodel.Object{}
	if in.BaseTree != "" {
		base, ok := r.TreeAt(in.BaseTree)
		if !ok {
			return errorAnswer(http.StatusUnprocessableEntity, "base_tree is not a valid tree oid", doc, nil)
		}
		files = maps.Clone(base)
	}
	for _, e := range in.Tree {
		if e.Path == "" || strings.HasPrefix(e.Path, "/") || strings.HasSuffix(e.Path, "/") || strings.Contains(e.Path, "//") {
			return errorAnswer(http.StatusUnprocessableEntity, "tree.path contains a malformed path component", doc, nil)
		}
		if e.Mode != "100644" && e.Mode != "100755" && e.Mode != "120000" || e.Type != "blob" {
			// The fake holds files only: trees and submodules are not written through it.
			return errorAnswer(http.StatusUnprocessableEntity, "Invalid tree info", doc, nil)
		}
		var sha *string
		if e.SHA != nil && string(*e.SHA) != "null" {
			var v string
			if json.Unmarshal(*e.SHA, &v) != nil {
				return errorAnswer(http.StatusUnprocessableEntity, "Invalid tree info", doc, nil)
			}
			sha = &v
		}
		switch {
		case e.Content != nil:
			files[e.Path] = fileOf(e.Mode, []byte(*e.Content))
		case sha == nil:
			delete(files, e.Path)
		default:
			b, ok := r.BlobAt(*sha)
			if !ok {
				return errorAnswer(http.StatusUnprocessableEntity, "tree.sha "+*sha+" is not a valid blob", doc, nil)
			}
			files[e.Path] = fileOf(e.Mode, b)
		}
	}
	r.AddTree(files)
	return jsonAnswer(http.StatusCreated, s.treeJSON(r, files, false))
}

// fileOf is a blob at mode: a symlink (120000) or a file.
func fileOf(mode string, b []byte) forgemodel.Object {
	if mode == "120000" {
		return forgemodel.Object{Content: b, Kind: "symlink", Target: string(b)}
	}
	return forgemodel.Object{Content: b}
}

// createGitCommit is POST /repos/o/n/git/commits: a commit of a tree on
// parents, which moves no ref.
func (s *Server) createGitCommit(r *repo, login string, body []byte) answer {
	var in struct {
		Message *string  `json:"message"`
		Tree    string   `json:"tree"`
		Parents []string `json:"parents"`
	}
	doc := docCommitG + "#create-a-commit"
	if err := json.Unmarshal(body, &in); err != nil {
		return errorAnswer(http.StatusBadRequest, "Problems parsing JSON", doc, nil)
	}
	if in.Message == nil {
		return errorAnswer(http.StatusUnprocessableEntity, "Invalid request.\n\n\"message\" wasn't supplied.", doc, nil)
	}
	files, ok := r.TreeAt(in.Tree)
	if !ok {
		return errorAnswer(http.StatusUnprocessableEntity, "Tree SHA does not exist", doc, nil)
	}
	for _, p := range in.Parents {
		if r.Commits[p] == nil {
			return errorAnswer(http.StatusUnprocessableEntity, "Parent SHA does not exist or is not a commit object", doc, nil)
		}
	}
	c := s.NewCommit(r, slices.Clone(in.Parents), login, *in.Message, maps.Clone(files))
	return jsonAnswer(http.StatusCreated, s.gitCommitJSON(r, c))
}

// updateRef is PATCH /repos/o/n/git/refs/{heads/NAME|tags/NAME}: the ref
// moved to a commit, refused (422) unless that fast-forwards it or force
// is set.
func (s *Server) updateRef(r *repo, ref string, body []byte) answer {
	var in struct {
		SHA   string `json:"sha"`
		Force bool   `json:"force"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return errorAnswer(http.StatusBadRequest, "Problems parsing JSON", docRefsU, nil)
	}
	kind, name, _ := strings.Cut(ref, "/")
	refs := map[string]map[string]string{"heads": r.Branches, "tags": r.Tags}[kind]
	cur, ok := refs[name]
	switch {
	case !ok:
		return errorAnswer(http.StatusUnprocessableEntity, "Reference does not exist", docRefsU, nil)
	case r.Commits[in.SHA] == nil:
		return errorAnswer(http.StatusUnprocessableEntity, "Object does not exist", docRefsU, nil)
	case !in.Force && !r.Descends(in.SHA, cur):
		return errorAnswer(http.StatusUnprocessableEntity, "Update is not a fast forward", docRefsU, nil)
	}
	refs[name] = in.SHA
	return jsonAnswer(http.StatusOK, s.refJSON(r, "refs/"+ref, in.SHA))
}
