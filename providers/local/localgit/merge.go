package localgit

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Merge methods, as forge_merge_pull_request names them.
const (
	MethodMerge  = "merge"
	MethodSquash = "squash"
	MethodRebase = "rebase"
)

// Merging works on whole files: a path changed on both sides since the
// merge base (to different content) is a conflict, even when the changes
// touch different lines. A sandbox forge can be strict where GitHub would
// merge the lines; a conflict makes the pull request unmergeable, and the
// agent resolves it on its branch.

// threeWay merges the flat views ours and theirs against their common
// ancestor; conflicts lists the paths both sides changed differently.
func threeWay(ancestor, ours, theirs map[string]entry) (merged map[string]entry, conflicts []string) {
	merged = map[string]entry{}
	seen := map[string]bool{}
	for _, side := range []map[string]entry{ancestor, ours, theirs} {
		for p := range side {
			if seen[p] {
				continue
			}
			seen[p] = true
			a, aok := ancestor[p]
			o, ook := ours[p]
			t, tok := theirs[p]
			var e entry
			var keep bool
			switch {
			case ook == tok && o == t: // same on both sides (or gone from both)
				e, keep = o, ook
			case ook == aok && o == a: // only theirs changed it
				e, keep = t, tok
			case tok == aok && t == a: // only ours changed it
				e, keep = o, ook
			default:
				conflicts = append(conflicts, p)
				continue
			}
			if keep {
				merged[p] = e
			}
		}
	}
	sort.Strings(conflicts)
	return merged, conflicts
}

// mergeTrees merges head into base and writes the merged tree; a conflict
// is ErrConflict naming the paths.
func (r *Repo) mergeTrees(base, head *object.Commit) (plumbing.Hash, error) {
	ancestorTree := plumbing.ZeroHash // unrelated histories merge against nothing
	if bases, err := base.MergeBase(head); err != nil {
		return plumbing.ZeroHash, err
	} else if len(bases) > 0 {
		ancestorTree = bases[0].TreeHash
	}
	return r.applyTrees(ancestorTree, base.TreeHash, head.TreeHash)
}

// applyTrees applies the change from ancestor to theirs onto ours.
func (r *Repo) applyTrees(ancestor, ours, theirs plumbing.Hash) (plumbing.Hash, error) {
	views := make([]map[string]entry, 3)
	for i, t := range []plumbing.Hash{ancestor, ours, theirs} {
		v, err := r.flatten(t)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		views[i] = v
	}
	merged, conflicts := threeWay(views[0], views[1], views[2])
	if len(conflicts) > 0 {
		return plumbing.ZeroHash, fmt.Errorf("%w: both sides changed %s", ErrConflict, listPaths(conflicts))
	}
	return r.buildTree(merged)
}

func listPaths(paths []string) string {
	const most = 5
	if len(paths) > most {
		return strings.Join(paths[:most], ", ") + fmt.Sprintf(" and %d more", len(paths)-most)
	}
	return strings.Join(paths, ", ")
}

// Mergeable reports whether head merges into base without a conflict.
func (r *Repo) Mergeable(base, head plumbing.Hash) (bool, error) {
	b, err := r.git.CommitObject(base)
	if err != nil {
		return false, err
	}
	h, err := r.git.CommitObject(head)
	if err != nil {
		return false, err
	}
	_, err = r.mergeTrees(b, h)
	if errors.Is(err, ErrConflict) {
		return false, nil
	}
	return err == nil, err
}

// MergeRequest merges one branch into another.
type MergeRequest struct {
	Base, Head string
	// ExpectedHead is the head commit the caller reviewed (a sha or a 7+
	// digit prefix); a head that moved since refuses the merge.
	ExpectedHead string
	Method       string
	// Message is the merge or squash commit's message; a rebase keeps each
	// commit's own.
	Message   string
	Committer Signature
}

// Merged is what a merge made.
type Merged struct {
	// Commit is where the base branch now points; Head is the head commit
	// that was merged.
	Commit, Head plumbing.Hash
}

