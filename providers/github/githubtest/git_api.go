package githubtest

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

const (
	docContents = "https://docs.github.com/rest/repos/contents#create-or-update-file-contents"
	docCommits  = "https://docs.github.com/rest/commits/commits#get-a-commit"
	docRefs     = "https://docs.github.com/rest/git/refs#create-a-reference"
	docMerge    = "https://docs.github.com/rest/pulls/pulls#merge-a-pull-request"

	// mediaSHA asks GET /commits/{ref} for the bare sha.
	mediaSHA = "application/vnd.github.v3.sha"
	// mediaRaw asks the contents API for a file's bytes.
	mediaRaw = "application/vnd.github.raw"
)

// getContents is GET /repos/o/n/contents/{path}?ref=: a file (its bytes
// with the raw media type), a symlink, a submodule, or a directory listing.
func (s *Server) getContents(r *repo, path string, q url.Values, accept string) answer {
	ref := first(q["ref"], r.DefaultBranch)
	c := r.CommitAt(ref)
	if c == nil {
		return errorAnswer(http.StatusNotFound, "No commit found for the ref "+ref, docContents, nil)
	}
	if f, ok := c.Tree[path]; ok {
		if strings.HasPrefix(accept, mediaRaw) && f.Kind == "" {
			return answer{Status: http.StatusOK, Raw: append([]byte{}, f.Content...), Type: mediaRaw}
		}
		return jsonAnswer(http.StatusOK, s.contentJSON(r, ref, entry{Name: baseName(path), Path: path, Object: &f, SHA: f.SHA()}, true))
	}
	entries, ok := c.Dir(path)
	if !ok {
		return errorAnswer(http.StatusNotFound, "Not Found", docContents, nil)
	}
	out := []contentJSON{}
	for _, e := range entries {
		out = append(out, s.contentJSON(r, ref, e, false))
	}
	return jsonAnswer(http.StatusOK, out)
}

func baseName(path string) string { return path[strings.LastIndex(path, "/")+1:] }

// putContents is PUT /repos/o/n/contents/{path}: one file created or
// replaced as a commit on a branch. Replacing needs the current blob sha:
// without one GitHub answers 422, with a stale one 409 (also the fake's
// answer to a sha given for a file that does not exist).
func (s *Server) putContents(r *repo, path, login string, body []byte) answer {
	var in struct {
		Message *string `json:"message"`
		Content *string `json:"content"`
		SHA     string  `json:"sha"`
		Branch  string  `json:"branch"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return errorAnswer(http.StatusBadRequest, "Problems parsing JSON", docContents, nil)
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"message", in.Message}, {"content", in.Content}} {
		if f.v == nil {
			return errorAnswer(http.StatusUnprocessableEntity, fmt.Sprintf("Invalid request.\n\n%q wasn't supplied.", f.name), docContents, nil)
		}
	}
	content, err := base64.StdEncoding.DecodeString(*in.Content)
	if err != nil {
		return errorAnswer(http.StatusUnprocessableEntity, "content is not valid Base64", docContents, nil)
	}
	branch := cmp.Or(in.Branch, r.DefaultBranch)
	head, ok := r.Branches[branch]
	if !ok {
		return errorAnswer(http.StatusNotFound, "Branch "+branch+" not found", docContents, nil)
	}
	cur, exists := r.Commits[head].Tree[path]
	switch {
	case exists && in.SHA == "":
		return errorAnswer(http.StatusUnprocessableEntity, "Invalid request.\n\n\"sha\" wasn't supplied.", docContents, nil)
	case in.SHA != "" && (!exists || cur.SHA() != in.SHA):
		return errorAnswer(http.StatusConflict, fmt.Sprintf("%s does not match %s", path, in.SHA), docContents, nil)
	}
	tree := maps.Clone(r.Commits[head].Tree)
	f := file{Content: content}
	tree[path] = f
	c := s.NewCommit(r, []string{head}, login, *in.Message, tree)
	r.Branches[branch] = c.SHA
	status := http.StatusCreated
	if exists {
		status = http.StatusOK
	}
	e := s.contentJSON(r, branch, entry{Name: baseName(path), Path: path, Object: &f, SHA: f.SHA()}, false)
	return jsonAnswer(status, fileCommitJSON{Content: e, Commit: s.gitCommitJSON(r, c)})
}

// getCommit is GET /repos/o/n/commits/{ref}, with the sha media type the
// bare sha as text (what resolving a ref takes), else GitHub's
// "commit" (history.go); unknown refs are 422.
func (s *Server) getCommit(r *repo, ref, accept string) answer {
	c := r.CommitAt(ref)
	if c == nil {
		return errorAnswer(http.StatusUnprocessableEntity, "No commit found for SHA: "+ref, docCommits, nil)
	}
	if accept == mediaSHA {
		return answer{Status: http.StatusOK, Raw: []byte(c.SHA), Type: mediaSHA + "; charset=utf-8"}
	}
	return jsonAnswer(http.StatusOK, s.repoCommitJSON(r, c))
}

// createRef is POST /repos/o/n/git/refs: a branch or tag at a commit.
func (s *Server) createRef(r *repo, body []byte) answer {
	var in struct {
		Ref string `json:"ref"`
		SHA string `json:"sha"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return errorAnswer(http.StatusBadRequest, "Problems parsing JSON", docRefs, nil)
	}
	kind, name, _ := strings.Cut(strings.TrimPrefix(in.Ref, "refs/"), "/")
	refs := map[string]map[string]string{"heads": r.Branches, "tags": r.Tags}[kind]
	switch {
	case !strings.HasPrefix(in.Ref, "refs/") || strings.Count(in.Ref, "/") < 2 || refs == nil || name == "":
		return errorAnswer(http.StatusUnprocessableEntity, "Reference name is invalid", docRefs, nil)
	case r.Commits[in.SHA] == nil:
		return errorAnswer(http.StatusUnprocessableEntity, "Object does not exist", docRefs, nil)
	}
	if _, ok := refs[name]; ok {
		return errorAnswer(http.StatusUnprocessableEntity, "Reference already exists", docRefs, nil)
	}
	refs[name] = in.SHA
	return jsonAnswer(http.StatusCreated, s.refJSON(r, in.Ref, in.SHA))
}

