package e2e_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// TestScopeCommand: `forgetools scope` changes an account's scope in the
// store, on SQLite and PostgreSQL. The first change seeds the stored scope
// from the configuration; from then on the stored scope is the whole scope,
// so an entry the configuration granted can be revoked; every change is in
// `scope log`; an empty scope denies every repository. The calls go through
// the real gateway (`forgetools call` on the same store).
func TestScopeCommand(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, dsn string) {
		t.Parallel()
		e := newEnv(t)
		cfg := writeConfig(t, aliceConfig)
		scope := func(code int, args ...string) result {
			t.Helper()
			r := e.run(append(append([]string{"scope"}, args...), "--config", cfg, "--store", dsn)...)
			if r.code != code {
				t.Fatalf("want exit %d: %v", code, r)
			}
			return r
		}
		create := func(repo string) result {
			t.Helper()
			return e.call("forge_create_issue", `{"repo":"`+repo+`","title":"Scoped"}`, "--config", cfg, "--store", dsn, "--session", "alice-1")
		}
		denied := func(repo string) {
			t.Helper()
			create(repo).want(t, 1, `forge_create_issue failed: permission_denied: repository "`+regexp.QuoteMeta(repo)+`" is outside the scope of account "alice"`)
		}

		if r := scope(0, "list", "alice"); r.stdout != "# scope of account alice, from the configuration (no change was ever stored)\ndemo/*\n" {
			t.Errorf("list before any change:\n%s", r.stdout)
		}
		denied("other/app")

		r := scope(0, "add", "alice", "other/app", "--actor", "ops-ann")
		if !strings.Contains(r.stdout, "demo/*\nother/app\n") {
			t.Errorf("add printed:\n%s", r.stdout)
		}
		create("other/app").want(t, 0, `Created issue #1 in other/app: .*`)
		create("demo/app").want(t, 0, `Created issue #1 in demo/app: .*`)

		// The configuration granted demo/*; the store takes it back.
		scope(0, "remove", "alice", "demo/*", "--actor", "ops-bob")
		denied("demo/app")
		if r := scope(0, "list", "alice"); r.stdout != "# scope of account alice, from the store (the configuration's scope is ignored for this account)\nother/app\n" {
			t.Errorf("list after the changes:\n%s", r.stdout)
		}

		// Clear errors, nothing changed.
		if r := scope(1, "remove", "alice", "demo/*", "--actor", "ops-bob"); !strings.Contains(r.stderr, `has no entry "demo/*"`) {
			t.Errorf("second remove: %v", r)
		}
		if r := scope(1, "add", "alice", "other/app", "--actor", "ops-ann"); !strings.Contains(r.stderr, `already has "other/app"`) {
			t.Errorf("second add: %v", r)
		}
		if r := scope(2, "add", "alice", "not a repo", "--actor", "ops-ann"); !strings.Contains(r.stderr, `scope entry "not a repo" is not`) {
			t.Errorf("bad entry: %v", r)
		}
		if r := scope(2, "add", "mallory", "x/y", "--actor", "ops-ann"); !strings.Contains(r.stderr, `account "mallory" is not configured (configured: alice)`) {
			t.Errorf("unknown account: %v", r)
		}

		// Empty still denies all.
		scope(0, "remove", "alice", "other/app", "--actor", "ops-ann")
		if r := scope(0, "list", "alice"); !strings.Contains(r.stdout, "# empty: every repository is denied") {
			t.Errorf("empty list:\n%s", r.stdout)
		}
		denied("other/app")
		denied("demo/app")

		// Every change, with who made it and when.
		log := scope(0, "log", "alice").stdout
		row := regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\s+(\S+)\s+alice\s+(\S+)\s+(\S+)$`)
		var got []string
		for _, m := range row.FindAllStringSubmatch(log, -1) {
			got = append(got, m[1]+" "+m[2]+" "+m[3])
		}
		want := []string{"ops-ann seed demo/*", "ops-ann add other/app", "ops-bob remove demo/*", "ops-ann remove other/app"}
		if strings.Join(got, "\n") != strings.Join(want, "\n") || !strings.HasPrefix(log, "TIME ") {
			t.Errorf("scope log:\n%s\nwant rows %q", log, want)
		}
		for _, sub := range []string{"", "list", "add", "remove", "log"} {
			if r := e.run(strings.Fields("scope " + sub + " --help")...); r.code != 0 || !strings.Contains(r.stdout, "the stored list is the account's whole scope") {
				t.Errorf("scope %s --help: %v", sub, r)
			}
		}
	})
}
