package scopeedit

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	"github.com/forgetools/forgetools/providers/discovery"
)

func editor(t *testing.T) *Editor {
	t.Helper()
	st, err := store.Open(t.Context(), storetest.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &Editor{Store: st, Accounts: []Account{{Name: "bot", Configured: []string{"acme/app"}}, {Name: "empty"}}}
}

// Every refusal is of its kind and changes nothing; the effective scope
// is the configuration's until the first change, the store's after.
func TestChangeRefusalsAndEffectiveScope(t *testing.T) {
	e := editor(t)
	ctx := t.Context()
	for _, c := range []struct {
		action, account, entry, actor string
		kind                          error
	}{
		{store.ScopeAdd, "bot", "a b/c", "ops", ErrInvalid},
		{store.ScopeAdd, "bot", "nosuch/x.com:a/b", "ops", ErrInvalid},
		{store.ScopeAdd, "nobody", "acme/web", "ops", ErrInvalid},
		{store.ScopeAdd, "bot", "acme/web", "", ErrInvalid},
		{store.ScopeAdd, "bot", "acme/web", "ops\nforged row", ErrInvalid},
		{"replace", "bot", "acme/web", "ops", ErrInvalid},
		{store.ScopeAdd, "bot", "acme/app", "ops", ErrUnchanged},
		{store.ScopeRemove, "bot", "acme/web", "ops", ErrUnchanged},
	} {
		if _, err := e.Change(ctx, c.action, c.account, c.entry, c.actor); !errors.Is(err, c.kind) {
			t.Errorf("%s %s %q by %q: %v, want %v", c.action, c.account, c.entry, c.actor, err, c.kind)
		}
	}
	if log, _ := e.Log(ctx, ""); len(log) != 0 {
		t.Fatalf("refused changes were logged: %v", log)
	}
	if sc, _ := e.Scope(ctx, "bot"); sc.Stored || !slices.Equal(sc.Entries, []string{"acme/app"}) {
		t.Fatalf("before any change: %+v", sc)
	}
	var told []string
	e.Changed = func(a string) { told = append(told, a) }
	got, err := e.Change(ctx, store.ScopeRemove, "bot", "acme/app", "ops")
	if err != nil || len(got) != 0 || !slices.Equal(told, []string{"bot"}) {
		t.Fatalf("remove: %v, %v, told %v", got, err, told)
	}
	scopes, err := e.Scopes(ctx)
	if err != nil || len(scopes) != 2 || !scopes[0].Stored || len(scopes[0].Entries) != 0 || scopes[1].Stored {
		t.Fatalf("after the change: %+v, %v", scopes, err)
	}
}

// counting lists n repositories unless stopped, counting the ones it
// offered.
type counting struct{ n, offered int }

func (c *counting) Repositories(_ context.Context, each func(discovery.Repository) error) error {
	for i := range c.n {
		c.offered++
		if err := each(discovery.Repository{Repo: "o/r" + string(rune('a'+i%26))}); err != nil {
			return err
		}
	}
	return nil
}

// A listing stops paging once it has one more than the limit, and says
// there were more; a forge with fewer is listed whole.
func TestDiscoverStopsAtTheLimit(t *testing.T) {
	e := editor(t)
	big, small := &counting{n: 1000}, &counting{n: 3}
	e.Forges = []Forge{{Where: "big", Prefix: "h:", Lister: big}, {Where: "small", Lister: small}}
	got := e.Discover(t.Context(), 10)
	if len(got) != 2 || len(got[0].Repos) != 10 || !got[0].More || big.offered != 11 || got[0].Repos[0].Entry != "h:o/ra" {
		t.Fatalf("big: %+v, offered %d", got[0], big.offered)
	}
	if len(got[1].Repos) != 3 || got[1].More || got[1].Error != "" {
		t.Fatalf("small: %+v", got[1])
	}
}
