package local

import (
	"context"
	"fmt"
	"strings"

	"github.com/forgetools/forgetools/toolserver"
)

// The local forge's answers for the gateway's trusted-author entries: an
// organisation's members and a repository's writers are what
// Options.Orgs and Repo.Writers configure, nothing else (every account can
// write everywhere on the local forge, so its own permissions say nothing
// about whom to trust).

var _ toolserver.AuthorVouch = (*Forge)(nil)

// seedPeople indexes the configured writers and organisation members.
func (f *Forge) seedPeople(repos []Repo, orgs map[string][]string) error {
	f.writers, f.members = map[string]map[string]bool{}, map[string]map[string]bool{}
	people := func(what string, logins []string) (map[string]bool, error) {
		set := map[string]bool{}
		for _, l := range logins {
			if l == "" || strings.ContainsAny(l, " \t\n/") {
				return nil, fmt.Errorf("local forge: %s: %q is not an account name", what, l)
			}
			set[strings.ToLower(l)] = true
		}
		return set, nil
	}
	for _, r := range repos {
		if len(r.Writers) == 0 {
			continue
		}
		set, err := people("writers of "+r.Name, r.Writers)
		if err != nil {
			return err
		}
		k := repoKey(r.Name)
		if f.writers[k] == nil {
			f.writers[k] = set
			continue
		}
		for l := range set {
			f.writers[k][l] = true
		}
	}
	for org, logins := range orgs {
		if org == "" || strings.ContainsAny(org, " /") {
			return fmt.Errorf("local forge: organisation %q is not a name", org)
		}
		set, err := people("members of organisation "+org, logins)
		if err != nil {
			return err
		}
		f.members[strings.ToLower(org)] = set
	}
	return nil
}

// OrgMember reports whether login is a configured member of org.
func (f *Forge) OrgMember(_ context.Context, _ toolserver.Call, org, login string) (bool, error) {
	return f.members[strings.ToLower(org)][strings.ToLower(login)], nil
}

// RepoWriter reports whether login is a configured writer of repo.
func (f *Forge) RepoWriter(_ context.Context, _ toolserver.Call, repo, login string) (bool, error) {
	return f.writers[repoKey(repo)][strings.ToLower(login)], nil
}
