package githubtest

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// What the fake holds. Issues and pull requests of a repository share one
// number sequence, as on GitHub: a pull request is an issue with a pull
// part, which is why the issues endpoint lists both. Branches and tags point
// at commits of a small git model (git.go); Actions workflows and runs are
// in actions.go.

type repo struct {
	id            int64
	owner, name   string
	defaultBranch string
	description   string
	visibility    string // public, private or internal
	archived      bool
	branches      map[string]string // name -> commit sha
	tags          map[string]string // name -> commit sha
	commits       map[string]*commit
	items         []*item  // items[n-1] is number n
	milestones    []string // milestones[n-1] is number n's title
	// permissions is each login's role (admin, maintain, write, triage,
	// read); a login not listed has write.
	permissions map[string]string
	// mergeMethods are the merge methods the repository allows.
	mergeMethods []string
	workflows    []*workflow
	runs         []*run
	// changes are what each branch changes against the default branch, as
	// a pull request from it lists them (pulls/N/files).
	changes map[string][]Change
	hooks   []*hook
}

func (r *repo) fullName() string { return r.owner + "/" + r.name }

type item struct {
	id          int64
	number      int
	title, body string
	state       string // open or closed
	stateReason string // completed, not_planned, reopened or ""
	labels      []string
	assignees   []string
	milestone   int // 0 = none
	author      string
	created     time.Time
	updated     time.Time
	closed      time.Time // zero while open
	comments    []*comment
	pull        *pull    // nil for an issue
	moved       *movedTo // set once transferred: the number answers 301
}

type pull struct {
	id   int64
	head string
	base string
	// headSHA is the head commit once merged, or when the head is not a
	// branch of the repository; otherwise the head branch says.
	headSHA     string
	draft       bool
	merged      bool
	mergedBy    string // who merged: the merging credential's login, or the owner (Merge)
	mergeSHA    string
	unmergeable bool // conflicts: GitHub reports mergeable false
	reviews     []*review
	inline      []*reviewComment
	checks      []*checkRun
	files       []Change
}

type comment struct {
	id      int64
	author  string
	body    string
	created time.Time
}

type review struct {
	id      int64
	author  string
	body    string
	state   string // APPROVED, CHANGES_REQUESTED, COMMENTED, PENDING
	created time.Time
}

type reviewComment struct {
	id       int64
	reviewID int64
	author   string
	path     string
	line     int
	side     string
	body     string
	created  time.Time
}

// Issue is an issue to seed a repository with.
type Issue struct {
	Title, Body string
	// Author is the login that opened it; "" = octocat.
	Author    string
	Labels    []string
	Assignees []string
	// State is open (the default) or closed.
	State string
}

// Pull is a pull request to seed a repository with.
type Pull struct {
	Title, Body string
	Author      string // "" = octocat
	Head, Base  string // Base "" = the default branch
	Draft       bool
	Merged      bool
	// Conflicts makes GitHub report it unmergeable (mergeable false) and
	// refuse to merge it.
	Conflicts bool
	// Files are what the pull request changes; inline review comments
	// must name lines their patches show. nil: what AddBranch gave Head.
	Files []Change
}

// Settings are a repository's properties beyond its name.
type Settings struct {
	Description string
	// Visibility is public (the default), private or internal.
	Visibility string
	Archived   bool
	// MergeMethods are the merge methods allowed; nil = merge, squash and
	// rebase.
	MergeMethods []string
}

// AddRepo creates owner/name with an initial commit (a README.md) on its
// default branch, and other branches at the same commit (heads pull
// requests can be opened from).
func (s *Server) AddRepo(fullName, defaultBranch string, branches ...string) {
	owner, name, ok := strings.Cut(fullName, "/")
	if !ok {
		panic(fmt.Sprintf("githubtest: repo %q is not owner/name", fullName))
	}
	s.Lock()
	defer s.Unlock()
	r := &repo{
		id: s.ID(), owner: owner, name: name, defaultBranch: defaultBranch, visibility: "public",
		branches: map[string]string{}, tags: map[string]string{}, commits: map[string]*commit{},
		permissions: map[string]string{}, mergeMethods: []string{"merge", "squash", "rebase"},
	}
	s.repos[strings.ToLower(fullName)] = r
	root := s.commit(r, nil, owner, "Initial commit", map[string]file{"README.md": {content: []byte("# " + name + "\n")}})
	for _, b := range append([]string{defaultBranch}, branches...) {
		r.branches[b] = root.sha
	}
}

// Configure sets a repository's properties.
func (s *Server) Configure(fullName string, c Settings) {
	s.Lock()
	defer s.Unlock()
	r := s.mustRepo(fullName)
	r.description, r.visibility, r.archived = c.Description, cmp.Or(c.Visibility, "public"), c.Archived
	if c.MergeMethods != nil {
		r.mergeMethods = slices.Clone(c.MergeMethods)
	}
}

