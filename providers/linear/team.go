package linear

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/forgetools/forgetools/toolserver"
)

// team is a Linear team: the key the agent names it by and the UUID the
// mutations need.
type team struct {
	ID  string `json:"id"`
	Key string `json:"key"`
}

// teamKeyPattern admits what can prefix an identifier "KEY-123": letters,
// digits and underscores, never a dash or a slash.
var teamKeyPattern = regexp.MustCompile(`^[A-Za-z0-9_]{1,32}$`)

// parseTeamKey reads a forge call's repo as a Linear team key. Keys are
// upper case on Linear; a model that writes "eng" means "ENG". An
// "owner/name" repo is the most likely mistake, so the message says what
// Linear expects instead.
func parseTeamKey(repo string) (string, error) {
	key := strings.TrimSpace(repo)
	if !teamKeyPattern.MatchString(key) {
		return "", toolserver.InvalidArgument("repo %q is not a Linear team key: on Linear, repo is the team key, e.g. \"ENG\"", repo)
	}
	return strings.ToUpper(key), nil
}

// identifier is Linear's display key for issue number n of team key.
func identifier(key string, n uint64) string {
	return fmt.Sprintf("%s-%d", key, n)
}

// teamCache maps team keys to teams for the provider's lifetime (a team's
// id never changes). Concurrent lookups of one key share a single request;
// failures are not cached, so a team created later is found.
type teamCache struct {
	mu      sync.Mutex
	entries map[string]*teamEntry
}

type teamEntry struct {
	ready chan struct{} // closed when team/err are set
	team  team
	err   error
}

// team returns the team with this key, asking Linear at most once per key.
func (p *Provider) team(ctx context.Context, key string) (team, error) {
	c := &p.teams
	for {
		c.mu.Lock()
		if c.entries == nil {
			c.entries = map[string]*teamEntry{}
		}
		e, waiting := c.entries[key]
		if !waiting {
			e = &teamEntry{ready: make(chan struct{})}
			c.entries[key] = e
		}
		c.mu.Unlock()

		if !waiting {
			e.team, e.err = p.lookupTeam(ctx, key)
			if e.err != nil {
				c.mu.Lock()
				delete(c.entries, key)
				c.mu.Unlock()
			}
			close(e.ready)
			return e.team, e.err
		}
		select {
		case <-e.ready:
		case <-ctx.Done():
			return team{}, p.transportError(ctx, "look up team "+key, ctx.Err())
		}
		if e.err == nil {
			return e.team, nil
		}
		// The caller we waited on failed, perhaps only because its own
		// context ended: try again under ours.
	}
}

func (p *Provider) lookupTeam(ctx context.Context, key string) (team, error) {
	var a teamsAnswer
	if err := p.do(ctx, "look up team "+key, queryTeamByKey, keyVars{Key: key}, &a); err != nil {
		return team{}, err
	}
	for _, t := range a.Teams.Nodes {
		if t.Key == key && t.ID != "" {
			return t, nil
		}
	}
	return team{}, toolserver.NotFound("linear: no team with key %q is visible to this credential", key)
}

// labelIDs resolves label names to the ids issueCreate takes, among the
// team's labels and the workspace's (labels with no team); a team label
// wins over a workspace label of the same name. Names match exactly, as
// Linear's filter does. Any unknown name fails the whole create, naming it,
// so an issue is never filed without a label the agent asked for.
func (p *Provider) labelIDs(ctx context.Context, t team, names []string) ([]string, error) {
	var wanted []string
	for _, n := range names {
		if !slices.Contains(wanted, n) {
			wanted = append(wanted, n)
		}
	}
	if len(wanted) == 0 {
		return nil, nil
	}
	yes := true
	filter := labelFilter{And: []*labelFilter{
		{Name: &stringCmp{In: wanted}},
		{Or: []*labelFilter{{Team: &teamRef{ID: &idCmp{Eq: t.ID}}}, {Team: &teamRef{Null: &yes}}}},
	}}
	var a labelsAnswer
	if err := p.do(ctx, "look up labels in "+t.Key, queryLabels, filterVars[labelFilter]{Filter: filter}, &a); err != nil {
		return nil, err
	}
	teamLabel, workspaceLabel := map[string]string{}, map[string]string{}
	for _, l := range a.IssueLabels.Nodes {
		switch {
		case l.Team == nil:
			workspaceLabel[l.Name] = l.ID
		case l.Team.ID == t.ID:
			teamLabel[l.Name] = l.ID
		}
	}
	var ids, unknown []string
	for _, n := range wanted {
		switch {
		case teamLabel[n] != "":
			ids = append(ids, teamLabel[n])
		case workspaceLabel[n] != "":
			ids = append(ids, workspaceLabel[n])
		default:
			unknown = append(unknown, fmt.Sprintf("%q", n))
		}
	}
	if len(unknown) > 0 {
		return nil, toolserver.InvalidArgument("linear: unknown label(s) for team %s: %s (labels must already exist in Linear)", t.Key, strings.Join(unknown, ", "))
	}
	return ids, nil
}
