// Package scopeedit reads and changes accounts' scopes kept in the
// gateway store, for `forgetools scope add|remove` and the operator
// console alike, so both check an entry, seed the stored scope from the
// configured one and log the change the same way. It also lists what
// the configured forges' credentials reach (what `forgetools repos`
// lists), for an operator to choose entries from.
package scopeedit

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/store"
)

// A change refused for the caller's mistake changes nothing and matches
// one of these (errors.Is): ErrInvalid for a bad entry, actor, action or
// an unknown account; ErrUnchanged for adding an entry already there or
// removing one that is not.
var (
	ErrInvalid   = errors.New("invalid scope change")
	ErrUnchanged = store.ErrScopeUnchanged
)

// refusal is an error whose text is its message alone, matching kind.
type refusal struct {
	msg  string
	kind error
}

func (r refusal) Error() string        { return r.msg }
func (r refusal) Is(target error) bool { return target == r.kind }

func invalid(format string, args ...any) error {
	return refusal{fmt.Sprintf(format, args...), ErrInvalid}
}

// Account is a configured account: its name and its configured scope,
// which the first stored change copies into the store.
type Account struct {
	Name       string
	Configured []string
}

// Scope is an account's effective scope.
type Scope struct {
	Account string
	Entries []string
	// Stored: the entries are the store's (the configured scope is
	// ignored for the account); else they are the configuration's.
	Stored bool
}

// Editor reads and changes the accounts' scopes in Store.
type Editor struct {
	Store    *store.Store
	Accounts []Account
	// Forges are what the discovery list asks; empty: none can list.
	Forges []Forge
	// Changed, if set, is told of each account whose scope changed, for
	// a gateway in the same process to stop using a cached scope.
	Changed func(account string)
}

// account finds the account name names, or says which exist.
func (e *Editor) account(name string) (Account, error) {
	var names []string
	for _, a := range e.Accounts {
		if a.Name == name {
			return a, nil
		}
		names = append(names, a.Name)
	}
	return Account{}, invalid("account %q is not configured (configured: %s)", name, strings.Join(names, ", "))
}

// Scope is the account's effective scope: the stored one when the store
// holds one, else the configured one.
func (e *Editor) Scope(ctx context.Context, name string) (Scope, error) {
	a, err := e.account(name)
	if err != nil {
		return Scope{}, err
	}
	entries, stored, err := e.Store.StoredScope(ctx, a.Name)
	if err != nil {
		return Scope{}, err
	}
	if !stored {
		entries = a.Configured
	}
	return Scope{Account: a.Name, Entries: entries, Stored: stored}, nil
}

// Scopes is every configured account's effective scope, in configured
// order.
func (e *Editor) Scopes(ctx context.Context) ([]Scope, error) {
	out := make([]Scope, 0, len(e.Accounts))
	for _, a := range e.Accounts {
		s, err := e.Scope(ctx, a.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// CheckActor reports whether actor is a name a change may be logged
// under.
func CheckActor(actor string) error {
	if actor == "" {
		return invalid("a change needs the name of who makes it, for the log")
	}
	if len(actor) > 100 || strings.ContainsFunc(actor, unicode.IsControl) {
		return invalid("actor %q: want a name of at most 100 characters, without control characters", actor)
	}
	return nil
}

// Change adds (store.ScopeAdd) or removes (store.ScopeRemove) entry in
// the account's stored scope, logged under actor, and returns the stored
// scope after it. The entry is checked as the gateway parses it; the
// first change copies the configured scope into the store. A refusal
// (ErrInvalid, ErrUnchanged) changes nothing.
func (e *Editor) Change(ctx context.Context, action, account, entry, actor string) ([]string, error) {
	if action != store.ScopeAdd && action != store.ScopeRemove {
		return nil, invalid("unknown scope action %q (want add or remove)", action)
	}
	if err := gateway.CheckScopeEntry(entry); err != nil {
		return nil, refusal{err.Error(), ErrInvalid}
	}
	if err := CheckActor(actor); err != nil {
		return nil, err
	}
	a, err := e.account(account)
	if err != nil {
		return nil, err
	}
	err = e.Store.ChangeScope(ctx, store.ScopeChange{Account: a.Name, Action: action, Entry: entry, Actor: actor}, a.Configured)
	if errors.Is(err, store.ErrScopeUnchanged) {
		if action == store.ScopeAdd {
			return nil, refusal{fmt.Sprintf("account %s already has %q in its scope: nothing changed", a.Name, entry), ErrUnchanged}
		}
		return nil, refusal{fmt.Sprintf("account %s has no entry %q in its scope: nothing changed (forgetools scope list %s shows the entries, spelled as stored)", a.Name, entry, a.Name), ErrUnchanged}
	}
	if err != nil {
		return nil, err
	}
	if e.Changed != nil {
		e.Changed(a.Name)
	}
	entries, _, err := e.Store.StoredScope(ctx, a.Name)
	return entries, err
}

// Log is every change made to stored scopes, oldest first (account ""
// = every account).
func (e *Editor) Log(ctx context.Context, account string) ([]store.ScopeChange, error) {
	return e.Store.ScopeLog(ctx, account)
}
