package githubtest

import (
	"net/url"
	"strings"

	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/internal/unidiff"
)

// Change is one file a pull request changes, with its unified diff patch as
// GitHub shows it ("@@ -1,3 +1,4 @@\n line\n+added\n ..."). Inline review
// comments may only name lines the patches show.
type Change = forgemodel.Change

type fileJSON struct {
	SHA         string `json:"sha"`
	Filename    string `json:"filename"`
	Status      string `json:"status"`
	Additions   int    `json:"additions"`
	Deletions   int    `json:"deletions"`
	Changes     int    `json:"changes"`
	BlobURL     string `json:"blob_url"`
	RawURL      string `json:"raw_url"`
	ContentsURL string `json:"contents_url"`
	Patch       string `json:"patch,omitempty"` // none for a binary or too large file
}

// files is GET /repos/o/n/pulls/N/files, paged: the diff from the
// history (pullfiles.go), or the patches seeded for the pull request.
func (s *Server) files(r *repo, it *item, path string, q url.Values) answer {
	if it.Pull.Changes == nil {
		head := r.PullHead(it.Pull)
		return page(s, path, q, r.PullDiff(it.Pull), func(d forgemodel.FileDiff) any { return s.diffEntryJSON(r, head, d) })
	}
	return page(s, path, q, it.Pull.Changes, func(f Change) any {
		head := r.PullHead(it.Pull)
		add, del := lineCounts(f)
		return fileJSON{
			SHA: forgemodel.SHA(f.Patch), Filename: f.Path, Status: "modified",
			Additions: add, Deletions: del, Changes: add + del,
			BlobURL:     s.web("/%s/blob/%s/%s", r.Path, head, f.Path),
			RawURL:      s.web("/%s/raw/%s/%s", r.Path, head, f.Path),
			ContentsURL: s.api("/repos/%s/contents/%s?ref=%s", r.Path, f.Path, head),
			Patch:       f.Patch,
		}
	})
}

// counts are the lines the change's patch adds and deletes.
func lineCounts(c Change) (add, del int) {
	return strings.Count("\n"+c.Patch, "\n+"), strings.Count("\n"+c.Patch, "\n-")
}

// patchOf is the pull request's patch of path ("" when it changes none).
func patchOf(r *repo, p *pull, path string) string {
	for _, f := range changesOf(r, p) {
		if f.Path == path {
			return f.Patch
		}
	}
	return ""
}

// unresolved is GitHub's refusal of a review whose inline comment names a
// file the pull request does not change, or a line its diff does not
// show: 422 with one bare string in errors[], and no word on which
// comment. "" when every comment resolves.
func unresolved(r *repo, p *pull, path string, line int, side string) string {
	for _, f := range changesOf(r, p) {
		if f.Path == path {
			if unidiff.AnchorsOf(f.Patch).Shows(side, line) {
				return ""
			}
			return "Line could not be resolved"
		}
	}
	return "Path could not be resolved"
}
