package config

import "github.com/forgetools/forgetools/gateway"

// Gateway is the policy as the gateway takes it; the gateway checks every
// value (gateway.CheckAccounts), so a misspelt decision or level is an
// error at start, naming the account.
func (p Policy) Gateway() gateway.Policy {
	out := gateway.Policy{UnreviewedMerge: gateway.Decision(p.UnreviewedMerge)}
	levels := map[string]string{"read": p.Read, "write": p.Write, "push": p.Push}
	for k, v := range levels {
		if v != "" {
			if out.Levels == nil {
				out.Levels = map[string]gateway.Decision{}
			}
			out.Levels[k] = gateway.Decision(v)
		}
	}
	out.ActionClasses = decisions(p.ActionClasses)
	out.Risks = decisions(p.Risk)
	return out
}

// decisions converts a map, keeping nil nil (the default) and empty empty.
func decisions(m map[string]string) map[string]gateway.Decision {
	if m == nil {
		return nil
	}
	out := make(map[string]gateway.Decision, len(m))
	for k, v := range m {
		out[k] = gateway.Decision(v)
	}
	return out
}
