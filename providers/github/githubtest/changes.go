package githubtest

import (
	"fmt"
	"slices"
)

// What happens to an issue or pull request while nobody from forgetools
// looks: other people comment and review, maintainers close, merge and
// label, CI runs, the author pushes. Each moves the artifact's updated_at
// (and so its ETag), as on GitHub; check runs do not, as on GitHub, where
// they belong to the commit.

// Inline is an inline comment of a review.
type Inline struct {
	Path string
	Line int
	Side string // "" = RIGHT
	Body string
}

// Comment posts a conversation comment as login and returns its id.
func (s *Server) Comment(fullName string, number int, login, body string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addComment(s.mustItem(fullName, number), login, body).id
}

// Review submits a review as login (state APPROVED, CHANGES_REQUESTED or
// COMMENTED) with its inline comments, and returns its id.
func (s *Server) Review(fullName string, number int, login, state, body string, inline ...Inline) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	it := s.mustItem(fullName, number)
	if it.pull == nil {
		panic(fmt.Sprintf("githubtest: %s#%d is not a pull request", fullName, number))
	}
	return s.addReview(it, login, state, body, inline).id
}

// SetState closes or reopens an issue or pull request.
func (s *Server) SetState(fullName string, number int, state string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	it := s.mustItem(fullName, number)
	it.state = state
	it.updated = s.tick()
	if state == "closed" {
		it.closed = it.updated
	}
}

// Merge merges an open pull request (it is closed and merged).
func (s *Server) Merge(fullName string, number int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	it := s.mustItem(fullName, number)
	it.state, it.pull.merged = "closed", true
	it.updated = s.tick()
	it.closed = it.updated
}

// SetLabels replaces the labels of an issue or pull request.
func (s *Server) SetLabels(fullName string, number int, labels ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	it := s.mustItem(fullName, number)
	it.labels = slices.Clone(labels)
	it.updated = s.tick()
}

// Push moves a pull request's head to a new commit (with no check runs
// yet) and returns its sha.
func (s *Server) Push(fullName string, number int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(fullName)
	it := s.mustItem(fullName, number)
	it.pull.pushes++
	it.pull.headSHA = headSHA(r, number, it.pull.pushes)
	it.pull.checks = nil
	it.updated = s.tick()
	return it.pull.headSHA
}

// SetCheckRun creates or updates the check run called name on a pull
// request's head: status queued, in_progress or completed, with a
// conclusion (success, failure, ...) once completed.
func (s *Server) SetCheckRun(fullName string, number int, name, status, conclusion string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	it := s.mustItem(fullName, number)
	for _, c := range it.pull.checks {
		if c.name == name {
			c.status, c.conclusion = status, conclusion
			return
		}
	}
	it.pull.checks = append(it.pull.checks, &checkRun{id: s.newID(), name: name, status: status, conclusion: conclusion, started: s.tick()})
}

func (s *Server) mustItem(fullName string, number int) *item {
	it := s.mustRepo(fullName).item(number)
	if it == nil {
		panic(fmt.Sprintf("githubtest: no #%d in %s", number, fullName))
	}
	return it
}

func (s *Server) addComment(it *item, login, body string) *comment {
	c := &comment{id: s.newID(), author: login, body: body, created: s.tick()}
	s.user(login)
	it.comments = append(it.comments, c)
	it.updated = c.created
	return c
}

func (s *Server) addReview(it *item, login, state, body string, inline []Inline) *review {
	v := &review{id: s.newID(), author: login, body: body, state: state, created: s.tick()}
	s.user(login)
	for _, c := range inline {
		it.pull.inline = append(it.pull.inline, &reviewComment{
			id: s.newID(), reviewID: v.id, author: login, path: c.Path, line: c.Line, side: or(c.Side, "RIGHT"), body: c.Body, created: v.created,
		})
	}
	it.pull.reviews = append(it.pull.reviews, v)
	if state != "PENDING" {
		it.updated = v.created
	}
	return v
}
