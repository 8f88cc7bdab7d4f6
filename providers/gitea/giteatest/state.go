package giteatest

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/forgetools/forgetools/providers/internal/fakewire"
)

// What the fake holds. Issues and pull requests of a repository share one
// number sequence, as on Gitea.

type repo struct {
	id            int64
	owner, name   string
	defaultBranch string
	private       bool
	perm          string            // admin, write or read: the credential's
	branches      map[string]string // name -> head commit sha
	files         map[string]map[string]string
	labels        []*label
	milestones    map[int64]string // id -> title
	items         []*item          // items[n-1] is number n
	runs          []*run
	commits       int
}

func (r *repo) fullName() string { return r.owner + "/" + r.name }

type label struct {
	id   int64
	name string
}

type item struct {
	id          int64
	number      int64
	title, body string
	state       string
	labels      []*label
	assignees   []string
	milestone   int64
	author      string
	created     time.Time
	updated     time.Time
	closed      *time.Time
	comments    []*comment
	pull        *pull
}

type pull struct {
	head, base  string
	headSHA     string
	merged      bool
	mergeSHA    string
	mergeable   bool
	reviews     []*review
	statusState string // combined status of the head, "" for none
}

type comment struct {
	id      int64
	author  string
	body    string
	created time.Time
}

type review struct {
	id       int64
	author   string
	state    string
	body     string
	commit   string
	created  time.Time
	comments []*reviewComment
}

type reviewComment struct {
	id               int64
	path             string
	newLine, oldLine int64
	body             string
}

type run struct {
	id         int64
	number     int64
	workflow   string
	branch     string
	sha        string
	status     string // queued, in_progress, completed
	conclusion string
	event      string
	attempt    int64
	started    time.Time
	jobs       []*job
}

type job struct {
	id         int64
	name       string
	status     string
	conclusion string
	log        string
}

// Issue is an issue to seed a repository with.
type Issue struct {
	Title, Body string
	Author      string // "" = gitea-admin
	Labels      []string
	State       string // open (default) or closed
}

// Pull is a pull request to seed a repository with.
type Pull struct {
	Title, Body string
	Author      string
	Head, Base  string // Base "" = the default branch
	// Status is the head commit's combined status (success, pending,
	// failure); "" = none.
	Status string
	// Unmergeable makes Gitea refuse the merge (405).
	Unmergeable bool
}

// Run is an Actions run to seed a repository with.
type Run struct {
	Workflow, Branch string
	Status           string // queued, in_progress, completed
	Conclusion       string // success, failure, ... once completed
	// Jobs are name -> conclusion; a failed job gets Log.
	Jobs []Job
}

// Job is one job of a seeded run.
type Job struct {
	Name, Conclusion, Log string
}

// AddRepo creates owner/name with its default branch holding files, and
// further branches (copies of it). perm is the credential's permission:
// admin, write or read ("" = admin).
func (s *Server) AddRepo(fullName, defaultBranch string, files map[string]string, branches ...string) {
	owner, name, ok := strings.Cut(fullName, "/")
	if !ok {
		panic(fmt.Sprintf("giteatest: repo %q is not owner/name", fullName))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r := &repo{
		id: s.n.ID(), owner: owner, name: name, defaultBranch: defaultBranch, perm: "admin",
		branches: map[string]string{}, files: map[string]map[string]string{},
	}
	s.repos[strings.ToLower(fullName)] = r
	r.files[defaultBranch] = maps.Clone(files)
	r.branches[defaultBranch] = commitSHA(r, defaultBranch, 0)
	for _, b := range branches {
		r.files[b] = maps.Clone(files)
		r.branches[b] = commitSHA(r, b, 0)
	}
}

// SetPermission sets the credential's permission on a repository (admin,
// write, read) and whether it is private.
func (s *Server) SetPermission(fullName, perm string, private bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(fullName)
	r.perm, r.private = perm, private
}

// AddMilestone creates a milestone and returns its id (Gitea addresses a
// milestone by id, and drops an issue's milestone that is not the
// repository's).
func (s *Server) AddMilestone(fullName, title string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(fullName)
	if r.milestones == nil {
		r.milestones = map[int64]string{}
	}
	id := s.n.ID()
	r.milestones[id] = title
	return id
}

// AddLabel defines a repository label and returns its id.
func (s *Server) AddLabel(fullName, name string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(fullName)
	l := &label{id: s.n.ID(), name: name}
	r.labels = append(r.labels, l)
	return l.id
}

// AddIssue files an issue and returns its number.
func (s *Server) AddIssue(fullName string, in Issue) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(fullName)
	it := s.addItem(r, in.Title, in.Body, fakewire.Or(in.Author, "gitea-admin"), nil)
	for _, n := range in.Labels {
		it.labels = append(it.labels, r.label(n))
	}
	if in.State == "closed" {
		it.state, it.closed = "closed", &it.created
	}
	return it.number
}

