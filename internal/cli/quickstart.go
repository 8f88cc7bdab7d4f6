package cli

import (
	"fmt"
	"os/user"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/forgetools/forgetools/internal/config"
)

// quickstart is the one-line GitHub setup: a token in the environment and
// the repositories the agent may touch, no configuration file.
type quickstart struct {
	github      bool
	host        string
	apiURL      string
	tokenEnv    string
	repos       []string
	agentHandle string
	ownerHandle string
}

// quickstartSession is the session (and socket name) the one-line setup
// gives its single account.
const quickstartSession = "agent"

func (q *quickstart) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.BoolVar(&q.github, "github", false, "serve GitHub with the token in $GITHUB_TOKEN (see --github-token-env), no config file; needs --repo")
	fl.StringVar(&q.host, "github-host", "", "with --github: a GitHub Enterprise Server host, e.g. github.example.com (default github.com)")
	fl.StringVar(&q.apiURL, "github-api-url", "", "with --github: the REST API endpoint when it is not https://HOST/api/v3/ (or api.github.com)")
	fl.StringVar(&q.tokenEnv, "github-token-env", "GITHUB_TOKEN", "with --github: the environment variable holding the GitHub token")
	fl.StringSliceVar(&q.repos, "repo", nil, "with --github: a repository the agent may touch, owner/name or a glob such as owner/* (repeatable)")
	fl.StringVar(&q.agentHandle, "agent-handle", "forgetools-agent", "with --github: the agent named in the attribution stamped into every body it writes")
	fl.StringVar(&q.ownerHandle, "owner-handle", "", "with --github: on whose behalf the agent writes (default: your user name)")
}

// used reports whether any quick-start flag was given.
func (q *quickstart) used(cmd *cobra.Command) bool {
	if cmd == nil {
		return false // a command without these flags (demo)
	}
	for _, name := range []string{"github", "github-host", "github-api-url", "github-token-env", "repo", "agent-handle", "owner-handle"} {
		if cmd.Flags().Changed(name) {
			return true
		}
	}
	return false
}

// config builds the one-forge, one-account configuration the flags
// describe, in the default data directory.
func (q *quickstart) config(cmd *cobra.Command) (*config.Config, error) {
	if !q.github {
		return nil, usageError{fmt.Errorf("--github-host, --github-api-url, --github-token-env, --repo and the handles configure the one-line GitHub setup: add --github")}
	}
	if len(q.repos) == 0 {
		return nil, usageError{fmt.Errorf("--github needs at least one --repo owner/name (or a glob such as owner/*): the agent may touch only the repositories you name, so with none it could do nothing")}
	}
	dir, err := config.DataDir()
	if err != nil {
		return nil, err
	}
	owner := q.ownerHandle
	if owner == "" {
		owner = currentUser()
	}
	cfg := config.Default(dir)
	cfg.Forges = []config.Forge{{Provider: "github", Host: q.host, APIURL: q.apiURL, TokenEnv: q.tokenEnv, Default: true}}
	cfg.Accounts = []config.Account{{
		Name:        quickstartSession,
		AgentHandle: q.agentHandle,
		OwnerHandle: owner,
		Scope:       q.repos,
		Sessions:    []config.Session{{Name: quickstartSession}},
	}}
	if err := cfg.Check(); err != nil {
		return nil, usageError{err}
	}
	return cfg, nil
}

// notHandle is what an attribution handle cannot hold.
var notHandle = regexp.MustCompile(`[^A-Za-z0-9._:-]+`)

// currentUser is the OS user name as an attribution handle, "owner" when
// there is none to read.
func currentUser() string {
	u, err := user.Current()
	if err != nil {
		return "owner"
	}
	name := strings.Trim(notHandle.ReplaceAllString(u.Username, "-"), "-._:")
	if name == "" {
		return "owner"
	}
	return name
}
