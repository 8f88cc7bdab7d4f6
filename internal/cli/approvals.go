package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/forgetools/forgetools/enumname"
	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/internal/approvalview"
)

const approvalsLong = `The gateway decides which calls reach a forge. An account's policy (the
"policy:" block of its configuration) says, per approval level, action class
and risk, whether a call runs (allow), waits for a person (operator) or is
refused (deny); the strictest matching rule decides. The default policy:

  read: allow   write: allow   push: operator   risk: {high: operator}
  unreviewed_merge: operator (a merge into the default branch that no one
  but the merging account approved)

A call that waits is parked in the gateway's store, exactly as it will run,
and never reaches the forge; the model reads "pending_approval" with the
approval's id and calls again with the same arguments for the decision:
the stored result once approved, the operator's reason once denied. This command is where a person decides:

  list             the approvals (pending ones by default), newest first
  show ID          what the call will do: for a file write the diff against
                   the file at the branch head, for a merge the pull
                   request, its head sha, reviews and checks, for any call
                   its arguments as they will be sent (texts in full)
  approve ID       run the parked call, once, exactly as parked, and print
                   its outcome
  deny ID --reason TEXT
                   refuse it; the model reads the reason when it calls again

It works on the same store the gateway uses (SQLite or PostgreSQL, from
--config or --store, else the default store in the data directory), so it
needs no running gateway, and a decision made here is seen by every gateway
replica on that store. approve runs the call from this process, with the
forge credentials the configuration names. An approval can be decided once:
approving or denying it again, or after it expired (approval_expiry,
default 24h), is an error and runs nothing.`

func newApprovals() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "approvals",
		Short: "List, show, approve or deny the calls the gateway's policy parked for an operator",
		Long:  approvalsLong,
		Example: `  forgetools approvals list
  forgetools approvals show ap-x7k2mq4r5t6v7w8y
  forgetools approvals approve ap-x7k2mq4r5t6v7w8y --reason "reviewed the diff"
  forgetools approvals deny ap-x7k2mq4r5t6v7w8y --reason "commit to a branch and open a pull request"
  forgetools approvals list --state all --config /etc/forgetools.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(approvalsList(), approvalsShow(), approvalsDecide(true), approvalsDecide(false))
	return cmd
}

// withService opens the configured gateway (store and forges) for one
// approvals command.
func withService(cmd *cobra.Command, g *gatewayFlags, fn func(ctx context.Context, svc *gateway.Service, out io.Writer) error) error {
	cfg, err := g.load()
	if err != nil {
		return err
	}
	log, err := g.logger(cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	if missingSQLite(cfg.Store) {
		return fmt.Errorf("no store at %s: no gateway has parked anything there", cfg.Store)
	}
	sys, err := open(cmd.Context(), cfg, log)
	if err != nil {
		return err
	}
	defer sys.Close()
	return fn(cmd.Context(), sys.svc, cmd.OutOrStdout())
}

func approvalsList() *cobra.Command {
	var g gatewayFlags
	var state, account string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List approvals, newest first (pending ones unless --state says otherwise)",
		Long: `List approvals, newest first: id, state, account/session, tool, repository,
forge and the rules that parked each. --state is pending (the default:
waiting and not expired), running, done, denied, expired or all.`,
		Example: "  forgetools approvals list\n  forgetools approvals list --state all --account release-bot",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if state == "all" {
				state = ""
			}
			return withService(cmd, &g, func(ctx context.Context, svc *gateway.Service, out io.Writer) error {
				list, err := svc.Approvals(ctx, gateway.ApprovalFilter{State: state, Account: account})
				if err != nil {
					return usageError{err}
				}
				if len(list) == 0 {
					fmt.Fprintln(out, "No approvals"+stateNote(state)+".")
				}
				for _, a := range list {
					fmt.Fprintln(out, approvalview.Summary(a))
				}
				return nil
			})
		},
	}
	g.register(cmd, "warn")
	cmd.Flags().StringVar(&state, "state", gateway.ApprovalPending, "pending, running, done, denied, expired or all")
	cmd.Flags().StringVar(&account, "account", "", "only this account's approvals")
	skipEnv(cmd, "state", "account")
	return cmd
}

func stateNote(state string) string {
	if state == "" {
		return ""
	}
	return " in state " + state
}

func approvalsShow() *cobra.Command {
	var g gatewayFlags
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Show what an approval's call will do: the diff, the pull request, the text",
		Long: `Show one approval: who asked, which rules parked it and why, and, while it
