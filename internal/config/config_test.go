package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestExampleConfigParses(t *testing.T) {
	cfg, err := Load(filepath.Join("..", "..", "examples", "forgetools.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Forges) != 4 || !cfg.Forges[0].Default || cfg.Forges[0].ReviewerTokenEnv != "GITHUB_REVIEWER_TOKEN" {
		t.Fatalf("forges = %+v", cfg.Forges)
	}
	if got := cfg.Accounts[0].Scope; len(got) != 3 || got[1] != "acme-docs/*" {
		t.Fatalf("scope = %v", got)
	}
	if s := cfg.Accounts[0].Sessions; len(s) != 2 || s[0].UID != nil || s[1].Name != "release-bot-2" || *s[1].UID != 1001 || *s[1].GID != 1001 {
		t.Fatalf("sessions = %+v", s)
	}
	if time.Duration(cfg.Forges[0].Timeout) != 30*time.Second {
		t.Fatalf("timeout = %v", cfg.Forges[0].Timeout)
	}
}

func TestDefaultIsValidAndScopesEverything(t *testing.T) {
	cfg := Default(t.TempDir())
	if err := cfg.Check(); err != nil {
		t.Fatal(err)
	}
	if cfg.Forges[0].Provider != "local" || cfg.Accounts[0].Scope[0] != "*" {
		t.Fatalf("default = %+v", cfg)
	}
}

func TestParseRejects(t *testing.T) {
	base := "forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n"
	cases := []struct {
		name, yaml, want string
	}{
		{"literal secret", "forges:\n  - provider: github\n    token: ghp_secret\n", "token_env"},
		{"unknown key", base + "stroe: x\n", "field stroe not found"},
		{"unknown provider", "forges:\n  - provider: gitlub\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", `"gitlub" is not one of`},
		{"missing credential", "forges:\n  - provider: github\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", "needs a credential"},
		{"two defaults", "forges:\n  - {provider: local, default: true}\n  - {provider: github, token_env: T, default: true}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", "exactly one forge"},
		{"bad session", "forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [../x]}\n", "names a socket file"},
		{"shared session", "forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n  - {name: b, agent_handle: h, owner_handle: o, sessions: [s]}\n", `already belongs to account "a"`},
		{"unreachable account", "forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o}\n", "nothing can connect"},
		{"bad duration", "forges:\n  - {provider: local, timeout: soon}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", "not a duration"},
		{"empty", "", "empty configuration"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.yaml))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestSecretNamesVariableNeverValue(t *testing.T) {
	t.Setenv("FORGETOOLS_TEST_SECRET", "s3cr3t")
	if v, err := Secret("FORGETOOLS_TEST_SECRET"); err != nil || v != "s3cr3t" {
		t.Fatalf("Secret = %q, %v", v, err)
	}
	os.Unsetenv("FORGETOOLS_TEST_MISSING")
	_, err := Secret("FORGETOOLS_TEST_MISSING")
	if err == nil || !strings.Contains(err.Error(), "FORGETOOLS_TEST_MISSING is not set") {
		t.Fatalf("err = %v", err)
	}
}

// A session is a name, or a name with the peer credentials allowed to
// connect to its socket.
func TestSessionPeers(t *testing.T) {
	cfg, err := Parse([]byte(`forges:
  - provider: local
accounts:
  - name: a
    agent_handle: h
    owner_handle: o
    sessions:
      - plain
      - {name: by-uid, uid: 1001}
      - {name: by-both, uid: 0, gid: 20}
      - name: by-gid
        gid: 4242
`))
	if err != nil {
		t.Fatal(err)
	}
	u := func(v uint32) *uint32 { return &v }
	want := []Session{{Name: "plain"}, {Name: "by-uid", UID: u(1001)}, {Name: "by-both", UID: u(0), GID: u(20)}, {Name: "by-gid", GID: u(4242)}}
	got := cfg.Accounts[0].Sessions
	if len(got) != len(want) {
		t.Fatalf("sessions = %+v", got)
	}
	for i := range want {
		if got[i].Name != want[i].Name || !sameID(got[i].UID, want[i].UID) || !sameID(got[i].GID, want[i].GID) {
			t.Errorf("sessions[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
	for yaml, problem := range map[string]string{
		"{name: s, uid: -1}":          "line 6: uid -1 is not a user id",
		"{name: s, uid: x}":           "line 6: uid \"x\" is not a user id",
		"{name: s, pid: 7}":           "line 6: session key \"pid\" is not one of name, uid, gid",
		"{uid: 7}":                    "line 6: a session needs a name",
		"[s]":                         "line 6: a session is a name or {name, uid, gid}",
		"{name: s, gid: 99999999999}": "line 6: gid 99999999999 is not a group id",
	} {
		_, err := Parse([]byte("forges:\n  - provider: local\naccounts:\n  - name: a\n    sessions:\n      - " + yaml + "\n"))
		if err == nil || !strings.Contains(err.Error(), problem) {
			t.Errorf("session %s: err = %v, want %q", yaml, err, problem)
		}
	}
}

func sameID(a, b *uint32) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
