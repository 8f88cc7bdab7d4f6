// Package cli is the forgetools command: serve the gateway, serve the tools
// over MCP, list them, call one, or run the demo.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/forgetools/forgetools/internal/config"
)

// Version is the forgetools release this binary reports.
const Version = "0.1.0"

// errToolFailed makes `call` exit 1 after printing the failure text.
var errToolFailed = errors.New("tool call failed")

// Main runs the command line and returns the process exit code: 0 success,
// 1 a failed tool call or runtime error, 2 a usage error.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot(stdin, stdout, stderr)
	root.SetArgs(args)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cmd, err := root.ExecuteContextC(ctx)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errToolFailed):
		return 1
	case cmd != nil && isUsage(err):
		fmt.Fprintf(stderr, "forgetools: %v\nRun '%s --help' for usage.\n", err, cmd.CommandPath())
		return 2
	default:
		fmt.Fprintf(stderr, "forgetools: %v\n", err)
		return 1
	}
}

// usageError marks a bad invocation (exit 2) as opposed to a failure.
type usageError struct{ error }

func isUsage(err error) bool {
	var u usageError
	return errors.As(err, &u) || isCobraUsage(err)
}

func newRoot(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "forgetools",
		Short: "Agent tools for code forges, generated from protobuf",
		Long: `forgetools gives AI agents the tools to work on code forges (GitHub,
GitLab, Gitea, Forgejo, Linear and a local sandbox forge): read and write
issues and pull requests, read a repository, push a branch and a file,
merge, drive CI, and hear what changes on the issues and pull requests they
subscribe to. A gateway holds the credentials and enforces identity,
repository scope and idempotency; pushes need their own approval.

With no configuration everything runs on the embedded local forge: a SQLite
file in the data directory ($FORGETOOLS_DATA_DIR, else
$XDG_DATA_HOME/forgetools, else ~/.local/share/forgetools), each repository
a bare git repository in its repos/ directory (git clone it from there), one
demo account whose scope is every repository. No credentials, no network.

For GitHub without a configuration file:

  GITHUB_TOKEN=... forgetools mcp --github --repo owner/name

Every flag can also be set by an environment variable, shown in [$...]
after it in each command's --help (FORGETOOLS_CONFIG for --config); the
command line wins.`,
		Version:       Version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error { return applyEnv(cmd) }
	root.AddCommand(newServe(), newMCP(), newTools(), newCall(), newAudit(), newApprovals(), newDemo(), newRepos())
	documentEnv(root)
	return root
}

// isCobraUsage recognises cobra's own argument-count errors.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"accepts ", "requires ", "unknown command", "unknown flag", "unknown shorthand"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// gatewayFlags are the flags of every command that may run the gateway
// in-process.
type gatewayFlags struct {
	config   string
	store    string
	logLevel string
	quick    quickstart
	cmd      *cobra.Command // the command the flags are registered on
}

func (g *gatewayFlags) register(cmd *cobra.Command, defaultLevel string) {
	g.registerConfig(cmd)
	cmd.Flags().StringVar(&g.store, "store", "", "state store: a SQLite file path or a postgres:// DSN (overrides the config)")
	cmd.Flags().StringVar(&g.logLevel, "log-level", defaultLevel, "log level: debug, info, warn or error (logs go to stderr)")
}

// registerConfig registers the flags that say which configuration to
// use: --config, or the one-line GitHub setup.
func (g *gatewayFlags) registerConfig(cmd *cobra.Command) {
	g.cmd = cmd
	cmd.Flags().StringVar(&g.config, "config", "", "gateway configuration file (YAML); default: the embedded local forge")
	g.quick.register(cmd)
}

// configured reports whether the flags name a configuration other than
// the default one.
func (g *gatewayFlags) configured() bool {
	return g.config != "" || g.quick.used(g.cmd)
}

// load returns the configuration to run: the file, the one-line GitHub
// setup, or the default.
func (g *gatewayFlags) load() (*config.Config, error) {
	var cfg *config.Config
	if g.quick.used(g.cmd) {
		if g.config != "" {
			return nil, usageError{fmt.Errorf("--github builds its own configuration: use it or --config, not both")}
		}
		c, err := g.quick.config(g.cmd)
		if err != nil {
			return nil, err
		}
		cfg = c
	} else if g.config != "" {
		c, err := config.Load(g.config)
		if err != nil {
			return nil, err
		}
		cfg = c
	} else {
		dir, err := config.DataDir()
		if err != nil {
			return nil, err
		}
		cfg = config.Default(dir)
	}
	if g.store != "" {
		cfg.Store = g.store
	}
	return cfg, nil
}

func (g *gatewayFlags) logger(w io.Writer) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(g.logLevel)); err != nil {
		return nil, usageError{fmt.Errorf("--log-level %q: want debug, info, warn or error", g.logLevel)}
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})), nil
}
