package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/forgetools/forgetools/gateway/scopeedit"
	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/internal/config"
	"github.com/forgetools/forgetools/internal/redact"
	"github.com/forgetools/forgetools/providers/discovery"
	"github.com/forgetools/forgetools/subscriptions"
	"github.com/forgetools/forgetools/toolserver"
)

func newRepos() *cobra.Command {
	var g gatewayFlags
	var forge string
	var scopeYAML bool
	cmd := &cobra.Command{
		Use:   "repos --forge NAME",
		Short: "List the repositories a forge's credential can reach, to build an account's scope",
		Long: `List every repository the configured credential of one forge can reach, with
the credential's permission on each (admin, maintain, write, triage, read), so
an account's scope is built from what exists rather than from guessed globs.

NAME is a provider (github, gitlab, gitea, forgejo, linear, local: its first
configured forge) or provider/host for one instance. GitHub lists what the
token owns, collaborates on and reaches through its organizations; GitLab the
projects the token is a member of (nested groups included); Gitea and Forgejo
the token's /user/repos; Linear the team keys it can see; the local forge its
repositories. Large accounts are paged through to the end; the count goes to
stderr when the listing is done.

With --scope-yaml the list is an accounts[].scope block ready to paste into the
configuration: delete the lines this account must not touch.`,
		Example: `  forgetools repos --forge github --config /etc/forgetools.yaml
  forgetools repos --forge gitlab/gitlab.example.com --config forgetools.yaml --scope-yaml
  forgetools repos --forge local`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if forge == "" {
				return usageError{errors.New("--forge is required: a provider (github, gitlab, gitea, forgejo, linear, local) or provider/host")}
			}
			log, err := g.logger(cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			cfg, err := g.load()
			if err != nil {
				return err
			}
			f, err := pickForge(cfg, forge)
			if err != nil {
				return err
			}
			lf, closeFn, err := openLister(cmd.Context(), cfg, f, log)
			if err != nil {
				return err
			}
			defer closeFn()
			where := lf.Where
			n, err := listRepos(cmd.Context(), lf.Lister, cmd.OutOrStdout(), scopeYAML, where, lf.Prefix)
			if err != nil {
				return fmt.Errorf("%s: %s", where, message(err))
			}
			noun := "repositories"
			if f.Provider == "linear" {
				noun = "team keys"
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "found %d %s reachable on %s\n", n, noun, where)
			return nil
		},
	}
	g.register(cmd, "warn")
	cmd.Flags().StringVar(&forge, "forge", "", "the forge to ask: a provider, or provider/host")
	cmd.Flags().BoolVar(&scopeYAML, "scope-yaml", false, "print an accounts[].scope block ready to paste instead of a table")
	return cmd
}

// pickForge finds the configured forge NAME names: provider alone is its
// first configured forge (the gateway's default instance of it).
func pickForge(cfg *config.Config, name string) (config.Forge, error) {
	provider, host, _ := strings.Cut(name, "/")
	var names []string
	for _, f := range cfg.Forges {
		names = append(names, f.Provider+hostSuffix(f.Host))
		if f.Provider == provider && (host == "" || strings.EqualFold(f.Host, host)) {
			return f, nil
		}
	}
	return config.Forge{}, usageError{fmt.Errorf("--forge %q: no such forge is configured (configured: %s)", name, strings.Join(names, ", "))}
}

func hostSuffix(host string) string {
	if host == "" {
		return ""
	}
	return "/" + host
}

