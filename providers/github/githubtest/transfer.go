package githubtest

import (
	"fmt"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// Transfer moves issue number of fromRepo to toRepo, where it gets the next
// number, which Transfer returns. As on GitHub, the old number is not
// reused: requests for it (and below it: its comments) answer 301 with the
// issue's new address, /repositories/ID/issues/N.
func (s *Server) Transfer(fromRepo string, number int, toRepo string) int {
	s.Lock()
	defer s.Unlock()
	from, to := s.mustRepo(fromRepo), s.mustRepo(toRepo)
	it := itemN(from, number)
	if it == nil || it.Pull != nil || it.Moved != nil {
		panic(fmt.Sprintf("githubtest: no issue #%d in %s to transfer", number, fromRepo))
	}
	moved := *it
	moved.Number = int64(len(to.Items) + 1)
	to.Items = append(to.Items, &moved)
	it.Moved = &forgemodel.Moved{Repo: to, Number: moved.Number}
	return int(moved.Number)
}

// movedAnswer is GitHub's 301 for a transferred issue: the new address,
// with the rest of the path and the query kept.
func (s *Server) movedAnswer(m *forgemodel.Moved, rest, query string) answer {
	loc := s.api("/repositories/%d/issues/%d", m.Repo.ID, m.Number) + rest
	if query != "" {
		loc += "?" + query
	}
	return redirectAnswer(loc)
}
