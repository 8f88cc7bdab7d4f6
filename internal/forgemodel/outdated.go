package forgemodel

import (
	"strings"

	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// Outdated diff comments: a forge follows a comment on a line of a pull
// request's diff as the head moves on. While the line stays as it was
// the comment moves with it (lines added above it shift its number);
// once a push changes or removes the line the comment is outdated, and
// stays where it was written.

// TrackLine follows line (1-based) of path from commit from to commit
// to: its number at to, and false when a change between them touched it
// (changed, removed, or the file gone), the comment then outdated.
func (r *Repo) TrackLine(from, to, path string, line int64) (int64, bool) {
	if from == to {
		return line, true
	}
	a, b := r.Commits[from], r.Commits[to]
	if a == nil || b == nil {
		return line, false
	}
	before, had := a.Tree[path]
	after, has := b.Tree[path]
	if !had || !has {
		return line, false
	}
	old, nu := int64(0), int64(0)
	for _, d := range diff.Do(string(before.Content), string(after.Content)) {
		n := lineCount(d.Text)
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			if line > old && line <= old+n {
				return nu + line - old, true
			}
			old, nu = old+n, nu+n
		case diffmatchpatch.DiffDelete:
			if line > old && line <= old+n {
				return line, false
			}
			old += n
		case diffmatchpatch.DiffInsert:
			nu += n
		}
	}
	return line, false
}

// lineCount is how many lines a run of diff.Do's text holds.
func lineCount(text string) int64 {
	n := int64(strings.Count(text, "\n"))
	if text != "" && !strings.HasSuffix(text, "\n") {
		n++
	}
	return n
}

// CommentAt is where a review's comment on a pull request stands now:
// its line at the current head (the new side) or merge base (the old
// side), and whether a push since the review saw the pull request has
// made it outdated. A review that recorded no commit is never outdated.
func (r *Repo) CommentAt(p *Pull, v *Review, c *ReviewComment) (int64, bool) {
	line, side := c.Line()
	head := r.PullHead(p)
	if v.Commit == "" || v.Commit == head {
		return line, false
	}
	from, to := v.Commit, head
	if side == "LEFT" {
		base := r.Branches[p.Base]
		from, to = r.MergeBase(base, from), r.MergeBase(base, to)
	}
	now, ok := r.TrackLine(from, to, c.Path, line)
	return now, !ok
}
