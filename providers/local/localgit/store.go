// Package localgit keeps the local forge's repositories: each one a bare git
// repository under one directory, read and written through go-git (no git
// binary), so a person can `git clone` what an agent did and push to it.
//
// A repository is created on first use with one commit on its default
// branch. Writes (a new branch, a file commit, a merge) build objects first
// and then move one ref with a compare-and-swap, so a ref that moved
// meanwhile (another writer, a person's push) fails the write with ErrStale
// and leaves the repository as it was. Errors wrap ErrNotFound, ErrExists,
// ErrStale, ErrConflict or ErrInvalid with a sentence a model can act on.
package localgit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage"
)

// The kinds of failure callers map to their own error codes.
var (
	ErrNotFound = errors.New("not found")
	ErrExists   = errors.New("already exists")
	ErrStale    = errors.New("changed since it was read")
	ErrConflict = errors.New("conflict")
	ErrInvalid  = errors.New("invalid")
)

// Signature is who made a commit, and when.
type Signature struct {
	Name, Email string
	When        time.Time
}

func (s Signature) git() object.Signature {
	return object.Signature{Name: s.Name, Email: s.Email, When: s.When}
}

// Store is a directory of bare repositories: <dir>/<owner>/<name>.git.
type Store struct {
	dir   string
	locks sync.Map // repository name -> *sync.Mutex
}

// New returns the store in dir, creating the directory.
func New(dir string) (*Store, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("git directory: %w", err)
	}
	return &Store{dir: abs}, nil
}

// Dir is the directory the repositories live in.
func (s *Store) Dir() string { return s.dir }

// Path is where the bare repository of name ("owner/name") lives; a person
// clones it from there. Names are taken as given, case included: the forge
// passes the spelling each repository was created with.
func (s *Store) Path(name string) string {
	return filepath.Join(s.dir, filepath.FromSlash(name)+".git")
}

// Repo is one open repository.
type Repo struct {
	git *git.Repository
	// mu serialises this process's writers to the repository; writers in
	// other processes are caught by the ref compare-and-swap.
	mu *sync.Mutex
}

// Open opens name's repository, creating it first when it does not exist:
// a bare repository whose HEAD names branch, with one commit there that
// adds a README. Creation happens in a sibling directory renamed into
// place, so two processes creating one repository at once both end up with
// the same one.
func (s *Store) Open(name, branch string, by Signature) (*Repo, error) {
	path := s.Path(name)
	if !strings.HasPrefix(path, s.dir+string(filepath.Separator)) {
		return nil, fmt.Errorf("%w: repository %q is outside the git directory", ErrInvalid, name)
	}
	mu, _ := s.locks.LoadOrStore(name, &sync.Mutex{})
	r, err := git.PlainOpen(path)
	if errors.Is(err, git.ErrRepositoryNotExists) {
		r, err = s.create(path, name, branch, by)
	}
	if err != nil {
		return nil, fmt.Errorf("open repository %s: %w", name, err)
	}
	return &Repo{git: r, mu: mu.(*sync.Mutex)}, nil
}

func (s *Store) create(path, name, branch string, by Signature) (*git.Repository, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(path), ".new-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp) // gone after a successful rename
	r, err := git.PlainInitWithOptions(tmp, &git.PlainInitOptions{
		Bare: true, InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName(branch)},
	})
	if err != nil {
		return nil, err
	}
	repo := &Repo{git: r, mu: &sync.Mutex{}}
	readme, err := repo.blob([]byte("# " + name + "\n\nA repository of the forgetools local forge.\n"))
	if err != nil {
		return nil, err
	}
	tree, err := repo.buildTree(map[string]entry{"README.md": {hash: readme, mode: filemode.Regular}})
	if err != nil {
		return nil, err
	}
	commit, err := repo.commit(tree, nil, "Initial commit", by, by)
	if err != nil {
		return nil, err
	}
	if err := r.Storer.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName(branch), commit)); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, path); err != nil {
		// Someone else created it first; theirs is the repository.
		if r, oerr := git.PlainOpen(path); oerr == nil {
			return r, nil
		}
		return nil, err
	}
	return git.PlainOpen(path)
}

// DefaultBranch is the branch HEAD names.
func (r *Repo) DefaultBranch() (string, error) {
	head, err := r.git.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return "", err
	}
	return head.Target().Short(), nil
}

// SetDefaultBranch points HEAD at branch, creating the branch at the
// current HEAD commit when it does not exist (a configured default branch
// that differs from the one the repository was created with).
func (r *Repo) SetDefaultBranch(branch string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok, err := r.Branch(branch); err != nil || !ok {
		if err != nil {
			return err
		}
		head, err := r.git.Head()
		if err != nil {
			return err
		}
		if err := r.git.Storer.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName(branch), head.Hash())); err != nil {
			return err
		}
	}
	return r.git.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.NewBranchReferenceName(branch)))
}