// SetPermission gives login a role in a repository: admin, maintain,
// write, triage or read; or none, which hides the repository from the
// login's /user/repos.
func (s *Server) SetPermission(fullName, login, role string) {
	s.Lock()
	defer s.Unlock()
	s.mustRepo(fullName).permissions[login] = role
}

// AddMilestone creates a milestone and returns its number.
func (s *Server) AddMilestone(fullName, title string) int {
	s.Lock()
	defer s.Unlock()
	r := s.mustRepo(fullName)
	r.milestones = append(r.milestones, title)
	return len(r.milestones)
}

// ReadOnly gives login read access only to a repository: like GitHub, the
// fake then files that login's new issues without the labels, assignees
// and milestone it asked for, silently (only push access sets them).
func (s *Server) ReadOnly(fullName, login string) { s.SetPermission(fullName, login, "read") }

// AddBranch pushes a branch to a repository at the default branch's head
// (if it is new), changing files (its diff against the default branch; a
// pull request from it lists them).
func (s *Server) AddBranch(fullName, branch string, changes ...Change) {
	s.Lock()
	defer s.Unlock()
	r := s.mustRepo(fullName)
	if !r.hasBranch(branch) {
		r.branches[branch] = r.branches[r.defaultBranch]
	}
	if r.changes == nil {
		r.changes = map[string][]Change{}
	}
	r.changes[branch] = slices.Clone(changes)
}

// Rename moves a repository to a new name. Like GitHub, the fake keeps
// answering the old name, with a 301 to /repositories/ID/...
func (s *Server) Rename(oldName, newName string) {
	owner, name, _ := strings.Cut(newName, "/")
	s.Lock()
	defer s.Unlock()
	r := s.mustRepo(oldName)
	delete(s.repos, strings.ToLower(oldName))
	r.owner, r.name = owner, name
	s.repos[strings.ToLower(newName)] = r
	s.renamed[strings.ToLower(oldName)] = r
}

// AddIssue files an issue and returns its number.
func (s *Server) AddIssue(fullName string, in Issue) int {
	s.Lock()
	defer s.Unlock()
	r := s.mustRepo(fullName)
	it := s.addItem(r, in.Title, in.Body, cmp.Or(in.Author, "octocat"), in.Labels, cmp.Or(in.State, "open"), nil)
	it.assignees = slices.Clone(in.Assignees)
	return it.number
}

// AddPull opens a pull request and returns its number.
func (s *Server) AddPull(fullName string, in Pull) int {
	s.Lock()
	defer s.Unlock()
	r := s.mustRepo(fullName)
	p := &pull{head: in.Head, base: cmp.Or(in.Base, r.defaultBranch), draft: in.Draft, merged: in.Merged,
		unmergeable: in.Conflicts, files: slices.Clone(in.Files)}
	if in.Files == nil {
		p.files = slices.Clone(r.changes[in.Head])
	}
	state := "open"
	if in.Merged {
		state = "closed"
	}
	it := s.addItem(r, in.Title, in.Body, cmp.Or(in.Author, "octocat"), nil, state, p)
	if sha, ok := r.branches[p.head]; ok && in.Merged {
		p.headSHA = sha
	}
	return it.number
}

// Issues is how many issues and pull requests fullName holds (not
// counting the numbers of issues transferred away).
func (s *Server) Issues(fullName string) int {
	s.Lock()
	defer s.Unlock()
	n := 0
	for _, it := range s.mustRepo(fullName).items {
		if it.moved == nil {
			n++
		}
	}
	return n
}

func (s *Server) mustRepo(fullName string) *repo {
	r := s.repos[strings.ToLower(fullName)]
	if r == nil {
		panic(fmt.Sprintf("githubtest: no repository %q (AddRepo it first)", fullName))
	}
	return r
}

func (s *Server) addItem(r *repo, title, body, author string, labels []string, state string, p *pull) *item {
	it := &item{
		id: s.ID(), number: len(r.items) + 1, title: title, body: body, state: state,
		labels: slices.Clone(labels), author: author, created: s.Tick(), pull: p,
	}
	it.updated = it.created
	if state == "closed" {
		it.closed, it.stateReason = it.created, "completed"
	}
	s.User(author)
	if p != nil {
		p.id = s.ID()
		p.headSHA = forgemodel.SHA(fmt.Sprintf("%s#%d", r.fullName(), it.number))
	}
	r.items = append(r.items, it)
	return it
}

func (r *repo) item(n int) *item {
	if n < 1 || n > len(r.items) {
		return nil
	}
	return r.items[n-1]
}

func (r *repo) hasBranch(b string) bool {
	_, ok := r.branches[b]
	return ok
}

// headSHA is a pull request's head commit: its head branch's, while open.
func (r *repo) headSHA(p *pull) string {
	if sha, ok := r.branches[p.head]; ok && !p.merged {
		return sha
	}
	return p.headSHA
}

// role is login's permission in the repository.
func (r *repo) role(login string) string { return cmp.Or(r.permissions[login], "write") }
