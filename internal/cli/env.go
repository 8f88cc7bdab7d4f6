package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// envPrefix starts the environment variable of every main flag:
// --log-level is FORGETOOLS_LOG_LEVEL.
const envPrefix = "FORGETOOLS_"

// noEnv marks a flag that names one invocation's input (a call id, an
// output format, an audit filter) rather than a setting: an environment
// variable set for one command would silently change another's.
const noEnv = "forgetools_no_env"

// envName is the variable that sets flag name.
func envName(name string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// skipEnv excludes a flag from environment variables.
func skipEnv(cmd *cobra.Command, names ...string) {
	for _, n := range names {
		_ = cmd.Flags().SetAnnotation(n, noEnv, []string{"true"})
	}
}

func envAllowed(f *pflag.Flag) bool {
	return f.Name != "help" && f.Name != "version" && f.Annotations[noEnv] == nil
}

// applyEnv sets every flag the command line left alone from its
// FORGETOOLS_* variable, if set; the command line wins. A value the flag
// refuses is a usage error naming the variable.
func applyEnv(cmd *cobra.Command) error {
	var err error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if err != nil || f.Changed || !envAllowed(f) {
			return
		}
		v, ok := os.LookupEnv(envName(f.Name))
		if !ok {
			return
		}
		if cmd.Flags().Set(f.Name, v) != nil {
			err = usageError{fmt.Errorf("%s=%q is not a valid %s for --%s", envName(f.Name), v, f.Value.Type(), f.Name)}
		}
	})
	return err
}

// documentEnv appends each flag's variable to its help text, on every
// command of the tree.
func documentEnv(cmd *cobra.Command) {
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if envAllowed(f) && !strings.Contains(f.Usage, envPrefix) {
			f.Usage += " [$" + envName(f.Name) + "]"
		}
	})
	for _, c := range cmd.Commands() {
		documentEnv(c)
	}
}
