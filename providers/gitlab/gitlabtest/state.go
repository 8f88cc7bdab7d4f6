package gitlabtest

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

// What the fake holds. Issues and merge requests have separate iid
// sequences per project, as on GitLab.

type project struct {
	id            int64
	path          string // full path, "group/sub/name"
	defaultBranch string
	access        int // the credential's access level: 50 owner ... 10 guest
	branches      map[string]string
	files         map[string]map[string]string
	lastCommit    map[string]map[string]string // branch -> path -> last commit touching it
	issues        []*issue
	mrs           []*mr
	milestones    []*milestone
	pipelines     []*pipeline
	commits       int
}

type issue struct {
	id          int64
	iid         int64
	title, desc string
	state       string // opened, closed
	labels      []string
	assignees   []string
	milestone   *milestone
	author      string
	created     time.Time
	updated     time.Time
	closed      *time.Time
	notes       []*note
}

type note struct {
	id       int64
	author   string
	body     string
	created  time.Time
	position map[string]any // a diff note's position, nil otherwise
}

type mr struct {
	id          int64
	iid         int64
	title, desc string
	state       string // opened, closed, merged
	source      string
	target      string
	author      string
	created     time.Time
	updated     time.Time
	approvedBy  []string
	notes       []*note
	mergeSHA    string
	squashSHA   string
	pipeline    string // head pipeline status, "" for none
	blocked     bool   // not mergeable
}

type milestone struct {
	id, iid int64
	title   string
}

type pipeline struct {
	id      int64
	iid     int64
	ref     string
	sha     string
	status  string
	source  string
	vars    map[string]string
	created time.Time
	jobs    []*job
}

type job struct {
	id     int64
	name   string
	stage  string
	status string
	trace  string
}

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
	s.mu.Lock()
	defer s.mu.Unlock()
	p := &project{
		id: s.n.ID(), path: path, defaultBranch: defaultBranch, access: 50,
		branches: map[string]string{}, files: map[string]map[string]string{}, lastCommit: map[string]map[string]string{},
	}
	s.projects[strings.ToLower(path)] = p
	for _, b := range append([]string{defaultBranch}, branches...) {
		p.files[b] = maps.Clone(files)
		p.branches[b] = p.commitID(b, 0)
		p.lastCommit[b] = map[string]string{}
		for f := range files {
			p.lastCommit[b][f] = p.branches[b]
		}
	}
}

// SetAccess sets the credential's access level on a project (50 owner, 40
// maintainer, 30 developer, 20 reporter, 10 guest).
func (s *Server) SetAccess(path string, level int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustProject(path).access = level
}

// AddUser makes a user exist (for assignees).
func (s *Server) AddUser(username string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n.User(username)
}

// AddMilestone creates a project milestone and returns its iid.
func (s *Server) AddMilestone(path, title string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.mustProject(path)
	m := &milestone{id: s.n.ID(), iid: int64(len(p.milestones) + 1), title: title}
	p.milestones = append(p.milestones, m)
	return m.iid
}

// AddIssue files an issue and returns its iid.
func (s *Server) AddIssue(path string, in Issue) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.mustProject(path)
	i := s.addIssue(p, in.Title, in.Description, fakewire.Or(in.Author, "root"), in.Labels)
	if in.State == "closed" {
		i.state, i.closed = "closed", &i.created
	}
	return i.iid
}

// AddMergeRequest opens a merge request and returns its iid.
func (s *Server) AddMergeRequest(path string, in MergeRequest) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.mustProject(path)
	m := s.addMR(p, in.Title, in.Description, fakewire.Or(in.Author, "root"), in.Source, fakewire.Or(in.Target, p.defaultBranch))
	m.pipeline, m.blocked = in.Pipeline, in.Blocked
	return m.iid
}

// AddPipeline records a pipeline on a ref and returns its id.
func (s *Server) AddPipeline(path string, in Pipeline) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.mustProject(path)
	pl := s.addPipeline(p, in.Ref, in.Status, "push", nil)
	for _, j := range in.Jobs {
		pl.jobs = append(pl.jobs, &job{id: s.n.ID(), name: j.Name, stage: "test", status: j.Status, trace: j.Trace})
	}
	return pl.id
}

// File is a file's content on a branch, and whether it exists.
func (s *Server) File(path, branch, file string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, found := s.mustProject(path).files[branch][file]
	return c, found
}

// Head is a branch's head commit ("" when there is no such branch).
func (s *Server) Head(path, branch string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mustProject(path).branches[branch]
}

// Approvers lists who approved a merge request.
func (s *Server) Approvers(path string, iid int64) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.mustProject(path).mr(iid).approvedBy)
}

func (s *Server) mustProject(path string) *project {
	p := s.projects[strings.ToLower(path)]
	if p == nil {
		panic(fmt.Sprintf("gitlabtest: no project %q (AddProject it first)", path))
	}
	return p
}

func (s *Server) addIssue(p *project, title, desc, author string, labels []string) *issue {
	t := s.n.Tick()
	i := &issue{id: s.n.ID(), iid: int64(len(p.issues) + 1), title: title, desc: desc, state: "opened",
		labels: slices.Clone(labels), author: author, created: t, updated: t}
	s.n.User(author)
	p.issues = append(p.issues, i)
	return i
}

func (s *Server) addMR(p *project, title, desc, author, source, target string) *mr {
	t := s.n.Tick()
	m := &mr{id: s.n.ID(), iid: int64(len(p.mrs) + 1), title: title, desc: desc, state: "opened",
		source: source, target: target, author: author, created: t, updated: t}
	s.n.User(author)
	p.mrs = append(p.mrs, m)
	return m
}

func (s *Server) addPipeline(p *project, ref, status, source string, vars map[string]string) *pipeline {
	pl := &pipeline{id: s.n.ID(), iid: int64(len(p.pipelines) + 1), ref: ref, sha: p.branches[ref],
		status: status, source: source, vars: vars, created: s.n.Tick()}
	p.pipelines = append(p.pipelines, pl)
	return pl
}

func (p *project) issue(iid int64) *issue {
	if iid < 1 || iid > int64(len(p.issues)) {
		return nil
	}
	return p.issues[iid-1]
}

func (p *project) mr(iid int64) *mr {
	if iid < 1 || iid > int64(len(p.mrs)) {
		return nil
	}
	return p.mrs[iid-1]
}

func (p *project) pipeline(id int64) *pipeline {
	for _, pl := range p.pipelines {
		if pl.id == id {
			return pl
		}
	}
	return nil
}

// commit records a new head for branch, touching files, and returns it.
func (p *project) commit(branch string, files ...string) string {
	p.commits++
	sha := p.commitID(branch, p.commits)
	p.branches[branch] = sha
	for _, f := range files {
		p.lastCommit[branch][f] = sha
	}
	return sha
}

func (p *project) commitID(branch string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s@%s#%d", p.path, branch, n)
	for _, k := range slices.Sorted(maps.Keys(p.files[branch])) {
		b.WriteString(k + "=" + p.files[branch][k])
	}
	sum := sha1.Sum([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}
