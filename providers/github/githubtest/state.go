package githubtest

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"
)

// What the fake holds. Issues and pull requests of a repository share one
// number sequence, as on GitHub: a pull request is an issue with a pull
// part, which is why the issues endpoint lists both.

type repo struct {
	id            int64
	owner, name   string
	defaultBranch string
	branches      []string
	items         []*item           // items[n-1] is number n
	changes       map[string][]File // branch -> what it changes against the default branch
	readers       map[string]bool   // logins with read access only (no push)
}

func (r *repo) fullName() string { return r.owner + "/" + r.name }

type item struct {
	id          int64
	number      int
	title, body string
	state       string // open or closed
	labels      []string
	author      string
	created     time.Time
	comments    []*comment
	pull        *pull    // nil for an issue
	moved       *movedTo // set once transferred: the number answers 301
}

type pull struct {
	id      int64
	head    string
	base    string
	headSHA string
	draft   bool
	merged  bool
	reviews []*review
	inline  []*reviewComment
	checks  []*checkRun
	files   []File
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
	Author string
	Labels []string
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
	// Files are what the pull request changes; inline review comments
	// must name lines their patches show. nil: what AddBranch gave Head.
	Files []File
}

// AddRepo creates owner/name with its default branch and any other
// branches (heads pull requests can be opened from).
func (s *Server) AddRepo(fullName, defaultBranch string, branches ...string) {
	owner, name, ok := strings.Cut(fullName, "/")
	if !ok {
		panic(fmt.Sprintf("githubtest: repo %q is not owner/name", fullName))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.repos[strings.ToLower(fullName)] = &repo{
		id: s.newID(), owner: owner, name: name, defaultBranch: defaultBranch,
		branches: append([]string{defaultBranch}, branches...),
	}
}

// AddBranch pushes a branch to a repository, changing files (its diff
// against the default branch; a pull request from it shows them).
func (s *Server) AddBranch(fullName, branch string, files ...File) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(fullName)
	if !r.hasBranch(branch) {
		r.branches = append(r.branches, branch)
	}
	if r.changes == nil {
		r.changes = map[string][]File{}
	}
	r.changes[branch] = slices.Clone(files)
}

// ReadOnly gives login read access only to a repository: like GitHub, the
// fake then files that login's new issues without the labels it asked for,
// silently (only users with push access may label new issues).
func (s *Server) ReadOnly(fullName, login string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(fullName)
	if r.readers == nil {
		r.readers = map[string]bool{}
	}
	r.readers[login] = true
}

// Rename moves a repository to a new name. Like GitHub, the fake keeps
// answering the old name, with a 301 to /repositories/ID/...
func (s *Server) Rename(oldName, newName string) {
	owner, name, _ := strings.Cut(newName, "/")
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(oldName)
	delete(s.repos, strings.ToLower(oldName))
	r.owner, r.name = owner, name
	s.repos[strings.ToLower(newName)] = r
	s.renamed[strings.ToLower(oldName)] = r
}

// AddIssue files an issue and returns its number.
func (s *Server) AddIssue(fullName string, in Issue) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(fullName)
	return s.addItem(r, in.Title, in.Body, or(in.Author, "octocat"), in.Labels, or(in.State, "open"), nil).number
}

// AddPull opens a pull request and returns its number.
func (s *Server) AddPull(fullName string, in Pull) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(fullName)
	p := &pull{head: in.Head, base: or(in.Base, r.defaultBranch), draft: in.Draft, merged: in.Merged, files: slices.Clone(in.Files)}
	if in.Files == nil {
		p.files = slices.Clone(r.changes[in.Head])
	}
	state := "open"
	if in.Merged {
		state = "closed"
	}
	return s.addItem(r, in.Title, in.Body, or(in.Author, "octocat"), nil, state, p).number
}

// Issues is how many issues and pull requests fullName holds (not
// counting the numbers of issues transferred away).
func (s *Server) Issues(fullName string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
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
		id: s.newID(), number: len(r.items) + 1, title: title, body: body, state: state,
		labels: slices.Clone(labels), author: author, created: s.tick(), pull: p,
	}
	s.user(author)
	if p != nil {
		p.id = s.newID()
		sum := sha1.Sum(fmt.Appendf(nil, "%s#%d", r.fullName(), it.number))
		p.headSHA = hex.EncodeToString(sum[:])
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

func (r *repo) hasBranch(b string) bool { return slices.Contains(r.branches, b) }

// newID is the next id; one sequence for every kind keeps ids unique.
func (s *Server) newID() int64 {
	s.nextID++
	return s.nextID
}

// tick is the time of the next thing created: a second after the last.
func (s *Server) tick() time.Time {
	s.ticks++
	return s.clock.Add(time.Duration(s.ticks) * time.Second)
}

// user is login's numeric id, assigned on first sight.
func (s *Server) user(login string) int64 {
	id, ok := s.users[login]
	if !ok {
		id = int64(9000 + len(s.users))
		s.users[login] = id
	}
	return id
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