// Merge merges m.Head into m.Base by m.Method and moves the base branch,
// or writes nothing: when the head is not m.ExpectedHead, when the head is
// already in the base, on a conflict, and when the base moves meanwhile.
func (r *Repo) Merge(m MergeRequest) (Merged, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	baseTip, head, err := r.mergeTips(m)
	if err != nil {
		return Merged{}, err
	}
	base, err := r.git.CommitObject(baseTip)
	if err != nil {
		return Merged{}, err
	}
	var next plumbing.Hash
	switch m.Method {
	case MethodMerge, MethodSquash:
		tree, err := r.mergeTrees(base, head)
		if err != nil {
			return Merged{}, err
		}
		if tree == base.TreeHash {
			return Merged{}, nothingToMerge(m)
		}
		parents := []plumbing.Hash{baseTip, head.Hash}
		if m.Method == MethodSquash {
			parents = parents[:1]
		}
		if next, err = r.commit(tree, parents, m.Message, m.Committer, m.Committer); err != nil {
			return Merged{}, err
		}
	case MethodRebase:
		if next, err = r.rebase(base, head, m.Committer); err != nil {
			return Merged{}, err
		}
		if tree, err := r.treeOf(next); err != nil || tree == base.TreeHash {
			if err == nil {
				err = nothingToMerge(m)
			}
			return Merged{}, err
		}
	default:
		return Merged{}, fmt.Errorf("%w: merge method %q is not merge, squash or rebase", ErrInvalid, m.Method)
	}
	if err := r.move(m.Base, baseTip, next); err != nil {
		return Merged{}, err
	}
	return Merged{Commit: next, Head: head.Hash}, nil
}

// nothingToMerge is a head whose changes the base already has (merged by
// a squash or a rebase before, or made there too).
func nothingToMerge(m MergeRequest) error {
	return fmt.Errorf("%w: %s has nothing %s does not already have: nothing to merge", ErrConflict, m.Head, m.Base)
}

// mergeTips reads both branches and checks the head is the one expected
// and not merged already.
func (r *Repo) mergeTips(m MergeRequest) (plumbing.Hash, *object.Commit, error) {
	baseTip, ok, err := r.Branch(m.Base)
	if err != nil || !ok {
		if err == nil {
			err = fmt.Errorf("%w: the base branch %q no longer exists", ErrNotFound, m.Base)
		}
		return plumbing.ZeroHash, nil, err
	}
	headTip, ok, err := r.Branch(m.Head)
	if err != nil || !ok {
		if err == nil {
			err = fmt.Errorf("%w: the head branch %q no longer exists", ErrStale, m.Head)
		}
		return plumbing.ZeroHash, nil, err
	}
	if want := strings.ToLower(m.ExpectedHead); want == "" || !strings.HasPrefix(headTip.String(), want) {
		return plumbing.ZeroHash, nil, fmt.Errorf("%w: the head of %s is now %s, not the expected_head_sha %s: read the pull request again and review what changed",
			ErrStale, m.Head, headTip, m.ExpectedHead)
	}
	head, err := r.git.CommitObject(headTip)
	if err != nil {
		return plumbing.ZeroHash, nil, err
	}
	base, err := r.git.CommitObject(baseTip)
	if err != nil {
		return plumbing.ZeroHash, nil, err
	}
	if in, err := head.IsAncestor(base); err != nil || in {
		if err == nil {
			err = fmt.Errorf("%w: %s (%s) is already in %s: nothing to merge", ErrConflict, m.Head, headTip, m.Base)
		}
		return plumbing.ZeroHash, nil, err
	}
	return baseTip, head, nil
}

// rebase replays the head's own commits (those since the merge base, which
// must be a line without merges) onto base, keeping each author and
// message, and returns the last.
func (r *Repo) rebase(base, head *object.Commit, committer Signature) (plumbing.Hash, error) {
	stop := plumbing.ZeroHash
	if bases, err := base.MergeBase(head); err != nil {
		return plumbing.ZeroHash, err
	} else if len(bases) > 0 {
		stop = bases[0].Hash
	}
	var line []*object.Commit
	for c := head; c.Hash != stop; {
		if c.NumParents() > 1 {
			return plumbing.ZeroHash, fmt.Errorf("%w: %s is a merge commit; a rebase replays a line of commits, so merge or squash instead", ErrConflict, c.Hash)
		}
		line = append(line, c)
		if c.NumParents() == 0 {
			break
		}
		parent, err := c.Parent(0)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		c = parent
	}
	slices.Reverse(line)
	onto := base
	for _, c := range line {
		parentTree := plumbing.ZeroHash
		if c.NumParents() > 0 {
			p, err := c.Parent(0)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			parentTree = p.TreeHash
		}
		tree, err := r.applyTrees(parentTree, onto.TreeHash, c.TreeHash)
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("replaying %s: %w", c.Hash.String()[:7], err)
		}
		author := Signature{Name: c.Author.Name, Email: c.Author.Email, When: c.Author.When}
		h, err := r.commit(tree, []plumbing.Hash{onto.Hash}, c.Message, author, committer)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if onto, err = r.git.CommitObject(h); err != nil {
			return plumbing.ZeroHash, err
		}
	}
	return onto.Hash, nil
}
