package githubtest

import (
	"net/url"
	"slices"
)

// The authenticated user's view: GET /user and GET /user/repos.

// publicUserJSON is GET /user's answer as GitHub's description requires
// it of a public user: the profile members the fake does not model are
// null or zero.
type publicUserJSON struct {
	userJSON
	Name        *string `json:"name"`
	Company     *string `json:"company"`
	Blog        *string `json:"blog"`
	Location    *string `json:"location"`
	Email       *string `json:"email"`
	Hireable    *bool   `json:"hireable"`
	Bio         *string `json:"bio"`
	PublicRepos int     `json:"public_repos"`
	PublicGists int     `json:"public_gists"`
	Followers   int     `json:"followers"`
	Following   int     `json:"following"`
	CreatedAt   string  `json:"created_at"`
	UpdatedAt   string  `json:"updated_at"`
}

// me is GET /user: the credential's own user.
func (s *Server) me(login string) publicUserJSON {
	return publicUserJSON{userJSON: s.userJSON(login), CreatedAt: stamp(s.clock), UpdatedAt: stamp(s.clock)}
}

// repoWithPermissions is a repository as /user/repos lists it: with the
// caller's permissions.
type repoWithPermissions struct {
	richRepoJSON
	Permissions map[string]bool `json:"permissions"`
}

// userRepos lists every repository the caller can reach, sorted by full
// name, paged with GitHub's Link header, each with the caller's
// permissions as GitHub spells them (pull, triage, push, maintain, admin:
// a role grants its own and every lower one). A repository where the
// caller's role is "none" (SetPermission) is not listed.
func (s *Server) userRepos(path string, q url.Values, login string) answer {
	levels := []string{"pull", "triage", "push", "maintain", "admin"}
	roles := []string{"read", "triage", "write", "maintain", "admin"}
	var names []string
	for k, r := range s.Repos {
		if role(r, login) != "none" {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	return page(s, path, q, names, func(k string) any {
		r := s.Repos[k]
		out := repoWithPermissions{richRepoJSON: s.richRepoJSON(r), Permissions: map[string]bool{}}
		at := slices.Index(roles, role(r, login))
		for i, l := range levels {
			out.Permissions[l] = i <= at
		}
		return out
	})
}