// openLister builds the forge's provider (the local forge on the
// configured store) and returns it as a discovery list's forge.
func openLister(ctx context.Context, cfg *config.Config, f config.Forge, log *slog.Logger) (_ scopeedit.Forge, _ func(), _ error) {
	var (
		p       subscriptions.Provider
		closeFn = func() {}
		creds   = config.Credentials{}
	)
	if f.Provider == "local" {
		if _, err := prepareStore(cfg.Store, log); err != nil {
			return scopeedit.Forge{}, nil, err
		}
		st, err := store.Open(ctx, cfg.Store, store.Options{Logger: log})
		if err != nil {
			return scopeedit.Forge{}, nil, err
		}
		closeFn = func() { st.Close() }
		// Listing writes nothing, so nothing to record: no event feed.
		if p, err = buildLocal(ctx, st, nil, f, cfg.Store, log); err != nil {
			closeFn()
			return scopeedit.Forge{}, nil, fmt.Errorf("forge local: %w", err)
		}
	} else {
		// Only this forge's credentials: listing one forge needs no other's.
		for _, env := range []string{f.TokenEnv, f.ReviewerTokenEnv} {
			v, err := config.Secret(env)
			if err != nil {
				return scopeedit.Forge{}, nil, fmt.Errorf("forge %s: %w", f.Provider, err)
			}
			creds[env] = v
		}
		log = slog.New(redact.NewHandler(log.Handler(), redact.New(creds.Values()...)))
		var err error
		if p, _, err = buildRemote(f, creds, log); err != nil {
			return scopeedit.Forge{}, nil, fmt.Errorf("forge %s: %w", f.Provider, err)
		}
	}
	lf, err := discoveryForge(cfg, f, p, redact.New(creds.Values()...))
	if err != nil {
		closeFn()
		return scopeedit.Forge{}, nil, err
	}
	return lf, closeFn, nil
}

// discoveryForge is a built provider as a discovery list asks it: named
// as the operator knows it, with the prefix that makes a listed
// repository this forge's scope entry. A forge that cannot list is an
// error saying so.
func discoveryForge(cfg *config.Config, f config.Forge, p subscriptions.Provider, r *redact.Redactor) (scopeedit.Forge, error) {
	where := f.Provider // the local forge's host is only a label
	if f.Provider != "local" {
		where += hostSuffix(p.Ref().GetHost())
	}
	l, ok := p.(discovery.Lister)
	if !ok {
		return scopeedit.Forge{}, fmt.Errorf("forge %s cannot list what its credential reaches", where)
	}
	// A scope entry without a forge covers the default forge only:
	// another forge's entries name it.
	prefix := ""
	if d := defaultForge(cfg); f.Provider != d.Provider || !strings.EqualFold(f.Host, d.Host) {
		prefix = p.Ref().GetHost() + ":"
	}
	return scopeedit.Forge{Where: where, Prefix: prefix, Lister: l, Redact: r.String}, nil
}

// defaultForge is the forge a call naming none goes to: the one marked
// default, else the first.
func defaultForge(cfg *config.Config) config.Forge {
	for _, f := range cfg.Forges {
		if f.Default {
			return f
		}
	}
	if len(cfg.Forges) == 0 {
		return config.Forge{}
	}
	return cfg.Forges[0]
}

// plainYAML is a scope entry YAML reads as a plain string.
var plainYAML = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_./:-]*$`)

// listRepos streams the listing to w as it pages in: a table, or a scope
// block. It returns how many it found.
func listRepos(ctx context.Context, l discovery.Lister, w io.Writer, scopeYAML bool, where, prefix string) (int, error) {
	n := 0
	if scopeYAML {
		fmt.Fprintf(w, "    # reachable on %s: keep only what this account may touch\n    scope:\n", where)
	}
	err := l.Repositories(ctx, func(r discovery.Repository) error {
		n++
		perm := r.Permission
		if perm == "" {
			perm = "-"
		}
		if !scopeYAML {
			_, err := fmt.Fprintf(w, "%-9s %s\n", perm, r.Repo)
			return err
		}
		entry := prefix + r.Repo
		if !plainYAML.MatchString(entry) {
			entry = fmt.Sprintf("%q", entry)
		}
		_, err := fmt.Fprintf(w, "      - %-40s # %s\n", entry, perm)
		return err
	})
	if scopeYAML && err == nil && n == 0 {
		fmt.Fprintln(w, "      []  # nothing reachable: an empty scope denies everything")
	}
	return n, err
}

// message is an error as one line for the operator.
func message(err error) string {
	if e, ok := toolserver.AsError(err); ok {
		return e.Message
	}
	return err.Error()
}