is pending, what the call will do, read from the forge now: for a file write
the diff against the file at the branch head; for a merge the pull request,
its head sha (and whether it is the one the call expects), its reviews and
its checks; then the call's arguments as they will be sent. A decided
approval shows its decision and outcome.`,
		Example: "  forgetools approvals show ap-x7k2mq4r5t6v7w8y",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withService(cmd, &g, func(ctx context.Context, svc *gateway.Service, out io.Writer) error {
				a, err := svc.Approval(ctx, args[0])
				if err != nil {
					return err
				}
				fmt.Fprint(out, approvalview.Render(ctx, svc, a))
				return nil
			})
		},
	}
	g.register(cmd, "warn")
	return cmd
}

func approvalsDecide(approve bool) *cobra.Command {
	var g gatewayFlags
	var operator, reason string
	use, short := "approve ID", "Approve a parked call: it runs now, once, exactly as parked"
	long := `Approve a pending approval: the parked call runs now, from this process,
exactly as it was parked (never rebuilt from later arguments), and its
outcome is printed and stored, so the model's next identical call reads it.
Approving twice, or after a denial or the expiry, is an error and runs
nothing.`
	if !approve {
		use, short = "deny ID --reason TEXT", "Deny a parked call, with the reason the model will read"
		long = `Deny a pending approval: the call never runs, and the model reads the
reason when it calls again. Denying twice, or after an approval or the
expiry, is an error.`
	}
	cmd := &cobra.Command{
		Use: use, Short: short, Long: long,
		Example: "  forgetools approvals " + strings.Fields(use)[0] + ` ap-x7k2mq4r5t6v7w8y --reason "checked the diff"`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !approve && strings.TrimSpace(reason) == "" {
				return usageError{errors.New("deny needs --reason: the model reads it to learn why")}
			}
			return withService(cmd, &g, func(ctx context.Context, svc *gateway.Service, out io.Writer) error {
				text, err := decide(ctx, svc, args[0], approve, operator, reason)
				if err != nil {
					return err
				}
				fmt.Fprint(out, text)
				return nil
			})
		},
	}
	g.register(cmd, "warn")
	cmd.Flags().StringVar(&operator, "operator", defaultOperator(), "who decides, as recorded with the decision")
	cmd.Flags().StringVar(&reason, "reason", "", "why (required to deny; the model reads it)")
	skipEnv(cmd, "reason")
	return cmd
}

// decide approves or denies approval id through the gateway and says what
// happened; `forgetools approvals` and the demo's operator both decide
// here.
func decide(ctx context.Context, svc *gateway.Service, id string, approve bool, operator, reason string) (string, error) {
	if !approve {
		a, err := svc.Deny(ctx, id, operator, reason)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("Denied %s (%s on %s): %s\n", a.ID, a.Tool, a.Repo, a.Reason), nil
	}
	a, err := svc.Approve(ctx, id, operator, reason)
	if err != nil {
		return "", err
	}
	if a.Error != nil {
		return fmt.Sprintf("Approved %s (%s on %s); the call ran and failed: %s: %s\n", a.ID, a.Tool, a.Repo, enumname.Of(a.Error.GetCode()), a.Error.GetMessage()), nil
	}
	return fmt.Sprintf("Approved %s (%s on %s); the call ran.\n", a.ID, a.Tool, a.Repo), nil
}

// defaultOperator is the login name, when it is a valid operator name.
func defaultOperator() string {
	if u := os.Getenv("USER"); u != "" && !strings.ContainsAny(u, " /\\") {
		return u
	}
	return "operator"
}
