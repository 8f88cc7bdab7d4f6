// Package forgemodel is the in-memory model of what forges share, for
// the fakes that tests run against: repositories with branches, files
// and commits (or git objects: commits with their trees, tags;
// objects.go), issues and pull (merge) requests with comments, reviews
// and check runs, collaborators' roles, webhooks, CI workflows and runs
// with jobs, and the numbering of all of them. It knows
// no wire format: providers/internal/forgefake serves it over HTTP in a
// forge's REST shapes, internal/testforge as a provider in the gateway's
// own types. Callers hold their own lock around a State.
package forgemodel

import (
	"slices"
	"strings"
	"time"
)

// States (an item's, a run's) are in the forge's own spelling ("opened"
// on GitLab, "open" on Gitea); the codec that reads them also wrote them.

// State is everything a fake holds; its user's lock guards it.
type State struct {
	Counters
	Tokens map[string]string // credential -> user name
	Repos  map[string]*Repo  // lower-case full path -> repository
	// Renamed are the repositories renamed away from a path: lower-case
	// old path -> the repository (a forge redirects the old name).
	Renamed map[string]*Repo
	// Members are organisations' (groups') members: lower-case name ->
	// lower-case user names.
	Members map[string]map[string]bool
}

// NewState is an empty State.
func NewState() State {
	return State{Tokens: map[string]string{}, Repos: map[string]*Repo{}, Renamed: map[string]*Repo{}, Members: map[string]map[string]bool{}}
}

// Repo is a repository (a GitLab project): its git side (git.go) and
// the items, labels, milestones and CI runs filed against it.
type Repo struct {
	ID            int64
	Path          string // full path: "owner/name", or "group/sub/name" on GitLab
	DefaultBranch string
	// Access is the credential's role, on GitLab's scale: 50 owner, 40
	// maintainer, 30 developer (can write), 20 reporter (can read), 10
	// guest, 0 none.
	Access  int
	Private bool
	// SharedNumbers makes issues and pull requests draw their numbers
	// from one sequence (Gitea, GitHub); otherwise each kind has its own
	// (GitLab's iids).
	SharedNumbers bool

	Branches   map[string]string            // name -> head commit
	Files      map[string]map[string]string // branch -> path -> content
	LastCommit map[string]map[string]string // branch -> path -> last commit touching it

	Labels     []*Label
	Milestones []*Milestone
	Items      []*Item // issues and pull requests, oldest first
	Runs       []*Run  // CI runs (GitLab pipelines), oldest first

	// What a forge with more settings keeps (githubtest).
	Description string
	Visibility  string // public, private or internal; "" when Private says
	Archived    bool
	// MergeMethods are the merge methods allowed (merge, squash, rebase).
	MergeMethods []string
	// Permissions are collaborators' roles, in the forge's spelling
	// (GitHub's admin, maintain, write, triage, read, none).
	Permissions map[string]string
	// Git holds the repository as git objects (objects.go), for a fake
	// that serves commits, trees and refs rather than Files per branch.
	Git
	// Changes are what each branch changes against the default branch,
	// as a pull request from it lists them.
	Changes   map[string][]Change
	Hooks     []*Hook
	Workflows []*Workflow
}

// Role is user's role in the repository: its Permissions entry, else
// def.
func (r *Repo) Role(user, def string) string {
	if v, ok := r.Permissions[user]; ok && v != "" {
		return v
	}
	return def
}

// Change is one file a pull request (or a branch) changes, with its
// unified diff patch ("@@ -1,3 +1,4 @@\n line\n+added\n ...").
type Change struct {
	Path, Patch string
}

// Check is a check run (a commit status) reported on a commit: queued,
// in_progress or completed, with a conclusion once completed.
type Check struct {
	ID         int64
	Name       string
	Status     string
	Conclusion string
	Started    time.Time
}

// Hook is a repository webhook: where its deliveries go, signed with
// Secret.
type Hook struct {
	ID          int64
	URL, Secret string
}

// Workflow is a CI workflow file; Dispatch says it can be started
// through the API, with Inputs.
type Workflow struct {
	ID       int64
	Name     string
	Path     string
	Dispatch bool
	Inputs   []string
}

// Moved is where a transferred issue went.
type Moved struct {
	Repo   *Repo
	Number int64
}

// Label is a repository label.
type Label struct {
	ID   int64
	Name string
}

// Milestone is a repository milestone; IID is its number within the
// repository.
type Milestone struct {
	ID, IID int64
	Title   string
}

