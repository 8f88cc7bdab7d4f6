package e2e_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// TestAudit: what two sessions wrote through serve is listed by `audit`
// from the same store, filtered by account, session and age, as a table
// or JSON; an empty result says so, on SQLite and PostgreSQL.
func TestAudit(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, dsn string) {
		t.Parallel()
		e := newEnv(t)
		cfg := writeConfig(t, aliceConfig)
		audit := func(args ...string) result {
			t.Helper()
			r := e.run(append([]string{"audit", "--config", cfg, "--store", dsn}, args...)...)
			if r.code != 0 {
				t.Fatalf("audit: %v", r)
			}
			return r
		}
		if r := audit(); !strings.HasPrefix(r.stdout, "No artifacts recorded yet: no agent has created anything through this gateway.") {
			t.Errorf("empty store: %q", r.stdout)
		}

		srv := e.serve(2, "--config", cfg, "--store", dsn, "--socket-dir", socketDir(t))
		e.call("forge_create_issue", `{"repo":"demo/app","title":"Audited"}`, "--gateway", srv.Sockets[0]).
			want(t, 0, `Created issue #1 in demo/app: http://forge\.test/f/demo/app/issues/1`)
		e.call("forge_comment_on_issue", `{"repo":"demo/app","issue_number":1,"body":"seen"}`, "--gateway", srv.Sockets[1]).
			want(t, 0, `Commented on issue #1 in demo/app: .*`)
		// A read writes nothing to audit.
		e.call("forge_get_issue", `{"repo":"demo/app","issue_number":1}`, "--gateway", srv.Sockets[1]).record(t)

		table := audit().stdout
		lines := strings.Split(strings.TrimSuffix(table, "\n"), "\n")
		row := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\s+alice\s+alice-(\d)\s+(\S+)\s+local\s+demo/app\s+(\S+)\s+1\s+(\S+)$`)
		if len(lines) != 3 || !strings.HasPrefix(lines[0], "TIME ") {
			t.Fatalf("audit table:\n%s", table)
		}
		for i, want := range [][]string{
			{"1", "forge_create_issue", "issue", "http://forge.test/f/demo/app/issues/1"},
			{"2", "forge_comment_on_issue", "issue_comment", "http://forge.test/f/demo/app/issues/1#issuecomment-1"},
		} {
			m := row.FindStringSubmatch(lines[i+1])
			if m == nil || m[1] != want[0] || m[2] != want[1] || m[3] != want[2] || m[4] != want[3] {
				t.Errorf("row %d = %q, want session alice-%s, %s, %s, %s", i+1, lines[i+1], want[0], want[1], want[2], want[3])
			}
		}

		var records []struct {
			Time    time.Time `json:"time"`
			Account string    `json:"account"`
			Session string    `json:"session"`
			Tool    string    `json:"tool"`
			Forge   string    `json:"forge"`
			Repo    string    `json:"repo"`
			Kind    string    `json:"kind"`
			Number  uint64    `json:"number"`
			URL     string    `json:"url"`
		}
		if err := json.Unmarshal([]byte(audit("--session", "alice-2", "--format", "json").stdout), &records); err != nil {
			t.Fatal(err)
		}
		if len(records) != 1 || records[0].Tool != "forge_comment_on_issue" || records[0].Forge != "local" ||
			records[0].Number != 1 || time.Since(records[0].Time) > time.Hour || records[0].Time.After(time.Now()) {
			t.Errorf("audit --session alice-2 --format json = %+v", records)
		}
		if r := audit("--account", "bob"); r.stdout != "No artifacts recorded for account bob.\n" {
			t.Errorf("audit --account bob = %q", r.stdout)
		}
		if r := audit("--account", "alice", "--since", "1h"); strings.Count(r.stdout, "\n") != 3 {
			t.Errorf("audit --since 1h:\n%s", r.stdout)
		}
		if r := audit("--format", "json", "--account", "bob"); r.stdout != "[]\n" {
			t.Errorf("empty json = %q", r.stdout)
		}
	})
}
