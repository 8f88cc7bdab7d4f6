package cli

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/console"
	"github.com/forgetools/forgetools/gateway/scopeedit"
	"github.com/forgetools/forgetools/gateway/server"
	"github.com/forgetools/forgetools/internal/approvalview"
	"github.com/forgetools/forgetools/internal/config"
)

// startConsole serves the operator's web console on addr beside the
// gateway's other listeners and returns its base URL.
func startConsole(sys *system, cfg *config.Config, srv *server.Server, tlsConfig *tls.Config, addr string) (string, error) {
	addr, err := server.ConsoleAddr(addr)
	if err != nil {
		return "", usageError{err}
	}
	host, _, _ := net.SplitHostPort(addr)
	ip := net.ParseIP(host)
	c, err := console.New(console.Options{
		Operators:    sys.operators,
		IsAgentToken: func(tok string) bool { _, ok := sys.svc.Authenticate(tok); return ok },
		Queue:        sys.queue(),
		Audit:        sys.store.Audit,
		Accounts:     consoleAccounts(cfg),
		Scopes:       sys.scopeEditor(cfg),
		Secure:       tlsConfig != nil,
		LoopbackOnly: strings.EqualFold(host, "localhost") || (ip != nil && ip.IsLoopback()),
		Logger:       sys.log,
	})
	if err != nil {
		return "", usageError{err}
	}
	bound, err := srv.ListenConsole(addr, c)
	if err != nil {
		return "", err
	}
	return scheme(tlsConfig) + "://" + bound.String(), nil
}

// consoleAccounts is what the console's scope page shows of each account.
func consoleAccounts(cfg *config.Config) []console.Account {
	var out []console.Account
	for _, a := range cfg.Accounts {
		ca := console.Account{Name: a.Name, Scope: a.Scope, Approvers: a.Approvers}
		for _, s := range a.Sessions {
			ca.Sessions = append(ca.Sessions, s.Name)
		}
		out = append(out, ca)
	}
	return out
}

// scopeEditor is the console's scope editor: forgetools scope add|remove's
// own, fed by the forges that can list, and telling the running gateway of
// each change so it holds from the next call.
func (s *system) scopeEditor(cfg *config.Config) *scopeedit.Editor {
	e := scopeEditor(cfg, s.store)
	e.Forges = s.discover
	e.Changed = s.svc.ScopeChanged
	return e
}

// queue is the approval gate the console decides through: the gateway's
// operator API, the same one forgetools approvals uses.
func (s *system) queue() console.Queue { return gateQueue{s.svc} }

// gateQueue shows the gateway's approvals in the console's terms.
type gateQueue struct{ svc *gateway.Service }

func (q gateQueue) Pending(ctx context.Context) ([]console.Approval, error) {
	return q.list(ctx, gateway.ApprovalFilter{State: gateway.ApprovalPending, Limit: 500}, nil)
}

func (q gateQueue) Decided(ctx context.Context) ([]console.Approval, error) {
	return q.list(ctx, gateway.ApprovalFilter{Limit: 200}, func(a gateway.Approval) bool { return a.State != gateway.ApprovalPending })
}

// list is the approvals f selects (newest first) that keep, if set, keeps.
func (q gateQueue) list(ctx context.Context, f gateway.ApprovalFilter, keep func(gateway.Approval) bool) ([]console.Approval, error) {
	list, err := q.svc.Approvals(ctx, f)
	if err != nil {
		return nil, err
	}
	var out []console.Approval
	for _, a := range list {
		if keep == nil || keep(a) {
			out = append(out, consoleApproval(a))
		}
	}
	return out, nil
}

func (q gateQueue) Show(ctx context.Context, id string) (console.Approval, error) {
	a, err := q.svc.Approval(ctx, id)
	if err != nil {
		return console.Approval{}, notFound(err)
	}
	c := consoleApproval(a)
	c.View = approvalview.Render(ctx, q.svc, a)
	return c, nil
}

func (q gateQueue) Approve(ctx context.Context, id, operator string) (string, error) {
	a, err := q.svc.Approve(ctx, id, operator, "")
	if err != nil {
		return "", notFound(err)
	}
	if a.Error != nil {
		return "it ran and failed: " + a.Error.GetMessage(), nil
	}
	return "the call ran; the agent's repeat of it returns its result.", nil
}

func (q gateQueue) Deny(ctx context.Context, id, operator, reason string) error {
	_, err := q.svc.Deny(ctx, id, operator, reason)
	return notFound(err)
}

// notFound gives an unknown id the console's own error, so it answers 404.
func notFound(err error) error {
	if errors.Is(err, gateway.ErrApprovalNotFound) {
		return fmt.Errorf("%w: %w", console.ErrNotFound, err)
	}
	return err
}

// consoleApproval is the console's view of one approval.
func consoleApproval(a gateway.Approval) console.Approval {
	c := console.Approval{
		ID: a.ID, Account: a.Account, Session: a.Session, Tool: a.Tool, Forge: a.Forge, Repo: a.Repo,
		State: a.State, Risk: a.Risk, Escalations: a.Escalations, Created: a.Created, Expires: a.Expires,
		Operator: a.Operator, Decided: a.Decided, Reason: a.Reason, Summary: a.Tool + " on " + a.Repo + approvalview.Files(a.Request),
	}
	switch {
	case a.Error != nil:
		c.Outcome = "it ran and failed: " + a.Error.GetMessage()
	case a.State == gateway.ApprovalDone:
		c.Outcome = "it ran"
	}
	var rules []string
	for _, h := range a.Holds {
		rules = append(rules, h.Rule+" ("+h.Reason+")")
	}
	c.Rule = strings.Join(rules, "; ")
	return c
}
