package githubtest

import "fmt"

// Transfer moves issue number of fromRepo to toRepo, where it gets the next
// number, which Transfer returns. As on GitHub, the old number is not
// reused: requests for it (and below it: its comments) answer 301 with the
// issue's new address, /repositories/ID/issues/N.
func (s *Server) Transfer(fromRepo string, number int, toRepo string) int {
	s.Lock()
	defer s.Unlock()
	from, to := s.mustRepo(fromRepo), s.mustRepo(toRepo)
	it := from.item(number)
	if it == nil || it.pull != nil || it.moved != nil {
		panic(fmt.Sprintf("githubtest: no issue #%d in %s to transfer", number, fromRepo))
	}
	moved := *it
	moved.number = len(to.items) + 1
	to.items = append(to.items, &moved)
	it.moved = &movedTo{repo: to, number: moved.number}
	return moved.number
}

// movedTo is where a transferred issue went.
type movedTo struct {
	repo   *repo
	number int
}

// movedAnswer is GitHub's 301 for a transferred issue: the new address,
// with the rest of the path and the query kept.
func (s *Server) movedAnswer(m *movedTo, rest, query string) answer {
	loc := s.api("/repositories/%d/issues/%d", m.repo.id, m.number) + rest
	if query != "" {
		loc += "?" + query
	}
	return redirectAnswer(loc)
}