// Item is an issue, or a pull (merge) request when Pull is set.
type Item struct {
	ID, Number  int64
	Title, Body string
	State       string
	Labels      []string
	Assignees   []string
	Milestone   *Milestone
	Author      string
	Created     time.Time
	Updated     time.Time
	Closed      *time.Time
	Comments    []*Comment
	Pull        *Pull
	// StateReason says why it is in its state (GitHub's completed,
	// not_planned, reopened); "" for none.
	StateReason string
	// Moved is set once the issue was transferred: its number answers
	// with where it went.
	Moved *Moved
}

// Pull is what a pull request adds to an item.
type Pull struct {
	Head, Base string
	HeadSHA    string // the head commit when opened or merged (see Repo.PullHead)
	Merged     bool
	MergeSHA   string
	SquashSHA  string
	Draft      bool
	Blocked    bool   // the forge refuses to merge it
	Status     string // CI state of the head ("success", ...); "" for none
	Reviews    []*Review
	// ID is the pull request's own id, where the forge gives it one
	// beside its issue's (GitHub).
	ID       int64
	MergedBy string
	Changes  []Change
	// Checks are the check runs on its head; a push clears them.
	Checks    []*Check
	Requested []string // reviewers asked for a review
}

// Comment is a comment (GitLab note) on an item; Position places a diff
// comment, nil otherwise. Discussion is the GitLab thread a note belongs
// to ("" for a note that is its own), Resolved a diff note's state.
type Comment struct {
	ID         int64
	Author     string
	Body       string
	Created    time.Time
	Position   map[string]any
	Discussion string
	Resolved   bool
}

// Review is a review of a pull request (a GitLab approval is one in the
// APPROVED state).
type Review struct {
	ID       int64
	Author   string
	State    string
	Body     string
	Commit   string
	Created  time.Time
	Comments []*ReviewComment
}

// ReviewComment is a review's comment on a line of a file: a line of
// the new side (NewLine) or of the old (OldLine).
type ReviewComment struct {
	ID               int64
	Path             string
	NewLine, OldLine int64
	Body             string
	// Author is who wrote a reply in the review's thread; "" is the
	// review's author. Resolver is who resolved the conversation the
	// comment opened; "" while it is open.
	Author, Resolver string
}

// Line is the commented line and its side, as GitHub names them: RIGHT
// for the new side, LEFT for the old.
func (c *ReviewComment) Line() (int64, string) {
	if c.OldLine != 0 && c.NewLine == 0 {
		return c.OldLine, "LEFT"
	}
	return c.NewLine, "RIGHT"
}

// Run is a CI run (a GitLab pipeline, a Gitea Actions run).
type Run struct {
	ID, Number int64
	Workflow   string
	Ref, SHA   string
	Status     string
	Conclusion string
	Event      string // what started it: push, api, workflow_dispatch
	Vars       map[string]string
	Attempt    int64
	Started    time.Time // zero while not started
	Jobs       []*Job
	// Created and Updated, where a forge reports them.
	Created, Updated time.Time
}

// Job is one job of a run.
type Job struct {
	ID         int64
	Name       string
	Stage      string
	Status     string
	Conclusion string
	Log        string
}

// Repo is the repository at path, any case; nil when there is none.
func (s *State) Repo(path string) *Repo { return s.Repos[strings.ToLower(path)] }