// AddPull opens a pull request and returns its number.
func (s *Server) AddPull(fullName string, in Pull) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(fullName)
	return s.addPull(r, in.Title, in.Body, fakewire.Or(in.Author, "gitea-admin"), in.Head, fakewire.Or(in.Base, r.defaultBranch), in.Status, !in.Unmergeable).number
}

// AddRun records an Actions run on a branch and returns its id.
func (s *Server) AddRun(fullName string, in Run) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(fullName)
	ru := &run{
		id: s.n.ID(), number: int64(len(r.runs) + 1), workflow: in.Workflow, branch: in.Branch,
		sha: r.branches[in.Branch], status: in.Status, conclusion: in.Conclusion, event: "push", attempt: 1, started: s.n.Tick(),
	}
	for _, j := range in.Jobs {
		ru.jobs = append(ru.jobs, &job{id: s.n.ID(), name: j.Name, status: "completed", conclusion: j.Conclusion, log: j.Log})
	}
	r.runs = append(r.runs, ru)
	return ru.id
}

// File is a file's content on a branch, and whether it exists.
func (s *Server) File(fullName, branch, path string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.mustRepo(fullName).files[branch][path]
	return c, ok
}

// Head is a branch's head commit ("" when there is no such branch).
func (s *Server) Head(fullName, branch string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mustRepo(fullName).branches[branch]
}

func (s *Server) mustRepo(fullName string) *repo {
	r := s.repos[strings.ToLower(fullName)]
	if r == nil {
		panic(fmt.Sprintf("giteatest: no repository %q (AddRepo it first)", fullName))
	}
	return r
}

func (s *Server) addItem(r *repo, title, body, author string, p *pull) *item {
	t := s.n.Tick()
	it := &item{
		id: s.n.ID(), number: int64(len(r.items) + 1), title: title, body: body, state: "open",
		author: author, created: t, updated: t, pull: p,
	}
	s.n.User(author)
	r.items = append(r.items, it)
	return it
}

func (s *Server) addPull(r *repo, title, body, author, head, base, status string, mergeable bool) *item {
	p := &pull{head: head, base: base, headSHA: r.branches[head], statusState: status, mergeable: mergeable}
	return s.addItem(r, title, body, author, p)
}

func (r *repo) item(n int64) *item {
	if n < 1 || n > int64(len(r.items)) {
		return nil
	}
	return r.items[n-1]
}

func (r *repo) label(name string) *label {
	for _, l := range r.labels {
		if strings.EqualFold(l.name, name) {
			return l
		}
	}
	panic(fmt.Sprintf("giteatest: no label %q in %s (AddLabel it first)", name, r.fullName()))
}

func (r *repo) run(id int64) *run {
	for _, ru := range r.runs {
		if ru.id == id {
			return ru
		}
	}
	return nil
}

// commit records a new head for branch and returns it.
func (r *repo) commit(branch string) string {
	r.commits++
	sha := commitSHA(r, branch, r.commits)
	r.branches[branch] = sha
	return sha
}

// commitSHA is a stable fake commit id for a state of a branch.
func commitSHA(r *repo, branch string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s@%s#%d", r.fullName(), branch, n)
	for _, k := range slices.Sorted(maps.Keys(r.files[branch])) {
		b.WriteString(k + "=" + r.files[branch][k])
	}
	sum := sha1.Sum([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}

// isUser reports a login the fake knows (a token's user); Gitea answers
// 404 for a filter naming anyone else.
func (s *Server) isUser(login string) bool {
	for _, l := range s.tokens {
		if l == login {
			return true
		}
	}
	return false
}

// resolve is the commit a ref names: a branch's head, or a branch head's
// sha (or a prefix of seven or more digits); "" for neither.
func (r *repo) resolve(ref string) string {
	if b := r.branchAt(ref); b != "" {
		return r.branches[b]
	}
	return ""
}

// branchAt is the branch whose files a ref shows: the branch itself, or
// the branch whose head is that commit; "" for neither.
func (r *repo) branchAt(ref string) string {
	if _, found := r.branches[ref]; found {
		return ref
	}
	if len(ref) < 7 {
		return ""
	}
	for _, b := range slices.Sorted(maps.Keys(r.branches)) {
		if strings.HasPrefix(r.branches[b], strings.ToLower(ref)) {
			return b
		}
	}
	return ""
}
