package cli

import (
	"crypto/tls"
	"net"
	"strings"

	"github.com/forgetools/forgetools/gateway/console"
	"github.com/forgetools/forgetools/gateway/server"
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

// queue is the approval gate the console decides through; nil until the
// gateway has one.
func (s *system) queue() console.Queue { return nil }
