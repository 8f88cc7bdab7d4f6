package giteatest

import (
	"fmt"
	"strings"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// Seeding the fake. Issues and pull requests of a repository share one
// number sequence, as on Gitea.

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
// further branches (copies of it). The credential is its admin until
// SetPermission says otherwise.
func (s *Server) AddRepo(fullName, defaultBranch string, files map[string]string, branches ...string) {
	if _, _, ok := strings.Cut(fullName, "/"); !ok {
		panic(fmt.Sprintf("giteatest: repo %q is not owner/name", fullName))
	}
	s.Lock()
	defer s.Unlock()
	s.State.AddRepo(fullName, defaultBranch, files, branches...).SharedNumbers = true
}

// perms are Gitea's permissions on the engine's access scale.
var perms = map[string]int{"admin": 50, "write": 30, "read": 20}

// SetPermission sets the credential's permission on a repository (admin,
// write, read) and whether it is private.
func (s *Server) SetPermission(fullName, perm string, private bool) {
	s.Lock()
	defer s.Unlock()
	level, known := perms[perm]
	if !known {
		panic(fmt.Sprintf("giteatest: permission %q is not admin, write or read", perm))
	}
	r := s.mustRepo(fullName)
	r.Access, r.Private = level, private
}

// AddMilestone creates a milestone and returns its id (Gitea addresses a
// milestone by id, and drops an issue's milestone that is not the
// repository's).
func (s *Server) AddMilestone(fullName, title string) int64 {
	s.Lock()
	defer s.Unlock()
	return s.State.AddMilestone(s.mustRepo(fullName), title).ID
}

// AddLabel defines a repository label and returns its id.
func (s *Server) AddLabel(fullName, name string) int64 {
	s.Lock()
	defer s.Unlock()
	return s.State.AddLabel(s.mustRepo(fullName), name).ID
}

// AddIssue files an issue and returns its number.
func (s *Server) AddIssue(fullName string, in Issue) int64 {
	s.Lock()
	defer s.Unlock()
	r := s.mustRepo(fullName)
	it := s.AddItem(r, in.Title, in.Body, fakeOr(in.Author, "gitea-admin"), "open", nil)
	for _, n := range in.Labels {
		l := r.Label(n)
		if l == nil {
			panic(fmt.Sprintf("giteatest: no label %q in %s (AddLabel it first)", n, fullName))
		}
		it.Labels = append(it.Labels, l.Name)
	}
	if in.State == "closed" {
		it.State, it.Closed = "closed", &it.Created
	}
	return it.Number
}

// AddPull opens a pull request and returns its number.
func (s *Server) AddPull(fullName string, in Pull) int64 {
	s.Lock()
	defer s.Unlock()
	r := s.mustRepo(fullName)
	return s.addPull(r, in.Title, in.Body, fakeOr(in.Author, "gitea-admin"), in.Head, fakeOr(in.Base, r.DefaultBranch), in.Status, in.Unmergeable).Number
}

// AddRun records an Actions run on a branch and returns its id.
func (s *Server) AddRun(fullName string, in Run) int64 {
	s.Lock()
	defer s.Unlock()
	r := s.mustRepo(fullName)
	ru := s.State.AddRun(r, &forgemodel.Run{
		Workflow: in.Workflow, Ref: in.Branch, SHA: r.Branches[in.Branch], Status: in.Status, Conclusion: in.Conclusion,
		Event: "push", Attempt: 1, Started: s.Tick(),
	})
	for _, j := range in.Jobs {
		ru.Jobs = append(ru.Jobs, &forgemodel.Job{ID: s.ID(), Name: j.Name, Status: "completed", Conclusion: j.Conclusion, Log: j.Log})
	}
	return ru.ID
}

// File is a file's content on a branch, and whether it exists.
func (s *Server) File(fullName, branch, path string) (string, bool) {
	s.Lock()
	defer s.Unlock()
	c, ok := s.mustRepo(fullName).Files[branch][path]
	return c, ok
}

// Head is a branch's head commit ("" when there is no such branch).
func (s *Server) Head(fullName, branch string) string {
	s.Lock()
	defer s.Unlock()
	return s.mustRepo(fullName).Branches[branch]
}

func (s *Server) mustRepo(fullName string) *forgemodel.Repo {
	r := s.Repo(fullName)
	if r == nil {
		panic(fmt.Sprintf("giteatest: no repository %q (AddRepo it first)", fullName))
	}
	return r
}

func (s *Server) addPull(r *forgemodel.Repo, title, body, author, head, base, status string, blocked bool) *forgemodel.Item {
	p := &forgemodel.Pull{Head: head, Base: base, HeadSHA: r.Branches[head], Status: status, Blocked: blocked}
	return s.AddItem(r, title, body, author, "open", p)
}

// resolve is the commit a ref names: a branch's head, or a branch head's
// sha (or a prefix of seven or more digits); "" for neither.
func resolve(r *forgemodel.Repo, ref string) string {
	if b := r.BranchAt(ref); b != "" {
		return r.Branches[b]
	}
	return ""
}
