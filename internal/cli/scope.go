package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/forgetools/forgetools/gateway/scopeedit"
	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/internal/config"
)

// scopeHelp is what every scope subcommand's --help says about where a
// scope lives.
const scopeHelp = `An account's scope is the list of repositories it may touch. It starts as the
accounts[].scope of the configuration. The first change made here copies that
list into the store (SQLite or PostgreSQL, the one --store or --config names)
and from then on the stored list is the account's whole scope: the
configuration's list is ignored for it, so an entry the configuration granted
can be taken back here. A running gateway sees a change within two seconds.
Every change is logged with who made it and when (forgetools scope log).

An entry is "owner/name", "owner/*", "prefix/**", a Linear team key or "*"
(every repository on every forge). It covers the default forge only, unless it
names another: "ghe.example.com:acme/app" or "github/ghe.example.com:acme/*".
An empty scope denies every repository. forgetools repos --forge NAME lists
what a forge's credential can reach, to choose entries from; the console's
Scope page (serve --console) shows the same list and makes the same changes.`

func newScope() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "scope",
		Short: "List and change the repositories an account may touch, kept in the store",
		Long:  scopeHelp,
		Example: `  forgetools scope list release-bot --config /etc/forgetools.yaml
  forgetools scope add release-bot ghe.example.com:acme/app --config /etc/forgetools.yaml
  forgetools scope remove release-bot acme/old --config /etc/forgetools.yaml
  forgetools scope log --config /etc/forgetools.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newScopeList(), newScopeChange(store.ScopeAdd), newScopeChange(store.ScopeRemove), newScopeLog())
	return cmd
}

// scopeStore loads the configuration and opens its store.
func scopeStore(cmd *cobra.Command, g *gatewayFlags) (*config.Config, *store.Store, error) {
	cfg, err := g.load()
	if err != nil {
		return nil, nil, err
	}
	log, err := g.logger(cmd.ErrOrStderr())
	if err != nil {
		return nil, nil, err
	}
	if _, err := prepareStore(cfg.Store, log); err != nil {
		return nil, nil, err
	}
	st, err := store.Open(cmd.Context(), cfg.Store, store.Options{Logger: log})
	if err != nil {
		return nil, nil, err
	}
	return cfg, st, nil
}

// scopeCommand is a scope subcommand: run gets the configuration and its
// open store.
func scopeCommand(use, short string, args cobra.PositionalArgs, run func(*cobra.Command, *config.Config, *store.Store, []string) error) *cobra.Command {
	var g gatewayFlags
	cmd := &cobra.Command{
		Use: use, Short: short, Long: scopeHelp, Args: args,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, st, err := scopeStore(cmd, &g)
			if err != nil {
				return err
			}
			defer st.Close()
			return run(cmd, cfg, st, args)
		},
	}
	g.register(cmd, "warn")
	return cmd
}

// scopeEditor is the stored-scope editor over the configured accounts,
// the one the console edits through as well.
func scopeEditor(cfg *config.Config, st *store.Store) *scopeedit.Editor {
	e := &scopeedit.Editor{Store: st}
	for _, a := range cfg.Accounts {
		e.Accounts = append(e.Accounts, scopeedit.Account{Name: a.Name, Configured: a.Scope})
	}
	return e
}

// scopeError gives a refused change its exit status: a bad argument is a
// usage error, an entry already there (or not there) a plain failure.
func scopeError(err error) error {
	if errors.Is(err, scopeedit.ErrInvalid) {
		return usageError{err}
	}
	return err
}

func newScopeList() *cobra.Command {
	return scopeCommand("list ACCOUNT", "Print an account's scope and where it comes from (the store or the configuration)", cobra.ExactArgs(1),
		func(cmd *cobra.Command, cfg *config.Config, st *store.Store, args []string) error {
			sc, err := scopeEditor(cfg, st).Scope(cmd.Context(), args[0])
			if err != nil {
				return scopeError(err)
			}
			from := "the configuration (no change was ever stored)"
			if sc.Stored {
				from = "the store (the configuration's scope is ignored for this account)"
			}
			return printScope(cmd.OutOrStdout(), sc.Account, from, sc.Entries)
		})
}

func printScope(w io.Writer, account, from string, entries []string) error {
	fmt.Fprintf(w, "# scope of account %s, from %s\n", account, from)
	if len(entries) == 0 {
		_, err := fmt.Fprintln(w, "# empty: every repository is denied")
		return err
	}
	for _, e := range entries {
		fmt.Fprintln(w, e)
	}
	return nil
}

func newScopeChange(action string) *cobra.Command {
	var actor string
	short := "Add an entry to an account's stored scope"
	if action == store.ScopeRemove {
		short = "Remove an entry from an account's stored scope"
	}
	cmd := scopeCommand(action+" ACCOUNT ENTRY", short, cobra.ExactArgs(2),
		func(cmd *cobra.Command, cfg *config.Config, st *store.Store, args []string) error {
			account, entry := args[0], args[1]
			if actor == "" {
				if actor = operatorName(); actor == "" {
					return usageError{errors.New("--actor is required: no user name could be read from the system to log the change with")}
				}
			}
			entries, err := scopeEditor(cfg, st).Change(cmd.Context(), action, account, entry, actor)
			if err != nil {
				return scopeError(err)
			}
			verb := map[string]string{store.ScopeAdd: "added", store.ScopeRemove: "removed"}[action]
			return printScope(cmd.OutOrStdout(), account, fmt.Sprintf("the store, %s %q by %s", verb, entry, actor), entries)
		})
	cmd.Flags().StringVar(&actor, "actor", "", "who makes the change, for the log (default: the system user name)")
	skipEnv(cmd, "actor")
	return cmd
}

// operatorName is the person running the command, as the system knows
// them.
func operatorName() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return os.Getenv("USER")
}

func newScopeLog() *cobra.Command {
	return scopeCommand("log [ACCOUNT]", "Print every change made to stored scopes: when, who, which account, what", cobra.MaximumNArgs(1),
		func(cmd *cobra.Command, _ *config.Config, st *store.Store, args []string) error {
			var account string
			if len(args) == 1 {
				account = args[0]
			}
			changes, err := st.ScopeLog(cmd.Context(), account)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if len(changes) == 0 {
				_, err := fmt.Fprintln(out, "No scope changes recorded: every account's scope is its configured one.")
				return err
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "TIME\tACTOR\tACCOUNT\tACTION\tENTRY")
			for _, c := range changes {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.At.Format(time.RFC3339), c.Actor, c.Account, c.Action, c.Entry)
			}
			return tw.Flush()
		})
}
