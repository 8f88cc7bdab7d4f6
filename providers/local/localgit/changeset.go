package localgit

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Edit is one file of a ChangeSet: its whole new content, or a delete.
type Edit struct {
	Path    string
	Content []byte
	// ExpectedBlob is the blob sha (or a 7+ digit prefix) the writer read;
	// "" means the file must not exist yet. A delete needs it.
	ExpectedBlob string
	Delete       bool
}

// ChangeSet is several files written as one commit on a branch.
type ChangeSet struct {
	Branch string
	Edits  []Edit
	// ExpectedHead is the branch head (or a 7+ digit prefix) the writer
	// read; "" takes the head as it is.
	ExpectedHead string
	Message      string
	Author       Signature
}

// Committed is what a ChangeSet made.
type Committed struct {
	Commit, Parent plumbing.Hash
	// Blobs are the edits' new blobs, in order; zero for a delete.
	Blobs []plumbing.Hash
	// Unchanged is set when the set changed nothing: no commit was made
	// and Commit is the branch as it was.
	Unchanged bool
}

// CommitFiles commits every edit of s as one commit whose parent is the
// branch head, or nothing: every expected blob (and the expected head) is
// compared before anything is stored in a tree, and the branch moves by
// compare-and-swap from that head, so one stale sha, or a branch that
// moved meanwhile, refuses the whole set and leaves the branch as it was.
func (r *Repo) CommitFiles(s ChangeSet) (Committed, error) {
	if len(s.Edits) == 0 {
		return Committed{}, fmt.Errorf("%w: a change set needs at least one file", ErrInvalid)
	}
	seen := map[string]bool{}
	for _, e := range s.Edits {
		if err := CheckPath(e.Path); err != nil {
			return Committed{}, err
		}
		if seen[e.Path] {
			return Committed{}, fmt.Errorf("%w: %s is in the change set twice", ErrInvalid, e.Path)
		}
		seen[e.Path] = true
		if e.Delete && (e.ExpectedBlob == "" || len(e.Content) > 0) {
			return Committed{}, fmt.Errorf("%w: deleting %s needs its expected_sha and no content", ErrInvalid, e.Path)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	head, ok, err := r.Branch(s.Branch)
	if err != nil {
		return Committed{}, err
	}
	if !ok {
		return Committed{}, fmt.Errorf("%w: there is no branch %q; create it first", ErrNotFound, s.Branch)
	}
	if want := strings.ToLower(s.ExpectedHead); want != "" && !strings.HasPrefix(head.String(), want) {
		return Committed{}, fmt.Errorf("%w: %s is now at %s, not the expected_head_sha %s you read: nothing was written; read it again and decide",
			ErrStale, s.Branch, head, s.ExpectedHead)
	}
	tree, err := r.treeOf(head)
	if err != nil {
		return Committed{}, err
	}
	files, err := r.flatten(tree)
	if err != nil {
		return Committed{}, err
	}
	out := Committed{Parent: head, Blobs: make([]plumbing.Hash, len(s.Edits))}
	// Every guard first, against the head as read: a stale file anywhere
	// in the set refuses it before any object is written.
	for _, e := range s.Edits {
		old, exists := files[e.Path]
		if err := expectBlob(s.Branch, e.Path, e.ExpectedBlob, old.hash, exists); err != nil {
			return Committed{}, fmt.Errorf("%w; the set is refused whole, nothing was written", err)
		}
	}
	for _, e := range s.Edits {
		if e.Delete {
			delete(files, e.Path)
		}
	}
	for i, e := range s.Edits {
		if e.Delete {
			continue
		}
		// Placed against the set's own result, so a file may replace a
		// directory the same set deletes, and the reverse.
		if err := placeable(files, e.Path); err != nil {
			return Committed{}, err
		}
		blob, err := r.blob(e.Content)
		if err != nil {
			return Committed{}, err
		}
		mode := filemode.Regular
		if old, ok := files[e.Path]; ok && old.mode == filemode.Executable {
			mode = old.mode // an update keeps the executable bit
		}
		files[e.Path] = entry{hash: blob, mode: mode}
		out.Blobs[i] = blob
	}
	newTree, err := r.buildTree(files)
	if err != nil {
		return Committed{}, err
	}
	if newTree == tree {
		out.Commit, out.Unchanged = head, true
		return out, nil
	}
	commit, err := r.commit(newTree, []plumbing.Hash{head}, s.Message, s.Author, s.Author)
	if err != nil {
		return Committed{}, err
	}
	if err := r.move(s.Branch, head, commit); err != nil {
		return Committed{}, err
	}
	out.Commit = commit
	return out, nil
}
