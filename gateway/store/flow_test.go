package store_test

import (
	"testing"

	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

// A session's flow reads round-trip on both stores: recorded once however
// often they are made, untrusted ones first, other sessions' kept apart.
func TestFlowReads(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := t.Context()
		st := open(t, dsn)
		gh := store.Forge{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, Host: "github.com"}
		private := store.FlowRead{Account: "alice", Session: "s1", Forge: gh, Repo: "acme/secret", Tool: "forge_read_file", Visibility: "private"}
		untrusted := store.FlowRead{Account: "alice", Session: "s1", Forge: gh, Repo: "acme/site", Tool: "forge_get_issue",
			Untrusted: true, Artifact: "issue #3", Author: "mallory"}
		other := private
		other.Session = "s2"
		for range 2 {
			if err := st.RecordFlowReads(ctx, []store.FlowRead{private, untrusted, other}); err != nil {
				t.Fatal(err)
			}
		}
		reads, err := st.FlowReads(ctx, "alice", "s1")
		if err != nil {
			t.Fatal(err)
		}
		if len(reads) != 2 {
			t.Fatalf("reads = %+v, want 2", reads)
		}
		u, p := reads[0], reads[1]
		if !u.Untrusted || u.Author != "mallory" || u.Artifact != "issue #3" || u.Forge != gh || u.Tool != "forge_get_issue" || u.Read.IsZero() {
			t.Errorf("untrusted read = %+v", u)
		}
		if p.Untrusted || p.Visibility != "private" || p.Repo != "acme/secret" {
			t.Errorf("private read = %+v", p)
		}
		if none, err := st.FlowReads(ctx, "bob", "s1"); err != nil || len(none) != 0 {
			t.Errorf("bob's reads = %v, %v", none, err)
		}
		// The probe the flow check asks first: only rows that could hold.
		gl := store.Forge{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITLAB, Host: "github.com"}
		for _, c := range []struct {
			account, session     string
			untrusted, elsewhere bool
			target               store.Forge
			repo                 string
			want                 bool
		}{
			{"alice", "s1", true, false, gh, "acme/secret", true},  // mallory's issue
			{"alice", "s2", true, false, gh, "acme/site", false},   // s2 read nothing untrusted
			{"alice", "s2", false, true, gh, "acme/secret", false}, // s2 read only the target
			{"alice", "s2", false, true, gh, "acme/Secret", true},  // case differs: the caller decides
			{"alice", "s2", false, true, gl, "acme/secret", true},  // another provider
			{"alice", "s2", false, true, store.Forge{Provider: gh.Provider, Host: "ghe.example"}, "acme/secret", true},
			{"alice", "s1", false, true, gh, "acme/secret", false}, // the untrusted row is no repository read
			{"alice", "s1", false, true, gh, "acme/site", true},    // acme/secret is elsewhere
			{"alice", "s1", false, false, gh, "acme/site", false},  // nothing asked
			{"bob", "s1", true, true, gh, "acme/site", false},
		} {
			got, err := st.FlowReadsAnyOf(ctx, c.account, c.session, c.untrusted, c.elsewhere, c.target, c.repo)
			if err != nil || got != c.want {
				t.Errorf("FlowReadsAnyOf(%+v) = %v, %v; want %v", c, got, err, c.want)
			}
		}
	})
}

// Scope changes on both stores: the first seeds, a repeated change is
// ErrScopeUnchanged and logs nothing, every change needs an actor.
func TestStoredScopeChanges(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := t.Context()
		st := open(t, dsn)
		if _, stored, err := st.StoredScope(ctx, "alice"); err != nil || stored {
			t.Fatalf("before any change: stored %v, %v", stored, err)
		}
		add := store.ScopeChange{Account: "alice", Action: store.ScopeAdd, Entry: "acme/new", Actor: "ops"}
		if err := st.ChangeScope(ctx, add, []string{"acme/web", "acme/new"}); err == nil {
			t.Fatal("adding an entry the seed already has changed something")
		}
		if _, stored, _ := st.StoredScope(ctx, "alice"); stored {
			t.Fatal("a failed change left a stored scope behind")
		}
		if err := st.ChangeScope(ctx, add, []string{"acme/web"}); err != nil {
			t.Fatal(err)
		}
		if err := st.ChangeScope(ctx, add, []string{"ignored/now"}); err == nil {
			t.Fatal("adding twice changed something")
		}
		entries, stored, err := st.StoredScope(ctx, "alice")
		if err != nil || !stored || len(entries) != 2 || entries[0] != "acme/new" || entries[1] != "acme/web" {
			t.Fatalf("stored scope = %v, %v, %v", entries, stored, err)
		}
		if err := st.ChangeScope(ctx, store.ScopeChange{Account: "alice", Action: store.ScopeRemove, Entry: "acme/web"}, nil); err == nil {
			t.Fatal("a change without an actor was made")
		}
		log, err := st.ScopeLog(ctx, "alice")
		if err != nil || len(log) != 2 || log[0].Action != store.ScopeSeed || log[1].Action != store.ScopeAdd || log[1].Actor != "ops" || log[1].At.IsZero() {
			t.Fatalf("log = %+v, %v", log, err)
		}
	})
}
