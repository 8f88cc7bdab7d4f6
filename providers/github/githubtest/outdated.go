package githubtest

// Outdated inline comments, as GitHub marks them: a review records the
// head it saw; once a push changes a commented line, the comment (and
// the thread it opens) is outdated, its line null and its original line
// where it was written; while the line is untouched the comment follows
// it (forgemodel's CommentAt).

// placed is where an inline comment stands now.
type placed struct {
	line     any // the line at the head, nil once outdated
	original int64
	outdated bool
	commit   string // the last commit the comment applies to
}

func placeOf(r *repo, it *item, c inline) placed {
	original, _ := c.Line()
	now, outdated := r.CommentAt(it.Pull, c.review, c.ReviewComment)
	commit := r.PullHead(it.Pull)
	if c.review.Commit != "" && outdated {
		commit = c.review.Commit
	}
	if outdated {
		return placed{original: original, outdated: true, commit: commit}
	}
	return placed{line: now, original: original, commit: commit}
}
