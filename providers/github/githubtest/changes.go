package githubtest

import (
	"github.com/forgetools/forgetools/internal/forgemodel"

	"fmt"
	"maps"
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
	s.Lock()
	id := s.addComment(s.mustRepo(fullName), s.mustItem(fullName, number), login, body).ID
	s.Unlock()
	s.Flush()
	return id
}

// Review submits a review as login (state APPROVED, CHANGES_REQUESTED or
// COMMENTED) with its inline comments, and returns its id.
func (s *Server) Review(fullName string, number int, login, state, body string, inline ...Inline) int64 {
	s.Lock()
	it := s.mustItem(fullName, number)
	if it.Pull == nil {
		s.Unlock()
		panic(fmt.Sprintf("githubtest: %s#%d is not a pull request", fullName, number))
	}
	id := s.addReview(s.mustRepo(fullName), it, login, state, body, inline).ID
	s.Unlock()
	s.Flush()
	return id
}

// SetState closes or reopens an issue or pull request (as the
// repository's owner).
func (s *Server) SetState(fullName string, number int, state string) {
	s.Lock()
	r, it := s.mustRepo(fullName), s.mustItem(fullName, number)
	it.State = state
	it.Updated = s.Tick()
	action := "reopened"
	it.Closed, it.StateReason = nil, "reopened"
	if state == "closed" {
		closed := it.Updated
		it.Closed, it.StateReason, action = &closed, "completed", "closed"
	}
	s.itemEvent(r, it, action, owner(r))
	s.Unlock()
	s.Flush()
}

// Merge merges an open pull request (it is closed and merged).
func (s *Server) Merge(fullName string, number int) {
	s.Lock()
	r, it := s.mustRepo(fullName), s.mustItem(fullName, number)
	it.Pull.HeadSHA = r.PullHead(it.Pull) // a merged pull request keeps its last head
	it.State, it.Pull.Merged, it.Pull.MergedBy, it.StateReason = "closed", true, owner(r), ""
	it.Updated = s.Tick()
	closed := it.Updated
	it.Closed = &closed
	s.itemEvent(r, it, "closed", owner(r))
	s.Unlock()
	s.Flush()
}

// SetLabels replaces the labels of an issue or pull request.
func (s *Server) SetLabels(fullName string, number int, labels ...string) {
	s.Lock()
	r, it := s.mustRepo(fullName), s.mustItem(fullName, number)
	before := it.Labels
	it.Labels = slices.Clone(labels)
	it.Updated = s.Tick()
	s.labelEvents(r, it, before, owner(r))
	s.Unlock()
	s.Flush()
}

// labelEvents are the labeled and unlabeled events of it's labels
// replacing before; the lock is held.
func (s *Server) labelEvents(r *repo, it *item, before []string, sender string) {
	for _, l := range it.Labels {
		if !slices.Contains(before, l) {
			s.itemEvent(r, it, "labeled", sender, "label", s.labelsJSON(r, []string{l})[0])
		}
	}
	for _, l := range before {
		if !slices.Contains(it.Labels, l) {
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
	p := it.Pull
	before := r.PullHead(p)
	if c := r.Commits[before]; c != nil && hasBranch(r, p.Head) && !p.Merged {
		r.Branches[p.Head] = s.NewCommit(r, []string{before}, it.Author, "Push to "+p.Head, maps.Clone(c.Tree)).SHA
	} else {
		p.HeadSHA = hashOf(before, "push")
	}
	p.Checks = nil
	it.Updated = s.Tick()
	sha := r.PullHead(p)
	s.itemEvent(r, it, "synchronize", it.Author, "before", before, "after", sha)
	s.Unlock()
	s.Flush()
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
	for _, c := range it.Pull.Checks {
		if c.Name == name {
			run, action = c, ""
		}
	}
	if run == nil {
		run = &checkRun{Name: name, ID: s.ID(), Started: s.Tick()}
		it.Pull.Checks = append(it.Pull.Checks, run)
	}
	run.Status, run.Conclusion = status, conclusion
	if action == "" && status == "completed" {
		action = "completed"
	}
	if action != "" {
		s.checkRunEvent(r, it, run, action)
	}
	s.Unlock()
	s.Flush()
}

func (s *Server) mustItem(fullName string, number int) *item {
	it := s.mustRepo(fullName).Issue(int64(number))
	if it == nil {
		panic(fmt.Sprintf("githubtest: no #%d in %s", number, fullName))
	}
	return it
}

func (s *Server) addComment(r *repo, it *item, login, body string) *comment {
	c := s.AddComment(&it.Comments, login, body, nil)
	it.Updated = c.Created
	s.emit(r, "issue_comment", s.payload("created", login, "issue", s.issueJSON(r, it), "comment", s.commentJSON(r, it, c)))
	return c
}

func (s *Server) addReview(r *repo, it *item, login, state, body string, in []Inline) *review {
	v := &review{ID: s.ID(), Author: login, Body: body, State: state, Commit: r.PullHead(it.Pull), Created: s.Tick()}
	s.User(login)
	var added []inline
	for _, c := range in {
		rc := &forgemodel.ReviewComment{ID: s.ID(), Path: c.Path, Body: c.Body}
		if c.Side == "LEFT" {
			rc.OldLine = int64(c.Line)
		} else {
			rc.NewLine = int64(c.Line)
		}
		v.Comments = append(v.Comments, rc)
		added = append(added, inline{rc, v})
	}
	it.Pull.Reviews = append(it.Pull.Reviews, v)
	if state == "PENDING" {
		return v
	}
	it.Updated = v.Created
	s.emit(r, "pull_request_review", s.payload("submitted", login, "review", s.reviewJSON(r, it, v), "pull_request", s.pullJSON(r, it)))
	for _, rc := range added {
		s.emit(r, "pull_request_review_comment", s.payload("created", login, "comment", s.reviewCommentJSON(r, it, rc), "pull_request", s.pullJSON(r, it)))
	}
	return v
}
