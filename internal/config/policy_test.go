package config

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/forgetools/forgetools/gateway"
)

// An account's policy reaches the gateway as written; absent keys stay
// absent (the gateway's defaults), an empty risk map clears the risk rule,
// and a misspelt decision is refused at start, naming the account.
func TestPolicyReachesTheGateway(t *testing.T) {
	cfg, err := Parse([]byte("approval_expiry: 2h\nforges:\n  - provider: local\naccounts:\n" +
		"  - name: a\n    agent_handle: h\n    owner_handle: o\n    sessions: [s1]\n" +
		"    policy: {push: allow, risk: {}, action_classes: {\"ci:trigger\": operator}, unreviewed_merge: deny}\n" +
		"  - {name: b, agent_handle: h, owner_handle: o, sessions: [s2]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := gateway.Policy{
		Levels:          map[string]gateway.Decision{"push": gateway.Allow},
		ActionClasses:   map[string]gateway.Decision{"ci:trigger": gateway.Operator},
		Risks:           map[string]gateway.Decision{},
		UnreviewedMerge: gateway.Deny,
	}
	if got := cfg.Accounts[0].Policy.Gateway(); !reflect.DeepEqual(got, want) {
		t.Fatalf("policy a = %#v, want %#v", got, want)
	}
	if got := cfg.Accounts[1].Policy.Gateway(); !reflect.DeepEqual(got, gateway.Policy{}) {
		t.Fatalf("policy b = %#v, want the zero (default) policy", got)
	}
	if time.Duration(cfg.ApprovalExpiry) != 2*time.Hour {
		t.Fatalf("approval_expiry = %v", cfg.ApprovalExpiry)
	}
	bad := gateway.Account{Name: "a", AgentHandle: "h", OwnerHandle: "o", Policy: Policy{Push: "maybe"}.Gateway()}
	if err := gateway.CheckAccounts([]gateway.Account{bad}); err == nil || !strings.Contains(err.Error(), `account "a": policy: level push: "maybe" is not allow, operator or deny`) {
		t.Fatalf("a misspelt decision: %v", err)
	}
	if _, err := Parse([]byte("forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, policy: {pushes: allow}}\n")); err == nil {
		t.Fatal("an unknown policy key was accepted")
	}
}
