package githubtest

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// A repository's history over the git model: the commit list
// (GET commits) and the three-dot compare (GET compare/{base}...{head}),
// in the shapes of GitHub's "commit" and "commit-comparison".

type innerCommitJSON struct {
	URL          string           `json:"url"`
	Author       commitAuthorJSON `json:"author"`
	Committer    commitAuthorJSON `json:"committer"`
	Message      string           `json:"message"`
	CommentCount int              `json:"comment_count"`
	Tree         commitRefJSON    `json:"tree"`
	Verification verificationJSON `json:"verification"`
}

// repoCommitJSON is one commit of a list or a compare. The GitHub
// accounts of its author and committer are null: the fake's commits are
// by git identities no account claims.
type repoCommitJSON struct {
	URL         string          `json:"url"`
	SHA         string          `json:"sha"`
	NodeID      string          `json:"node_id"`
	HTMLURL     string          `json:"html_url"`
	CommentsURL string          `json:"comments_url"`
	Commit      innerCommitJSON `json:"commit"`
	Author      *struct{}       `json:"author"`
	Committer   *struct{}       `json:"committer"`
	Parents     []commitRefJSON `json:"parents"`
}

func (s *Server) repoCommitJSON(r *repo, c *commit) repoCommitJSON {
	g := s.gitCommitJSON(r, c)
	return repoCommitJSON{
		URL: s.api("/repos/%s/commits/%s", r.Path, c.SHA), SHA: c.SHA, NodeID: g.NodeID, HTMLURL: g.HTMLURL,
		CommentsURL: s.api("/repos/%s/commits/%s/comments", r.Path, c.SHA),
		Commit: innerCommitJSON{
			URL: g.URL, Author: g.Author, Committer: g.Committer, Message: c.Message, Tree: g.Tree, Verification: g.Verification,
		},
		Parents: g.Parents,
	}
}

// listCommits is GET /repos/o/n/commits: the history of sha (a branch,
// tag or commit; the default branch when left out), only the commits
// changing path and those at or after since when given, newest first,
// paged.
func (s *Server) listCommits(r *repo, path string, q url.Values) answer {
	c := r.CommitAt(first(q["sha"], r.DefaultBranch))
	if c == nil {
		return notFound()
	}
	var since time.Time
	if v := first(q["since"], ""); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return errorAnswer(http.StatusBadRequest, "Invalid time: "+v, "https://docs.github.com/rest/commits/commits#list-commits", nil)
		}
		since = t
	}
	only := strings.Trim(first(q["path"], ""), "/")
	out := r.Since(r.Log(c), since, only)
	return page(s, path, q, out, func(c *commit) any { return s.repoCommitJSON(r, c) })
}

// compare is GET /repos/o/n/compare/{base}...{head}: the commits on head
// not on base (oldest first, at most 250), the count the other way, and
// the files head changes from the merge base (at most 300), each with
// its hunks as patch. Unknown refs, or none in common, are 404.
func (s *Server) compare(r *repo, basehead string) answer {
	baseRef, headRef, ok := strings.Cut(basehead, "...")
	if !ok {
		return notFound()
	}
	base, head := r.CommitAt(baseRef), r.CommitAt(headRef)
	if base == nil || head == nil {
		return notFound()
	}
	fromBase := map[string]bool{}
	for _, c := range r.Log(base) {
		fromBase[c.SHA] = true
	}
	var ahead []*commit
	var mergeBase *commit
	fromHead := map[string]bool{}
	for _, c := range r.Log(head) {
		fromHead[c.SHA] = true
		switch {
		case !fromBase[c.SHA]:
			ahead = append(ahead, c)
		case mergeBase == nil:
			mergeBase = c
		}
	}
	if mergeBase == nil {
		return errorAnswer(http.StatusNotFound, "No common ancestor between "+baseRef+" and "+headRef+".", docCommits+"#compare-two-commits", nil)
	}
	behind := 0
	for sha := range fromBase {
		if !fromHead[sha] {
			behind++
		}
	}
	slices.Reverse(ahead)
	status := map[[2]bool]string{{false, false}: "identical", {true, false}: "ahead", {false, true}: "behind", {true, true}: "diverged"}[[2]bool{len(ahead) > 0, behind > 0}]
	commits := []repoCommitJSON{}
	for _, c := range ahead[:min(len(ahead), 250)] {
		commits = append(commits, s.repoCommitJSON(r, c))
	}
	diffs := forgemodel.DiffFiles(forgemodel.Contents(mergeBase.Tree), forgemodel.Contents(head.Tree))
	files := []fileJSON{}
	for _, d := range diffs[:min(len(diffs), 300)] {
		files = append(files, s.diffEntryJSON(r, head.SHA, d))
	}
	return jsonAnswer(http.StatusOK, map[string]any{
		"url":           s.api("/repos/%s/compare/%s", r.Path, basehead),
		"html_url":      s.web("/%s/compare/%s", r.Path, basehead),
		"permalink_url": s.web("/%s/compare/%s...%s", r.Path, base.SHA[:7], head.SHA[:7]),
		"diff_url":      s.web("/%s/compare/%s.diff", r.Path, basehead),
		"patch_url":     s.web("/%s/compare/%s.patch", r.Path, basehead),
		"base_commit":   s.repoCommitJSON(r, base), "merge_base_commit": s.repoCommitJSON(r, mergeBase),
		"status": status, "ahead_by": len(ahead), "behind_by": behind, "total_commits": len(ahead),
		"commits": commits, "files": files,
	})
}

// diffEntryJSON is one file of a compare, at head: its patch is the
// hunks alone, without the newline after the last line, as GitHub sends.
func (s *Server) diffEntryJSON(r *repo, head string, d forgemodel.FileDiff) fileJSON {
	status := "modified"
	switch {
	case d.Added:
		status = "added"
	case d.Deleted:
		status = "removed"
	}
	p := strings.TrimSuffix(d.Patch, "\n")
	add, del := lineCounts(Change{Path: d.Path, Patch: p})
	return fileJSON{
		SHA: forgemodel.BlobSHA(p), Filename: d.Path, Status: status, Additions: add, Deletions: del, Changes: add + del,
		BlobURL:     s.web("/%s/blob/%s/%s", r.Path, head, d.Path),
		RawURL:      s.web("/%s/raw/%s/%s", r.Path, head, d.Path),
		ContentsURL: s.api("/repos/%s/contents/%s?ref=%s", r.Path, d.Path, head),
		Patch:       p,
	}
}
