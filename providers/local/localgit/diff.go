package localgit

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	fdiff "github.com/go-git/go-git/v5/plumbing/format/diff"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/forgetools/forgetools/providers/internal/unidiff"
)

// MaxDiffBlob is the largest file version a diff compares line by line;
// a file with a larger side is listed as too large, to be read whole with
// ReadFile at both commits (git's own diff would crawl over it too).
const MaxDiffBlob = 1 << 20

// walkCap bounds how many commits a comparison walks on each side.
const walkCap = 20_000

// Diff is what head changes since it left base: the files changed from
// the merge base of the two (git's base...head) to head.
type Diff struct {
	// Base is the merge base the diff starts from (base itself when the
	// histories are unrelated: the two trees are then compared directly).
	Base, Head plumbing.Hash
	Files      []unidiff.File
}

// Diff diffs head against its merge base with base, with renames found as
// git finds them and three lines of context.
func (r *Repo) Diff(ctx context.Context, base, head plumbing.Hash) (Diff, error) {
	b, err := r.git.CommitObject(base)
	if err != nil {
		return Diff{}, err
	}
	h, err := r.git.CommitObject(head)
	if err != nil {
		return Diff{}, err
	}
	from := b
	if bases, err := b.MergeBase(h); err != nil {
		return Diff{}, err
	} else if len(bases) > 0 {
		from = bases[0]
	}
	fromTree, err := from.Tree()
	if err != nil {
		return Diff{}, err
	}
	toTree, err := h.Tree()
	if err != nil {
		return Diff{}, err
	}
	changes, err := object.DiffTreeWithOptions(ctx, fromTree, toTree, object.DefaultDiffTreeOptions)
	if err != nil {
		return Diff{}, err
	}
	out := Diff{Base: from.Hash, Head: h.Hash}
	for _, c := range changes {
		f, err := r.diffFile(ctx, c)
		if err != nil {
			return Diff{}, err
		}
		out.Files = append(out.Files, f)
	}
	slices.SortFunc(out.Files, func(a, b unidiff.File) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// diffFile is one change as a file of the diff: its paths and status from
// the trees, its hunks from go-git's unified encoding of it.
func (r *Repo) diffFile(ctx context.Context, c *object.Change) (unidiff.File, error) {
	f := unidiff.File{Path: c.To.Name, Status: unidiff.Modified}
	switch {
	case c.From.Name == "":
		f.Status = unidiff.Added
	case c.To.Name == "":
		f.Path, f.Status = c.From.Name, unidiff.Deleted
	case c.From.Name != c.To.Name:
		f.OldPath, f.Status = c.From.Name, unidiff.Renamed
	}
	for _, e := range []object.ChangeEntry{c.From, c.To} {
		if e.Name == "" || !e.TreeEntry.Mode.IsFile() {
			continue
		}
		size, err := r.git.Storer.EncodedObjectSize(e.TreeEntry.Hash)
		if err != nil {
			return f, err
		}
		if size > MaxDiffBlob {
			f.TooLarge = true
			return f, nil
		}
	}
	p, err := c.PatchContext(ctx)
	if err != nil {
		return f, err
	}
	fps := p.FilePatches()
	if len(fps) != 1 {
		return f, nil // no content change (a mode change)
	}
	if fps[0].IsBinary() {
		f.Binary = true
		return f, nil
	}
	var b strings.Builder
	if err := fdiff.NewUnifiedEncoder(&b, fdiff.DefaultContextLines).Encode(onePatch{fps[0]}); err != nil {
		return f, err
	}
	text := b.String()
	if i := strings.Index(text, "\n@@ "); i >= 0 {
		text = text[i+1:]
	} else {
		return f, nil // a rename with no edit
	}
	if f.Hunks, f.Additions, f.Deletions, err = unidiff.ParseHunks(text); err != nil {
		return f, fmt.Errorf("diff of %s: %w", f.Path, err)
	}
	return f, nil
}

// onePatch is one file's patch as go-git's encoder takes a patch.
type onePatch struct{ fp fdiff.FilePatch }

func (p onePatch) FilePatches() []fdiff.FilePatch { return []fdiff.FilePatch{p.fp} }
func (p onePatch) Message() string                { return "" }

// Comparison is how head and base have diverged: the commits on head not
// on base (oldest first), and how many of base's are not on head.
type Comparison struct {
	Ahead  []Commit
	Behind int
}

// Compare lists what head has that base has not, and counts the reverse.
func (r *Repo) Compare(base, head plumbing.Hash) (Comparison, error) {
	onBase, _, err := r.ancestors(base)
	if err != nil {
		return Comparison{}, err
	}
	onHead, order, err := r.ancestors(head)
	if err != nil {
		return Comparison{}, err
	}
	var out Comparison
	// The walk meets a commit before its parents along each line of
	// history: backwards, that is oldest first.
	for _, c := range slices.Backward(order) {
		if !onBase[c.Hash] {
			out.Ahead = append(out.Ahead, Commit{Hash: c.Hash, Title: title(c.Message), Author: c.Author.Name, When: c.Author.When})
		}
	}
	for h := range onBase {
		if !onHead[h] {
			out.Behind++
		}
	}
	return out, nil
}

// ancestors is every commit reachable from tip, tip included, as a set and
// in the order a depth-first walk from tip meets them.
func (r *Repo) ancestors(tip plumbing.Hash) (map[plumbing.Hash]bool, []*object.Commit, error) {
	c, err := r.git.CommitObject(tip)
	if err != nil {
		return nil, nil, err
	}
	seen := map[plumbing.Hash]bool{}
	var order []*object.Commit
	err = object.NewCommitPreorderIter(c, nil, nil).ForEach(func(c *object.Commit) error {
		if len(order) == walkCap {
			return fmt.Errorf("%w: the history is over %d commits, too long to compare here", ErrInvalid, walkCap)
		}
		seen[c.Hash] = true
		order = append(order, c)
		return nil
	})
	return seen, order, err
}

// title is a commit message's first line.
func title(msg string) string {
	first, _, _ := strings.Cut(strings.TrimLeft(msg, "\n"), "\n")
	return strings.TrimSpace(first)
}
