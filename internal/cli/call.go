package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/forgetools/forgetools/runtime"
)

// maxStdinArgs bounds the arguments `call -` reads: the gateway refuses a
// request larger than its 16 MiB limit anyway (server.DefaultMaxRequestBytes).
const maxStdinArgs = 16 << 20

func newCall() *cobra.Command {
	var f toolFlags
	var id string
	cmd := &cobra.Command{
		Use:   "call TOOL 'JSON-ARGS'",
		Short: "Run one tool call and print exactly what the model would see",
		Long: `Run one tool call and print its result text, exactly as the model reads it.
The exit code is 0 on success and 1 when the tool call failed (the failure
text is still printed, on stdout, as the model would see it).

Without --gateway the gateway runs in-process on the embedded local forge and
the same store as 'forgetools serve', so a create followed by a read sees what
was created. '-' as JSON-ARGS reads the arguments from stdin: all of it, judged
exactly as on the command line (one JSON object of valid Unicode text, nothing
after it), with the same failure text and exit code.`,
		Example: `  forgetools call forge_create_issue '{"repo":"demo/app","title":"Crash on start","labels":["bug"]}'
  forgetools call forge_get_issue '{"repo":"demo/app","issue_number":1}'
  forgetools call forge_list_issues '{"repo":"demo/app","state":"all"}' --gateway unix://$HOME/.local/share/forgetools/sockets/demo.sock`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, argv []string) error {
			args := "{}"
			if len(argv) == 2 {
				args = argv[1]
			}
			if args == "-" {
				// Read everything and let the tool's decoder judge it, as
				// it judges argv: trailing data, bad JSON and bad text are
				// the same model-facing failures either way.
				raw, err := io.ReadAll(io.LimitReader(cmd.InOrStdin(), maxStdinArgs+1))
				if err != nil {
					return fmt.Errorf("reading arguments from stdin: %w", err)
				}
				if len(raw) > maxStdinArgs {
					return usageError{fmt.Errorf("arguments on stdin are longer than %d bytes, more than any tool accepts", maxStdinArgs)}
				}
				args = string(raw)
			}
			if id != "" {
				// An explicit id names the create across processes: running
				// the same call again replays it instead of filing twice.
				// The key is "cli:" + id.
				f.nonce = "cli"
			}
			// Without --id the call goes without one: the gateway derives
			// a create's dedup key from the session and the arguments, so
			// the same create run again within its dedup window replays.
			ts, closeFn, err := f.toolset(cmd.Context(), cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			defer closeFn()
			if why := ts.Refusal(argv[0]); why != "" {
				if !strings.Contains(why, argv[0]) {
					why = fmt.Sprintf("%q: %s", argv[0], why) // an unknown name: say which
				}
				return usageError{errors.New(why)}
			}
			res := ts.Execute(cmd.Context(), runtime.Call{ID: id, Name: argv[0], Args: json.RawMessage(args)})
			fmt.Fprintln(cmd.OutOrStdout(), res.Text)
			if res.IsError {
				return errToolFailed
			}
			return nil
		},
	}
	f.register(cmd, "warn")
	cmd.Flags().StringVar(&id, "id", "", "tool call id; running a create again with the same id replays it for good (without --id, the same create repeated within the gateway's dedup window replays)")
	skipEnv(cmd, "id")
	return cmd
}
