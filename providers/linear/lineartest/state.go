package lineartest

import (
	"fmt"
	"time"

	"github.com/google/uuid"
)

// What the fake holds, and how a test seeds it.

type state struct {
	teams    []*team
	labels   []*label
	issues   []*issue
	comments []*comment
	people   map[User]*user
	ticks    int
}

type team struct {
	id, key, name string
	last          int // the last issue number used
}

type label struct {
	id, name string
	team     *team // nil for a workspace label
}

type user struct {
	id string
	User
}

type issue struct {
	id, identifier string
	number         int
	title          string
	description    *string
	team           *team
	stateType      string
	creator        *user
	labels         []*label
	created        time.Time
}

type comment struct {
	id, body string
	user     *user
	issue    *issue
	created  time.Time
}

// ids are derived from what they name, so a seeded workspace has the same
// ids in every run, and laid out as version 4 UUIDs, as Linear's are.
var idSpace = uuid.MustParse("5d1c2a7e-0f4b-4c8e-9a3d-7b6e5f4a3c2b")

func newID(kind string, parts ...any) string {
	u := uuid.NewSHA1(idSpace, fmt.Appendf(nil, "%s:%v", kind, parts))
	u[6] = u[6]&0x0f | 0x40
	return u.String()
}

// AddTeam creates a team and returns its id.
func (s *Server) AddTeam(key, name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := &team{id: newID("team", key), key: key, name: name}
	s.teams = append(s.teams, t)
	return t.id
}

// AddLabel creates a label in the team with key teamKey, or a workspace
// label when teamKey is "", and returns its id.
func (s *Server) AddLabel(teamKey, name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := &label{id: newID("label", teamKey, name), name: name}
	if teamKey != "" {
		l.team = s.mustTeam(teamKey)
	}
	s.labels = append(s.labels, l)
	return l.id
}

// Issue is an issue to seed a team with.
type Issue struct {
	Title, Description string
	// State is the workflow state type: triage, backlog, unstarted,
	// started, completed or canceled; "" = backlog.
	State string
	// Labels are label names, each the team's or else the workspace's.
	Labels []string
	// Creator is nil for an issue an integration filed.
	Creator *User
}

// AddIssue files an issue in the team and returns its identifier.
func (s *Server) AddIssue(teamKey string, in Issue) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.mustTeam(teamKey)
	var creator *user
	if in.Creator != nil {
		creator = s.person(*in.Creator)
	}
	var labels []*label
	for _, n := range in.Labels {
		l := s.labelNamed(t, n)
		if l == nil {
			panic(fmt.Sprintf("lineartest: no label %q for team %s (AddLabel it first)", n, teamKey))
		}
		labels = append(labels, l)
	}
	i := s.fileIssue("", t, in.Title, in.Description, creator, labels)
	if in.State != "" {
		i.stateType = in.State
	}
	return i.identifier
}

// IssueID is the id of the issue with this identifier ("ENG-1"), or ""
// when there is none.
func (s *Server) IssueID(identifier string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := s.findIssue(identifier); i != nil {
		return i.id
	}
	return ""
}

// Issues is how many issues the workspace holds.
func (s *Server) Issues() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.issues)
}

func (s *Server) mustTeam(key string) *team {
	for _, t := range s.teams {
		if t.key == key {
			return t
		}
	}
	panic(fmt.Sprintf("lineartest: no team %q (AddTeam it first)", key))
}

func (s *Server) labelNamed(t *team, name string) *label {
	var workspace *label
	for _, l := range s.labels {
		switch {
		case l.name != name:
		case l.team == t:
			return l
		case l.team == nil:
			workspace = l
		}
	}
	return workspace
}

func (s *Server) person(u User) *user {
	if s.people == nil {
		s.people = map[User]*user{}
	}
	p, ok := s.people[u]
	if !ok {
		p = &user{id: newID("user", u.Name, u.DisplayName), User: u}
		s.people[u] = p
	}
	return p
}

// fileIssue creates an issue with the given id ("" = a new one).
func (s *Server) fileIssue(id string, t *team, title, description string, creator *user, labels []*label) *issue {
	t.last++
	if id == "" {
		id = newID("issue", t.key, t.last)
	}
	i := &issue{
		id: id, identifier: fmt.Sprintf("%s-%d", t.key, t.last), number: t.last, title: title,
		team: t, stateType: "backlog", creator: creator, labels: labels, created: s.tick(),
	}
	if description != "" {
		i.description = &description
	}
	s.issues = append(s.issues, i)
	return i
}

// tick is the time of the next thing created: a second after the last.
func (s *Server) tick() time.Time {
	s.ticks++
	return s.clock.Add(time.Duration(s.ticks) * time.Second)
}
