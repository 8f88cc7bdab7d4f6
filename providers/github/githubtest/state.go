package githubtest

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// What the fake holds is the fakes' shared model (internal/forgemodel),
// in the engine's State: repositories, issues and pull requests, which
// share one number sequence as on GitHub (a pull request is an issue with
// a pull part, which is why the issues endpoint lists both), comments,
// reviews with inline comments, check runs, milestones, collaborators'
// roles, webhooks, the git objects branches and tags point at, and
// Actions workflows and runs. What is GitHub's alone (quotas, the wire
// shapes, webhook signing) is this package's.

type (
	repo      = forgemodel.Repo
	item      = forgemodel.Item
	pull      = forgemodel.Pull
	comment   = forgemodel.Comment
	review    = forgemodel.Review
	milestone = forgemodel.Milestone
)

// owner and name are a repository's two halves.
func owner(r *repo) string { o, _, _ := strings.Cut(r.Path, "/"); return o }
func name(r *repo) string  { _, n, _ := strings.Cut(r.Path, "/"); return n }

// inline is one inline comment of a review, as GitHub lists them (every
// review's, oldest first).
type inline struct {
	*forgemodel.ReviewComment
	review *review
}

func inlines(p *pull) []inline {
	var out []inline
	for _, v := range p.Reviews {
		for _, c := range v.Comments {
			out = append(out, inline{c, v})
		}
	}
	return out
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
		ID: s.ID(), Path: owner + "/" + name, DefaultBranch: defaultBranch, Visibility: "public", SharedNumbers: true,
		Branches: map[string]string{}, Git: forgemodel.Git{Tags: map[string]string{}, Commits: map[string]*commit{}},
		Permissions: map[string]string{}, MergeMethods: []string{"merge", "squash", "rebase"},
	}
	s.Repos[strings.ToLower(fullName)] = r
	root := s.NewCommit(r, nil, owner, "Initial commit", map[string]file{"README.md": {Content: []byte("# " + name + "\n")}})
	for _, b := range append([]string{defaultBranch}, branches...) {
		r.Branches[b] = root.SHA
	}
}

// Configure sets a repository's properties.
func (s *Server) Configure(fullName string, c Settings) {
	s.Lock()
	defer s.Unlock()
	r := s.mustRepo(fullName)
	r.Description, r.Visibility, r.Archived = c.Description, cmp.Or(c.Visibility, "public"), c.Archived
	r.Private = r.Visibility != "public"
	if c.MergeMethods != nil {
		r.MergeMethods = slices.Clone(c.MergeMethods)
	}
}

// SetPermission gives login a role in a repository: admin, maintain,
// write, triage or read; or none, which hides the repository from the
// login's /user/repos.
func (s *Server) SetPermission(fullName, login, role string) {
	s.Lock()
	defer s.Unlock()
	s.mustRepo(fullName).Permissions[login] = role
}

// AddMilestone creates a milestone and returns its number.
func (s *Server) AddMilestone(fullName, title string) int {
	s.Lock()
	defer s.Unlock()
	r := s.mustRepo(fullName)
	// GitHub's milestone ids are their own, not drawn from the counter.
	n := int64(len(r.Milestones) + 1)
	r.Milestones = append(r.Milestones, &milestone{ID: 1002600 + n, IID: n, Title: title})
	return int(n)
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
	if !hasBranch(r, branch) {
		r.Branches[branch] = r.Branches[r.DefaultBranch]
	}
	if r.Changes == nil {
		r.Changes = map[string][]Change{}
	}
	r.Changes[branch] = slices.Clone(changes)
}

// Rename moves a repository to a new name. Like GitHub, the fake keeps
// answering the old name, with a 301 to /repositories/ID/...
func (s *Server) Rename(oldName, newName string) {
	s.Lock()
	defer s.Unlock()
	r := s.mustRepo(oldName)
	delete(s.Repos, strings.ToLower(oldName))
	r.Path = newName
	s.Repos[strings.ToLower(newName)] = r
	s.Renamed[strings.ToLower(oldName)] = r
}

// AddIssue files an issue and returns its number.
func (s *Server) AddIssue(fullName string, in Issue) int {
	s.Lock()
	defer s.Unlock()
	r := s.mustRepo(fullName)
	it := s.addItem(r, in.Title, in.Body, cmp.Or(in.Author, "octocat"), in.Labels, cmp.Or(in.State, "open"), nil)
	it.Assignees = slices.Clone(in.Assignees)
	return int(it.Number)
}

// AddPull opens a pull request and returns its number.
func (s *Server) AddPull(fullName string, in Pull) int {
	s.Lock()
	defer s.Unlock()
	r := s.mustRepo(fullName)
	p := &pull{Head: in.Head, Base: cmp.Or(in.Base, r.DefaultBranch), Draft: in.Draft, Merged: in.Merged,
		Blocked: in.Conflicts, Changes: slices.Clone(in.Files)}
	if in.Files == nil {
		p.Changes = slices.Clone(r.Changes[in.Head])
	}
	state := "open"
	if in.Merged {
		state = "closed"
	}
	it := s.addItem(r, in.Title, in.Body, cmp.Or(in.Author, "octocat"), nil, state, p)
	if sha, ok := r.Branches[p.Head]; ok && in.Merged {
		p.HeadSHA = sha
	}
	return int(it.Number)
}

// Issues is how many issues and pull requests fullName holds (not
// counting the numbers of issues transferred away).
func (s *Server) Issues(fullName string) int {
	s.Lock()
	defer s.Unlock()
	n := 0
	for _, it := range s.mustRepo(fullName).Items {
		if it.Moved == nil {
			n++
		}
	}
	return n
}

func (s *Server) mustRepo(fullName string) *repo {
	r := s.Repo(fullName)
	if r == nil {
		panic(fmt.Sprintf("githubtest: no repository %q (AddRepo it first)", fullName))
	}
	return r
}

// addItem files an item the way GitHub numbers and dates it: a closed
// one closed when created, as completed; a pull request gets its own id
// and a fake head until its head branch says otherwise.
func (s *Server) addItem(r *repo, title, body, author string, labels []string, state string, p *pull) *item {
	it := s.AddItem(r, title, body, author, state, p)
	it.Labels = slices.Clone(labels)
	if state == "closed" {
		closed := it.Created
		it.Closed, it.StateReason = &closed, "completed"
	}
	if p != nil {
		p.ID = s.ID()
		p.HeadSHA = forgemodel.SHA(fmt.Sprintf("%s#%d", r.Path, it.Number))
	}
	return it
}

func hasBranch(r *repo, b string) bool {
	_, ok := r.Branches[b]
	return ok
}

// role is login's permission in the repository; a login not listed has
// write.
func role(r *repo, login string) string { return r.Role(login, "write") }

// milestoneN is the milestone numbered n; nil for none (0).
func milestoneN(r *repo, n int) *milestone {
	if n < 1 || n > len(r.Milestones) {
		return nil
	}
	return r.Milestones[n-1]
}

// number is an item's milestone's number; 0 for none.
func number(m *milestone) int {
	if m == nil {
		return 0
	}
	return int(m.IID)
}

// itemN is the issue or pull request numbered n; nil for none.
func itemN(r *repo, n int) *item { return r.Issue(int64(n)) }