// Branch is the commit branch points at; ok is false when there is no such
// branch.
func (r *Repo) Branch(name string) (plumbing.Hash, bool, error) {
	ref, err := r.git.Storer.Reference(plumbing.NewBranchReferenceName(name))
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return plumbing.ZeroHash, false, nil
	}
	if err != nil {
		return plumbing.ZeroHash, false, err
	}
	return ref.Hash(), true, nil
}

// hexRef is what Resolve treats as a commit sha (or a prefix of one).
func hexRef(ref string) bool {
	if len(ref) < 7 || len(ref) > 64 {
		return false
	}
	return IsHex(ref)
}

// IsHex reports whether s is all hex digits (either case): what git may
// read as an object id or an abbreviation of one.
func IsHex(s string) bool {
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return s != ""
}

// refRules are git's rules for finding a ref by a short name
// (gitrevisions(7)), in its order: HEAD and full names (refs/...) first,
// then refs/<name>, refs/tags/<name>, refs/heads/<name>,
// refs/remotes/<name>. So a tag shadows a branch of its name, as in git.
var refRules = []string{"%s", "refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s"}

// Resolve finds the commit ref names, by git's precedence: a full sha is
// that object, whatever a ref may be called (git warns such a ref is
// ambiguous and takes the object); then a ref by refRules; then an
// unambiguous sha prefix of 7 hex digits or more. Nothing else (no
// HEAD~2, no ranges): a ref comes from a model.
func (r *Repo) Resolve(ref string) (plumbing.Hash, error) {
	notFound := fmt.Errorf("%w: %q is not a branch, tag or commit of this repository", ErrNotFound, ref)
	if len(ref) == 40 && IsHex(ref) {
		h := plumbing.NewHash(strings.ToLower(ref))
		if _, err := r.git.Storer.EncodedObject(plumbing.AnyObject, h); err != nil {
			return plumbing.ZeroHash, notFound
		}
		return r.peel(ref, h)
	}
	if safeRefName(ref) {
		for _, rule := range refRules {
			name := plumbing.ReferenceName(fmt.Sprintf(rule, ref))
			if rule == "%s" && ref != "HEAD" && !strings.HasPrefix(ref, "refs/") {
				continue // of $GIT_DIR/<name>, only HEAD and refs/ name refs here
			}
			got, err := r.git.Reference(name, true)
			if err == nil {
				return r.peel(ref, got.Hash())
			}
			if !errors.Is(err, plumbing.ErrReferenceNotFound) {
				return plumbing.ZeroHash, err
			}
		}
	}
	if hexRef(ref) {
		if h, err := r.git.ResolveRevision(plumbing.Revision(strings.ToLower(ref))); err == nil {
			return r.peel(ref, *h)
		}
	}
	return plumbing.ZeroHash, notFound
}

// peel is the commit h names: h itself, or what an annotated tag points
// at.
func (r *Repo) peel(ref string, h plumbing.Hash) (plumbing.Hash, error) {
	if t, err := r.git.TagObject(h); err == nil {
		c, err := t.Commit()
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("%w: tag %q does not point at a commit", ErrInvalid, ref)
		}
		return c.Hash, nil
	}
	if _, err := r.git.CommitObject(h); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("%w: %q names no commit (%s is not one)", ErrInvalid, ref, h)
	}
	return h, nil
}

// safeRefName holds a looked-up name to what a ref file may be called:
// no component that is empty, ".", ".." or hidden, no backslash or
// control character, so no lookup reads a file outside refs/.
func safeRefName(ref string) bool {
	if ref == "" || strings.ContainsAny(ref, "\\\x00") {
		return false
	}
	for _, part := range strings.Split(ref, "/") {
		if part == "" || strings.HasPrefix(part, ".") {
			return false
		}
		for _, c := range part {
			if c < 0x20 || c == 0x7f {
				return false
			}
		}
	}
	return true
}

// CreateBranch points a new branch at commit.
func (r *Repo) CreateBranch(name string, at plumbing.Hash) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if h, ok, err := r.Branch(name); err != nil || ok {
		if err != nil {
			return err
		}
		return fmt.Errorf("%w: branch %q exists, at %s", ErrExists, name, h)
	}
	if _, err := r.git.Storer.Reference(plumbing.NewTagReferenceName(name)); err == nil {
		return fmt.Errorf("%w: %q is a tag's name, and git resolves the tag before a branch of that name: choose another", ErrInvalid, name)
	}
	return r.git.Storer.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName(name), at))
}

// move sets branch to next if it still points at was: the one place a
// write becomes visible.
func (r *Repo) move(branch string, was, next plumbing.Hash) error {
	name := plumbing.NewBranchReferenceName(branch)
	err := r.git.Storer.CheckAndSetReference(plumbing.NewHashReference(name, next), plumbing.NewHashReference(name, was))
	if errors.Is(err, storage.ErrReferenceHasChanged) {
		return fmt.Errorf("%w: branch %q moved while this write was made; read it again", ErrStale, branch)
	}
	return err
}
