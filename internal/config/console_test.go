package config

import (
	"strings"
	"testing"
)

func TestConsoleAndApproversParse(t *testing.T) {
	cfg, err := Parse([]byte("forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s], approvers: [mcp_client]}\n  - {name: b, agent_handle: h, owner_handle: o, sessions: [t]}\n" +
		"console:\n  listen: 127.0.0.1:7780\n  operator_token_envs: [FT_TEST_OPERATOR]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Console.Listen != "127.0.0.1:7780" || len(cfg.Console.OperatorTokenEnvs) != 1 {
		t.Fatalf("console = %+v", cfg.Console)
	}
	if !cfg.Accounts[0].Approves(ApproverMCPClient) || cfg.Accounts[1].Approves(ApproverMCPClient) {
		t.Fatalf("approvers = %v / %v: only the account that names mcp_client has it (off by default)", cfg.Accounts[0].Approvers, cfg.Accounts[1].Approvers)
	}
}

func TestConsoleRejects(t *testing.T) {
	base := "forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n"
	cases := []struct{ name, yaml, want string }{
		{"unknown approver", "forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s], approvers: [slack]}\n", `"slack" is not an approver`},
		{"console without operators", base + "console: {listen: 127.0.0.1:7780}\n", "no operator can sign in"},
		{"operator token pasted", base + "console: {operator_token_envs: [ghp_16C7e42F292c6912E7710c838347Ae178B4a]}\n", "console.operator_token_envs[0] looks like a credential"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.yaml))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to contain %q", err, c.want)
			}
			if strings.Contains(err.Error(), "ghp_16C7") {
				t.Fatalf("the error echoes the value: %v", err)
			}
		})
	}
}

// An operator token must be its own secret: the same value as an agent's
// bearer token would let the agent decide its own parked calls.
func TestOperatorTokenMustNotBeAnAgents(t *testing.T) {
	const agent = "agent-token-0123456789"
	t.Setenv("FT_TEST_AGENT", agent)
	t.Setenv("FT_TEST_OPERATOR", agent)
	t.Setenv("FT_TEST_SHORT_OP", "short")
	cfg, err := Parse([]byte("forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, token_envs: [FT_TEST_AGENT]}\n" +
		"console: {operator_token_envs: [FT_TEST_OPERATOR, FT_TEST_SHORT_OP]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = cfg.Resolve()
	if err == nil || !strings.Contains(err.Error(), "FT_TEST_OPERATOR holds the same token as the account token FT_TEST_AGENT") ||
		!strings.Contains(err.Error(), "FT_TEST_SHORT_OP is shorter than 16 bytes") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), agent) {
		t.Fatalf("the error echoes the token: %v", err)
	}
	t.Setenv("FT_TEST_OPERATOR", "operator-token-0123456789")
	t.Setenv("FT_TEST_SHORT_OP", "operator-token-abcdefghij")
	creds, err := cfg.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.OperatorTokens(creds); len(got) != 2 || got[0] != "operator-token-0123456789" {
		t.Fatalf("operator tokens = %d", len(got))
	}
}