// getRef is GET /repos/o/n/git/ref/heads/NAME (or tags/NAME).
func (s *Server) getRef(r *repo, ref string) answer {
	kind, name, _ := strings.Cut(ref, "/")
	if sha, ok := map[string]map[string]string{"heads": r.Branches, "tags": r.Tags}[kind][name]; ok {
		return jsonAnswer(http.StatusOK, s.refJSON(r, "refs/"+ref, sha))
	}
	return errorAnswer(http.StatusNotFound, "Not Found", "https://docs.github.com/rest/git/refs#get-a-reference", nil)
}

// merge is PUT /repos/o/n/pulls/N/merge. With sha, the head must still be
// that commit (409 otherwise); a closed, conflicting pull request or a
// method the repository disallows is 405, in GitHub's words. A merge
// commits the head's files onto the base (one parent for squash and
// rebase), closes the pull request and marks it merged; hooks hear that
// it closed.
func (s *Server) merge(r *repo, it *item, login string, body []byte) answer {
	var in struct {
		CommitTitle   string  `json:"commit_title"`
		CommitMessage *string `json:"commit_message"`
		SHA           string  `json:"sha"`
		MergeMethod   string  `json:"merge_method"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return errorAnswer(http.StatusBadRequest, "Problems parsing JSON", docMerge, nil)
	}
	method := cmp.Or(in.MergeMethod, "merge")
	disallowed := map[string]string{"merge": "Merge commits", "squash": "Squash merges", "rebase": "Rebase merges"}[method]
	p := it.Pull
	head := r.PullHead(p)
	switch {
	case disallowed == "":
		return errorAnswer(http.StatusUnprocessableEntity, "Validation Failed", docMerge,
			[]fieldError{{Resource: "PullRequest", Field: "merge_method", Code: "invalid"}})
	case it.State != "open" || p.Blocked:
		return errorAnswer(http.StatusMethodNotAllowed, "Pull Request is not mergeable", docMerge, nil)
	case !slices.Contains(r.MergeMethods, method):
		return errorAnswer(http.StatusMethodNotAllowed, disallowed+" are not allowed on this repository.", docMerge, nil)
	case in.SHA != "" && in.SHA != head:
		return errorAnswer(http.StatusConflict, "Head branch was modified. Review and try the merge again.", docMerge, nil)
	}
	base := r.Commits[r.Branches[p.Base]]
	tree := maps.Clone(base.Tree)
	if hc := r.Commits[head]; hc != nil {
		maps.Copy(tree, hc.Tree)
	}
	parents, message := []string{base.SHA}, cmp.Or(in.CommitTitle, fmt.Sprintf("%s (#%d)", it.Title, it.Number))
	if method == "merge" {
		parents = append(parents, head)
		message = cmp.Or(in.CommitTitle, fmt.Sprintf("Merge pull request #%d from %s/%s", it.Number, owner(r), p.Head))
	}
	if in.CommitMessage != nil {
		message += "\n\n" + *in.CommitMessage
	}
	c := s.NewCommit(r, parents, login, message, tree)
	r.Branches[p.Base] = c.SHA
	p.Merged, p.MergedBy, p.HeadSHA, p.MergeSHA = true, login, head, c.SHA
	when := c.When
	it.State, it.Closed, it.Updated = "closed", &when, c.When
	s.itemEvent(r, it, "closed", login)
	return jsonAnswer(http.StatusOK, mergeJSON{SHA: c.SHA, Merged: true, Message: "Pull Request successfully merged"})
}
