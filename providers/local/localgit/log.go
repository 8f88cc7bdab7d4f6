package localgit

import (
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Commit is one commit of a history or a comparison.
type Commit struct {
	Hash   plumbing.Hash
	Title  string
	Author string
	When   time.Time
}

// Log is the history reachable from from, newest first by commit time:
// the commits after the first skip that change path (a file, or anything
// under a directory; "" = any) and were committed at or after since (zero
// = any), at most limit of them, and whether more follow.
func (r *Repo) Log(from plumbing.Hash, path string, since time.Time, skip, limit int) ([]Commit, bool, error) {
	opts := &git.LogOptions{From: from, Order: git.LogOrderCommitterTime}
	if path != "" {
		opts.PathFilter = func(p string) bool { return p == path || strings.HasPrefix(p, path+"/") }
	}
	if !since.IsZero() {
		opts.Since = &since
	}
	iter, err := r.git.Log(opts)
	if err != nil {
		return nil, false, err
	}
	defer iter.Close()
	var out []Commit
	more := false
	err = iter.ForEach(func(c *object.Commit) error {
		if skip > 0 {
			skip--
			return nil
		}
		if len(out) == limit {
			more = true
			return storer.ErrStop
		}
		title, _, _ := strings.Cut(strings.TrimLeft(c.Message, "\n"), "\n")
		out = append(out, Commit{Hash: c.Hash, Title: strings.TrimSpace(title), Author: c.Author.Name, When: c.Author.When})
		return nil
	})
	return out, more, err
}
