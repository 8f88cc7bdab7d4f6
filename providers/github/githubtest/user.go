package githubtest

import (
	"net/url"
	"slices"
	"strings"
)

// The authenticated user's view: GET /user/repos.

// repoWithPermissions is a repository as /user/repos lists it: with the
// caller's permissions.
type repoWithPermissions struct {
	repoJSON
	Permissions map[string]bool `json:"permissions"`
}

// SetPermission sets the caller's permission on a repository as GitHub
// reports it: admin, maintain, push, triage or pull (the default is
// admin). A repository with permission "none" is not listed.
func (s *Server) SetPermission(fullName, perm string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.perms == nil {
		s.perms = map[string]string{}
	}
	s.mustRepo(fullName)
	s.perms[strings.ToLower(fullName)] = perm
}

// userRepos lists every repository the caller can reach, sorted by full
// name, paged with GitHub's Link header.
func (s *Server) userRepos(path string, q url.Values) answer {
	levels := []string{"pull", "triage", "push", "maintain", "admin"}
	var names []string
	for k := range s.repos {
		if s.perms[k] != "none" {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	return page(s, path, q, names, func(k string) any {
		perm := s.perms[k]
		if perm == "" {
			perm = "admin"
		}
		out := repoWithPermissions{repoJSON: s.repoJSON(s.repos[k]), Permissions: map[string]bool{}}
		at := slices.Index(levels, perm)
		for i, l := range levels {
			out.Permissions[l] = i <= at
		}
		return out
	})
}
