package githubtest

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"time"
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
	s.Lock()
	id := s.addComment(s.mustRepo(fullName), s.mustItem(fullName, number), login, body).id
	s.Unlock()
	s.flush()
	return id
}

// Review submits a review as login (state APPROVED, CHANGES_REQUESTED or
// COMMENTED) with its inline comments, and returns its id.
func (s *Server) Review(fullName string, number int, login, state, body string, inline ...Inline) int64 {
	s.Lock()
	it := s.mustItem(fullName, number)
	if it.pull == nil {
		s.Unlock()
		panic(fmt.Sprintf("githubtest: %s#%d is not a pull request", fullName, number))
	}
	id := s.addReview(s.mustRepo(fullName), it, login, state, body, inline).id
	s.Unlock()
	s.flush()
	return id
}

// SetState closes or reopens an issue or pull request (as the
// repository's owner).
func (s *Server) SetState(fullName string, number int, state string) {
	s.Lock()
	r, it := s.mustRepo(fullName), s.mustItem(fullName, number)
	it.state = state
	it.updated = s.Tick()
	action := "reopened"
	it.closed, it.stateReason = time.Time{}, "reopened"
	if state == "closed" {
		it.closed, it.stateReason, action = it.updated, "completed", "closed"
	}
	s.itemEvent(r, it, action, r.owner)
	s.Unlock()
	s.flush()
}

// Merge merges an open pull request (it is closed and merged).
func (s *Server) Merge(fullName string, number int) {
	s.Lock()
	r, it := s.mustRepo(fullName), s.mustItem(fullName, number)
	it.pull.headSHA = r.headSHA(it.pull) // a merged pull request keeps its last head
	it.state, it.pull.merged, it.pull.mergedBy, it.stateReason = "closed", true, r.owner, ""
	it.updated = s.Tick()
	it.closed = it.updated
	s.itemEvent(r, it, "closed", r.owner)
	s.Unlock()
	s.flush()
}

// SetLabels replaces the labels of an issue or pull request.
func (s *Server) SetLabels(fullName string, number int, labels ...string) {
	s.Lock()
	r, it := s.mustRepo(fullName), s.mustItem(fullName, number)
	before := it.labels
	it.labels = slices.Clone(labels)
	it.updated = s.Tick()
	s.labelEvents(r, it, before, r.owner)
	s.Unlock()
	s.flush()
}

// labelEvents are the labeled and unlabeled events of it's labels
// replacing before; s.mu is held.
func (s *Server) labelEvents(r *repo, it *item, before []string, sender string) {
	for _, l := range it.labels {
		if !slices.Contains(before, l) {
			s.itemEvent(r, it, "labeled", sender, "label", s.labelsJSON(r, []string{l})[0])
		}
	}
	for _, l := range before {
		if !slices.Contains(it.labels, l) {
			s.itemEvent(r, it, "unlabeled", sender, "label", s.labelsJSON(r, []string{l})[0])
		}
	}
}

// Push moves a pull request's head to a new commit (with no check runs
// yet) and returns its sha: a commit on the head branch, or a new head sha
// when the head is not a branch of the repository.
func (s *Server) Push(fullName string, number int) string {
	s.Lock()
	r := s.mustRepo(fullName)
	it := s.mustItem(fullName, number)
	p := it.pull
	before := r.headSHA(p)
	if c := r.commits[before]; c != nil && r.hasBranch(p.head) && !p.merged {
		r.branches[p.head] = s.commit(r, []string{before}, it.author, "Push to "+p.head, maps.Clone(c.tree)).sha
	} else {
		p.headSHA = hashOf(before, "push")
	}
	p.checks = nil
	it.updated = s.Tick()
	sha := r.headSHA(p)
	s.itemEvent(r, it, "synchronize", it.author, "before", before, "after", sha)
	s.Unlock()
	s.flush()
	return sha
}

// SetCheckRun creates or updates the check run called name on a pull
// request's head: status queued, in_progress or completed, with a
// conclusion (success, failure, ...) once completed.
//
// Hooks hear of a new run (created) and of a run that completes
// (completed).
func (s *Server) SetCheckRun(fullName string, number int, name, status, conclusion string) {
	s.Lock()
	r, it := s.mustRepo(fullName), s.mustItem(fullName, number)
	var run *checkRun
	action := "created"
	for _, c := range it.pull.checks {
		if c.Name == name {
			run, action = c, ""
		}
	}
	if run == nil {
		run = &checkRun{CheckRun: CheckRun{Name: name}, id: s.ID(), started: s.Tick()}
		it.pull.checks = append(it.pull.checks, run)
	}
	run.Status, run.Conclusion = status, conclusion
	if action == "" && status == "completed" {
		action = "completed"
	}
	if action != "" {
		s.checkRunEvent(r, it, run, action)
	}
	s.Unlock()
	s.flush()
}

func (s *Server) mustItem(fullName string, number int) *item {
	it := s.mustRepo(fullName).item(number)
	if it == nil {
		panic(fmt.Sprintf("githubtest: no #%d in %s", number, fullName))
	}
	return it
}

func (s *Server) addComment(r *repo, it *item, login, body string) *comment {
	c := &comment{id: s.ID(), author: login, body: body, created: s.Tick()}
	s.User(login)
	it.comments = append(it.comments, c)
	it.updated = c.created
	s.emit(r, "issue_comment", s.payload("created", login, "issue", s.issueJSON(r, it), "comment", s.commentJSON(r, it, c)))
	return c
}

func (s *Server) addReview(r *repo, it *item, login, state, body string, inline []Inline) *review {
	v := &review{id: s.ID(), author: login, body: body, state: state, created: s.Tick()}
	s.User(login)
	var added []*reviewComment
	for _, c := range inline {
		rc := &reviewComment{
			id: s.ID(), reviewID: v.id, author: login, path: c.Path, line: c.Line, side: cmp.Or(c.Side, "RIGHT"), body: c.Body, created: v.created,
		}
		it.pull.inline = append(it.pull.inline, rc)
		added = append(added, rc)
	}
	it.pull.reviews = append(it.pull.reviews, v)
	if state == "PENDING" {
		return v
	}
	it.updated = v.created
	s.emit(r, "pull_request_review", s.payload("submitted", login, "review", s.reviewJSON(r, it, v), "pull_request", s.pullJSON(r, it)))
	for _, rc := range added {
		s.emit(r, "pull_request_review_comment", s.payload("created", login, "comment", s.reviewCommentJSON(r, it, rc), "pull_request", s.pullJSON(r, it)))
	}
	return v
}