// RepoByID is the repository with id; nil when there is none.
func (s *State) RepoByID(id int64) *Repo {
	for _, r := range s.Repos {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// SortedRepos are the repositories in the order they were added.
func (s *State) SortedRepos() []*Repo {
	var out []*Repo
	for _, r := range s.Repos {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *Repo) int { return int(a.ID - b.ID) })
	return out
}

// UserOf is the user a credential authenticates as.
func (s *State) UserOf(token string) (string, bool) {
	u, ok := s.Tokens[token]
	return u, ok
}

// HasToken reports a user some credential authenticates as.
func (s *State) HasToken(user string) bool {
	for _, u := range s.Tokens {
		if u == user {
			return true
		}
	}
	return false
}

// AddItem files an item (a pull request when p is set), numbered in its
// repository's sequence, created now by author.
func (s *State) AddItem(r *Repo, title, body, author, state string, p *Pull) *Item {
	t := s.Tick()
	n := int64(1)
	for _, it := range r.Items {
		if r.SharedNumbers || (it.Pull == nil) == (p == nil) {
			n++
		}
	}
	it := &Item{ID: s.ID(), Number: n, Title: title, Body: body, State: state, Author: author, Created: t, Updated: t, Pull: p}
	s.User(author)
	r.Items = append(r.Items, it)
	return it
}

// AddComment appends a comment by author to list.
func (s *State) AddComment(list *[]*Comment, author, body string, pos map[string]any) *Comment {
	c := &Comment{ID: s.ID(), Author: author, Body: body, Created: s.Tick(), Position: pos}
	s.User(author)
	*list = append(*list, c)
	return c
}

// AddLabel defines a repository label.
func (s *State) AddLabel(r *Repo, name string) *Label {
	l := &Label{ID: s.ID(), Name: name}
	r.Labels = append(r.Labels, l)
	return l
}

// AddMilestone creates a repository milestone.
func (s *State) AddMilestone(r *Repo, title string) *Milestone {
	m := &Milestone{ID: s.ID(), IID: int64(len(r.Milestones) + 1), Title: title}
	r.Milestones = append(r.Milestones, m)
	return m
}

// AddRun records ru as the repository's next run, giving it an id and
// number.
func (s *State) AddRun(r *Repo, ru *Run) *Run {
	ru.ID, ru.Number = s.ID(), int64(len(r.Runs)+1)
	r.Runs = append(r.Runs, ru)
	return ru
}

// Issue is the issue numbered n; nil when there is none. On a forge with
// shared numbers it may be a pull request (an issue route serves both).
func (r *Repo) Issue(n int64) *Item {
	for _, it := range r.Items {
		if it.Number == n && (r.SharedNumbers || it.Pull == nil) {
			return it
		}
	}
	return nil
}

// Pull is the pull request numbered n; nil when there is none.
func (r *Repo) Pull(n int64) *Item {
	for _, it := range r.Items {
		if it.Number == n && it.Pull != nil {
			return it
		}
	}
	return nil
}

// Kind is the items of one kind, oldest first.
func (r *Repo) Kind(pulls bool) []*Item {
	var out []*Item
	for _, it := range r.Items {
		if (it.Pull != nil) == pulls {
			out = append(out, it)
		}
	}
	return out
}

// Label is the label named name: exactly, else in any case (two labels
// may differ in case only); nil when there is none.
func (r *Repo) Label(name string) *Label {
	if i := slices.IndexFunc(r.Labels, func(l *Label) bool { return l.Name == name }); i >= 0 {
		return r.Labels[i]
	}
	for _, l := range r.Labels {
		if strings.EqualFold(l.Name, name) {
			return l
		}
	}
	return nil
}

// LabelsByID are the labels with ids, in order; false when one is not
// the repository's.
func (r *Repo) LabelsByID(ids []int64) ([]string, bool) {
	var out []string
	for _, id := range ids {
		i := slices.IndexFunc(r.Labels, func(l *Label) bool { return l.ID == id })
		if i < 0 {
			return nil, false
		}
		out = append(out, r.Labels[i].Name)
	}
	return out, true
}

// Milestone is the milestone with id; nil when there is none.
func (r *Repo) Milestone(id int64) *Milestone {
	for _, m := range r.Milestones {
		if m.ID == id {
			return m
		}
	}
	return nil
}

// Run is the run with id; nil when there is none.
func (r *Repo) Run(id int64) *Run {
	for _, ru := range r.Runs {
		if ru.ID == id {
			return ru
		}
	}
	return nil
}

// Job is the job with id and its run; nil when there is none.
func (r *Repo) Job(id int64) (*Run, *Job) {
	for _, ru := range r.Runs {
		for _, j := range ru.Jobs {
			if j.ID == id {
				return ru, j
			}
		}
	}
	return nil, nil
}

// PullHead is a pull request's head commit: its head branch's while it
// is not merged and the branch exists (a push moves it, as on every
// forge), else the last head it had.
func (r *Repo) PullHead(p *Pull) string {
	if sha, found := r.Branches[p.Head]; found && !p.Merged {
		return sha
	}
	return p.HeadSHA
}

// MergePull marks a pull request merged at its current head and copies
// its head's files onto its base, reporting the paths that changed; the
// codec commits them as its forge does.
func (r *Repo) MergePull(p *Pull) []string {
	p.HeadSHA = r.PullHead(p)
	p.Merged = true
	return r.Merge(p.Head, p.Base)
}

// Approvers are the authors of a pull request's APPROVED reviews.
func (p *Pull) Approvers() []string {
	var out []string
	for _, v := range p.Reviews {
		if v.State == "APPROVED" {
			out = append(out, v.Author)
		}
	}
	return out
}
