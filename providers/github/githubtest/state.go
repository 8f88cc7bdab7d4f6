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
	items         []*item // items[n-1] is number n
	hooks         []*hook
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
	// updated moves with every change (a comment, a review, a label, a
	// push, a state), as GitHub's updated_at does, and with it the ETag.
	updated  time.Time
	closed   time.Time // when it was last closed; zero while open
	comments []*comment
	pull     *pull // nil for an issue
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
	pushes  int         // how many times the head moved (SetHead)
	checks  []*checkRun // check runs on the current head
}

type checkRun struct {
	id                 int64
	name               string
	status, conclusion string // queued/in_progress/completed; success, failure, ... or ""
	started            time.Time
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

// AddBranch pushes a branch to a repository.
func (s *Server) AddBranch(fullName, branch string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(fullName)
	r.branches = append(r.branches, branch)
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
	p := &pull{head: in.Head, base: or(in.Base, r.defaultBranch), draft: in.Draft, merged: in.Merged}
	state := "open"
	if in.Merged {
		state = "closed"
	}
	return s.addItem(r, in.Title, in.Body, or(in.Author, "octocat"), nil, state, p).number
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
	it.updated = it.created
	if state == "closed" {
		it.closed = it.created
	}
	s.user(author)
	if p != nil {
		p.id = s.newID()
		p.headSHA = headSHA(r, it.number, 0)
	}
	r.items = append(r.items, it)
	return it
}

// headSHA is the head commit of pull request n after its push-th push.
func headSHA(r *repo, n, push int) string {
	key := fmt.Sprintf("%s#%d", r.fullName(), n)
	if push > 0 {
		key += fmt.Sprintf("@%d", push)
	}
	sum := sha1.Sum([]byte(key))
	return hex.EncodeToString(sum[:])
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
