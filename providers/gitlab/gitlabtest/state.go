package gitlabtest

import (
	"fmt"
	"strings"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// Seeding the fake. Issues and merge requests have separate iid
// sequences per project, as on GitLab; an approval is an APPROVED review.

// Issue is an issue to seed a project with.
type Issue struct {
	Title, Description string
	Author             string // "" = root
	Labels             []string
	State              string // opened (default) or closed
}

// MergeRequest is a merge request to seed a project with.
type MergeRequest struct {
	Title, Description string
	Author             string
	Source, Target     string // Target "" = the default branch
	// Pipeline is the head pipeline's status (success, running, failed);
	// "" = none.
	Pipeline string
	// Blocked makes GitLab refuse the merge (405).
	Blocked bool
}

// Pipeline is a pipeline to seed a project with.
type Pipeline struct {
	Ref    string
	Status string // success, failed, running, pending, ...
	Jobs   []Job
}

// Job is one job of a seeded pipeline.
type Job struct {
	Name, Status, Trace string
}

// AddProject creates a project (its full path may be nested) with its
// default branch holding files, and further branches (copies of it). The
// credential is its owner until SetAccess says otherwise.
func (s *Server) AddProject(path, defaultBranch string, files map[string]string, branches ...string) {
	if !strings.Contains(path, "/") {
		panic(fmt.Sprintf("gitlabtest: project %q is not namespace/name", path))
	}
	s.Lock()
	defer s.Unlock()
	s.AddRepo(path, defaultBranch, files, branches...)
}

// SetAccess sets the credential's access level on a project (50 owner, 40
// maintainer, 30 developer, 20 reporter, 10 guest).
func (s *Server) SetAccess(path string, level int) {
	s.Lock()
	defer s.Unlock()
	s.mustProject(path).Access = level
}

// AddUser makes a user exist (for assignees).
func (s *Server) AddUser(username string) {
	s.Lock()
	defer s.Unlock()
	s.User(username)
}

// AddMilestone creates a project milestone and returns its iid.
func (s *Server) AddMilestone(path, title string) int64 {
	s.Lock()
	defer s.Unlock()
	return s.State.AddMilestone(s.mustProject(path), title).IID
}

// AddIssue files an issue and returns its iid.
func (s *Server) AddIssue(path string, in Issue) int64 {
	s.Lock()
	defer s.Unlock()
	i := s.addItem(s.mustProject(path), in.Title, in.Description, fakeOr(in.Author, "root"), nil)
	i.Labels = append([]string(nil), in.Labels...)
	if in.State == "closed" {
		i.State, i.Closed = "closed", &i.Created
	}
	return i.Number
}

// AddMergeRequest opens a merge request and returns its iid.
func (s *Server) AddMergeRequest(path string, in MergeRequest) int64 {
	s.Lock()
	defer s.Unlock()
	p := s.mustProject(path)
	pull := &forgemodel.Pull{Head: in.Source, HeadSHA: p.Branches[in.Source], Base: fakeOr(in.Target, p.DefaultBranch), Status: in.Pipeline, Blocked: in.Blocked}
	return s.addItem(p, in.Title, in.Description, fakeOr(in.Author, "root"), pull).Number
}

// AddPipeline records a pipeline on a ref and returns its id.
func (s *Server) AddPipeline(path string, in Pipeline) int64 {
	s.Lock()
	defer s.Unlock()
	pl := s.addPipeline(s.mustProject(path), in.Ref, in.Status, "push", nil)
	for _, j := range in.Jobs {
		pl.Jobs = append(pl.Jobs, &forgemodel.Job{ID: s.ID(), Name: j.Name, Stage: "test", Status: j.Status, Log: j.Trace})
	}
	return pl.ID
}

// File is a file's content on a branch, and whether it exists.
func (s *Server) File(path, branch, file string) (string, bool) {
	s.Lock()
	defer s.Unlock()
	c, found := s.mustProject(path).Files[branch][file]
	return c, found
}

// Head is a branch's head commit ("" when there is no such branch).
func (s *Server) Head(path, branch string) string {
	s.Lock()
	defer s.Unlock()
	return s.mustProject(path).Branches[branch]
}

// Approvers lists who approved a merge request.
func (s *Server) Approvers(path string, iid int64) []string {
	s.Lock()
	defer s.Unlock()
	return s.mustProject(path).Pull(iid).Pull.Approvers()
}

// Variables are the CI/CD variables a pipeline was started with.
func (s *Server) Variables(path string, id int64) map[string]string {
	s.Lock()
	defer s.Unlock()
	if pl := s.mustProject(path).Run(id); pl != nil {
		return pl.Vars
	}
	return nil
}

func (s *Server) mustProject(path string) *forgemodel.Repo {
	p := s.Repo(path)
	if p == nil {
		panic(fmt.Sprintf("gitlabtest: no project %q (AddProject it first)", path))
	}
	return p
}

func (s *Server) addItem(p *forgemodel.Repo, title, desc, author string, pull *forgemodel.Pull) *forgemodel.Item {
	return s.AddItem(p, title, desc, author, "opened", pull)
}

func (s *Server) addPipeline(p *forgemodel.Repo, ref, status, source string, vars map[string]string) *forgemodel.Run {
	return s.AddRun(p, &forgemodel.Run{Ref: ref, SHA: p.Branches[ref], Status: status, Event: source, Vars: vars, Started: s.Tick()})
}
