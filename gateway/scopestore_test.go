package gateway

import (
	"context"
	"testing"
	"time"

	"github.com/forgetools/forgetools/gateway/store"
)

// A stored change reaches a running gateway after the refresh interval,
// or at once when it is made in the same process and said so
// (ScopeChanged, which the console's editor calls).
func TestScopeChangedDropsTheCachedScope(t *testing.T) {
	cfg := validConfig(t)
	cfg.ScopeRefresh = time.Hour
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	alice := s.cfg.accounts["alice"]
	allows := func() bool {
		t.Helper()
		sc, err := s.scopeOf(ctx, alice)
		if err != nil {
			t.Fatal(err)
		}
		return sc.allows(githubRef, "acme/web")
	}
	if !allows() {
		t.Fatal("the configured acme/* does not allow acme/web")
	}
	if err := cfg.Store.ChangeScope(ctx, store.ScopeChange{Account: "alice", Action: store.ScopeRemove, Entry: "acme/*", Actor: "ops"}, []string{"acme/*"}); err != nil {
		t.Fatal(err)
	}
	if !allows() {
		t.Fatal("the scope was read again within the refresh interval: the test shows nothing")
	}
	s.ScopeChanged("alice")
	if allows() {
		t.Fatal("after ScopeChanged the gateway still allows the removed entry")
	}
}
