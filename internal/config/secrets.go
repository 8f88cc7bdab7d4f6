package config

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// MinTokenLen is the shortest gateway bearer token accepted: 16 bytes
// keeps guessable tokens out of a listener.
const MinTokenLen = 16

// Credentials are the secret values a configuration's variables hold,
// keyed by variable name.
type Credentials map[string]string

// Values lists the secret values, in no particular order: what a redactor
// keeps out of logs and messages.
func (c Credentials) Values() []string {
	out := make([]string, 0, len(c))
	for _, v := range c {
		out = append(out, v)
	}
	return out
}

// Resolve reads every environment variable the configuration names and
// reports every missing, empty or too short one at once, each by its
// variable name and never by its value. Run it before anything is created,
// so a start that would fail leaves nothing behind.
func (c *Config) Resolve() (Credentials, error) {
	creds := Credentials{}
	var errs []error
	seen := map[string]bool{} // a variable several forges share is read, and reported, once
	read := func(env string, minLen int) {
		if env == "" || seen[env] {
			return
		}
		seen[env] = true
		v, err := Secret(env)
		switch {
		case err != nil:
			errs = append(errs, err)
		case len(v) < minLen:
			errs = append(errs, fmt.Errorf("%s is shorter than %d bytes (gateway tokens need at least %d)", env, minLen, minLen))
		default:
			creds[env] = v
		}
	}
	for _, f := range c.Forges {
		read(f.TokenEnv, 1)
		read(f.ReviewerTokenEnv, 1)
		read(f.WebhookSecretEnv, 1)
	}
	for _, a := range c.Accounts {
		for _, env := range a.TokenEnvs {
			read(env, MinTokenLen)
		}
	}
	for _, env := range c.Console.OperatorTokenEnvs {
		read(env, MinTokenLen)
	}
	errs = append(errs, c.operatorTokensApart(creds))
	return creds, errors.Join(errs...)
}

// operatorTokensApart refuses an operator token that is also an account's
// bearer token: an agent holding it could decide its own parked calls.
// Errors name the variables, never the value.
func (c *Config) operatorTokensApart(creds Credentials) error {
	agent := map[string]string{} // token value -> variable
	for _, a := range c.Accounts {
		for _, env := range a.TokenEnvs {
			if v, ok := creds[env]; ok {
				agent[v] = env
			}
		}
	}
	var errs []error
	for _, env := range c.Console.OperatorTokenEnvs {
		v, ok := creds[env]
		if !ok {
			continue
		}
		if other, clash := agent[v]; clash {
			errs = append(errs, fmt.Errorf("console.operator_token_envs: %s holds the same token as the account token %s: an operator token must be its own secret, never an agent's", env, other))
		}
	}
	return errors.Join(errs...)
}

// OperatorTokens are the console's operator tokens creds holds, in the
// order console.operator_token_envs names them.
func (c *Config) OperatorTokens(creds Credentials) []string {
	var out []string
	for _, env := range c.Console.OperatorTokenEnvs {
		if v := creds[env]; v != "" {
			out = append(out, v)
		}
	}
	return out
}

// Secret reads the credential an environment variable name points at. An
// unset or empty variable is an error naming the variable, never the value.
func Secret(env string) (string, error) {
	if env == "" {
		return "", nil
	}
	v, ok := os.LookupEnv(env)
	if !ok || v == "" {
		return "", fmt.Errorf("environment variable %s is not set", env)
	}
	return v, nil
}

// credentialShapes are the prefixes of the credentials people paste: GitHub
// (classic, fine-grained, app and OAuth tokens), GitLab, Linear, Slack and
// OpenAI-style keys.
var credentialShapes = regexp.MustCompile(`^(gh[pousr]_|github_pat_|glpat-|lin_api_|lin_oauth_|xox[abpr]-|sk-)`)

// looksLikeCredential reports whether a value given where a variable name
// belongs is more likely a pasted secret: a known token prefix, or a long
// string mixing lower case and digits, which variable names rarely do.
func looksLikeCredential(v string) bool {
	if credentialShapes.MatchString(v) {
		return true
	}
	hasLower := strings.ContainsAny(v, "abcdefghijklmnopqrstuvwxyz")
	hasDigit := strings.ContainsAny(v, "0123456789")
	return len(v) >= 20 && hasLower && hasDigit
}

// checkEnvName says what is wrong with a variable name, without repeating
// it: a value that is not a name may well be the secret itself.
func checkEnvName(v string) string {
	switch {
	case looksLikeCredential(v):
		return "looks like a credential, not a variable name: put the secret in an environment variable and name the variable here"
	case !envName.MatchString(v):
		return "is not an environment variable name (letters, digits and '_', not starting with a digit)"
	}
	return ""
}
