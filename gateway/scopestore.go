package gateway

import (
	"context"
	"sync"
	"time"
)

// An account's scope can live in the store as well as in its
// configuration: `forgetools scope add|remove` writes it there. Once the
// store holds a scope for an account (its first change seeds it with the
// configured entries), the stored scope is the whole scope and the
// configured one is ignored. The store wins, rather than the two being
// joined, so that an operator can take back an entry the configuration
// granted; `forgetools scope list` says which one applies. An account the
// store knows nothing of keeps its configured scope.

// DefaultScopeRefresh is Config.ScopeRefresh's default: how soon a change
// to a stored scope reaches a running gateway.
const DefaultScopeRefresh = 2 * time.Second

// scopeCache keeps each account's effective scope for the refresh interval.
type scopeCache struct {
	mu      sync.Mutex
	entries map[string]cachedScope
}

type cachedScope struct {
	sc    scope
	until time.Time
}

// scopeOf is the account's effective scope: its stored scope when the
// store has one, else its configured scope. A store that cannot be read
// fails the call; it never falls back to a scope the operator may have
// revoked.
func (s *Service) scopeOf(ctx context.Context, a *account) (scope, error) {
	refresh := s.cfg.scopeRefresh
	now := time.Now()
	if refresh > 0 {
		s.scopes.mu.Lock()
		c, ok := s.scopes.entries[a.Name]
		s.scopes.mu.Unlock()
		if ok && now.Before(c.until) {
			return c.sc, nil
		}
	}
	entries, stored, err := s.store.StoredScope(ctx, a.Name)
	if err != nil {
		return scope{}, err
	}
	sc := a.scope
	if stored {
		sc = s.storedScope(a.Name, entries)
	}
	if refresh > 0 {
		s.scopes.mu.Lock()
		if s.scopes.entries == nil {
			s.scopes.entries = map[string]cachedScope{}
		}
		s.scopes.entries[a.Name] = cachedScope{sc: sc, until: now.Add(refresh)}
		s.scopes.mu.Unlock()
	}
	return sc, nil
}

// storedScope parses stored entries. The CLI checks each entry before
// storing it; one that still does not parse (written by hand, or by a
// newer version) is left out and logged, so it grants nothing.
func (s *Service) storedScope(account string, entries []string) scope {
	var good []string
	for _, e := range entries {
		if _, err := parseScope([]string{e}, s.cfg.def); err != nil {
			s.log.Error("stored scope entry ignored", "account", account, "cause", err.Error())
			continue
		}
		good = append(good, e)
	}
	sc, _ := parseScope(good, s.cfg.def)
	return sc
}

// CheckScopeEntry reports whether entry is a scope entry the gateway
// accepts, for a command to refuse a bad one before storing it.
func CheckScopeEntry(entry string) error {
	_, err := parseScope([]string{entry}, coordinate{})
	return err
}

// ScopeChanged drops the account's cached scope, so a change made in this
// process (the console's editor) holds from the next call rather than
// after the refresh interval.
func (s *Service) ScopeChanged(account string) {
	s.scopes.mu.Lock()
	delete(s.scopes.entries, account)
	s.scopes.mu.Unlock()
}
