package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"connectrpc.com/connect"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/server"
	"github.com/forgetools/forgetools/gateway/store"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1connect"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/subscriptions"
)

// The repository every agent works in, and the issue they read and file.
const (
	repo       = "load/app"
	issueTitle = "Crash when the config file is empty"
	// issueBody is the size of a typical bug report.
	issueBody = "Steps to reproduce:\n1. Create an empty forgetools.yaml.\n2. Run `forgetools serve --config forgetools.yaml`.\n\n" +
		"Expected: a clear error naming the missing forges and accounts.\nActual: the process exits with status 1 and no message.\n\n" +
		"Environment: linux/amd64, Go 1.26, SQLite store in the default data directory. The same happens with a PostgreSQL store. " +
		"Logs at debug level show the store migrating and nothing after it; the socket directory is created but stays empty."
	comment = "Reproduced on main; the configuration check returns before the logger is set up, so its error is never printed."
)

// target is something the agents call: a socket per agent.
type target struct {
	name    string
	sockets []string // unix:// targets, one per agent
	stop    func()
}

// startGateway runs the gateway the way `forgetools serve` does with its
// default configuration: a store, the embedded local forge, one account
// whose sessions (one per agent) each get a Unix socket. It seeds one issue
// with two comments per agent, and returns the results the gateway gave for
// a read and a create, which the baseline replays.
func startGateway(ctx context.Context, dir, dsn string, agents int, log *slog.Logger) (*target, *canned, error) {
	st, err := store.Open(ctx, dsn, store.Options{Logger: log})
	if err != nil {
		return nil, nil, err
	}
	fail := func(err error) (*target, *canned, error) {
		st.Close()
		return nil, nil, err
	}
	forge, err := local.New(ctx, st.DB(), local.Options{Dialect: string(st.Dialect()), Logger: log, GitDir: filepath.Join(dir, "repos")})
	if err != nil {
		return fail(err)
	}
	sessions := make([]string, agents)
	for i := range sessions {
		sessions[i] = fmt.Sprintf("agent-%d", i+1)
	}
	svc, err := gateway.New(gateway.Config{
		Store:  st,
		Logger: log,
		Forges: []gateway.Forge{{Provider: subscriptions.Serve(forge, st), Default: true}},
		Accounts: []gateway.Account{{
			Name: "load", AgentHandle: "load-agent", OwnerHandle: "load-owner",
			Scope: []string{"load/*"}, Sessions: sessions,
			// The driver measures throughput: quotas and the in-flight cap
			// stay in the path (they are checked on every call) but are
			// set past what a run can reach, or they would be what it
			// measures.
			Limits: gateway.Limits{InFlight: 1 << 20, WriteCallsPerMinute: 1 << 30, WriteBytesPerMinute: 1 << 40,
				PushCallsPerMinute: 1 << 30, PushBytesPerMinute: 1 << 40},
		}},
	})
	if err != nil {
		return fail(err)
	}
	c, err := seed(ctx, svc, agents)
	if err != nil {
		return fail(err)
	}
	srv := server.New(svc, server.Options{Logger: log})
	paths, err := srv.ListenSockets(filepath.Join(dir, "gateway"))
	if err != nil {
		return fail(err)
	}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		srv.Run(runCtx)
		close(done)
	}()
	stop := func() {
		cancel()
		<-done
		st.Close()
	}
	return &target{name: "gateway", sockets: unixTargets(paths), stop: stop}, c, nil
}

// seed files issue #i for agent i, each with two comments, in process (no
// socket), and records what the gateway answers to a read and a create.
func seed(ctx context.Context, svc *gateway.Service, agents int) (*canned, error) {
	id := svc.Sessions()[0]
	do := func(req *gatewayv1.ForgeCallRequest) (*gatewayv1.ForgeCallResult, error) {
		out, err := svc.Call(ctx, id, req)
		if err != nil {
			return nil, err
		}
		res := out.(*gatewayv1.ForgeCallResult)
		if fe := res.GetError(); fe != nil {
			return nil, fmt.Errorf("seeding the load repository: %s: %s", fe.GetCode(), fe.GetMessage())
		}
		return res, nil
	}
	var c canned
	for i := range agents {
		// Distinct titles: identical keyless creates from one session
		// would be answered by the gateway's dedup replay.
		create := &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreateIssue{CreateIssue: &gatewayv1.CreateIssueRequest{
			Repo: repo, Title: fmt.Sprintf("%s (%d)", issueTitle, i+1), Body: issueBody, Labels: []string{"bug", "load"},
		}}}
		res, err := do(create)
		if err != nil {
			return nil, err
		}
		c.create = res
		n := res.GetIssue().GetNumber()
		for range 2 {
			if _, err := do(&gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CommentOnIssue{
				CommentOnIssue: &gatewayv1.CommentOnIssueRequest{Repo: repo, IssueNumber: n, Body: comment}}}); err != nil {
				return nil, err
			}
		}
	}
	res, err := do(&gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_GetIssue{
		GetIssue: &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: 1}}})
	if err != nil {
		return nil, err
	}
	c.get = res
	return &c, nil
}

// canned is the baseline: an AgentGateway handler that answers at once
// with results the real gateway gave, so both targets send the agents the
// same bytes to decode and render.
type canned struct {
	// WaitEvents is not measured.
	gatewayv1connect.UnimplementedAgentGatewayHandler
	get, create *gatewayv1.ForgeCallResult
}

func (c *canned) Forge(_ context.Context, req *connect.Request[gatewayv1.ForgeCallRequest]) (*connect.Response[gatewayv1.ForgeCallResult], error) {
	switch req.Msg.GetCall().(type) {
	case *gatewayv1.ForgeCallRequest_GetIssue:
		return connect.NewResponse(c.get), nil
	case *gatewayv1.ForgeCallRequest_CreateIssue:
		return connect.NewResponse(c.create), nil
	}
	return nil, connect.NewError(connect.CodeUnimplemented, errors.New("the baseline answers forge_get_issue and forge_create_issue only"))
}

// startBaseline serves c as a bare Connect handler on one Unix socket per
// agent, over the same HTTP protocols and request limit as the gateway.
func startBaseline(dir string, agents int, c *canned) (*target, error) {
	path, h := gatewayv1connect.NewAgentGatewayHandler(c, connect.WithReadMaxBytes(server.DefaultMaxRequestBytes))
	mux := http.NewServeMux()
	mux.Handle(path, h)
	var protocols http.Protocols
	protocols.SetHTTP1(true)
	protocols.SetUnencryptedHTTP2(true)
	srv := &http.Server{Handler: mux, Protocols: &protocols, ReadHeaderTimeout: 10 * time.Second}

	dir = filepath.Join(dir, "baseline")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	var paths []string
	for i := range agents {
		p := filepath.Join(dir, fmt.Sprintf("agent-%d.sock", i+1))
		l, err := net.Listen("unix", p)
		if err != nil {
			srv.Close()
			return nil, err
		}
		go srv.Serve(l)
		paths = append(paths, p)
	}
	stop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	}
	return &target{name: "baseline", sockets: unixTargets(paths), stop: stop}, nil
}

func unixTargets(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = "unix://" + p
	}
	return out
}

// shortTempDir makes a directory for the sockets whose paths stay well
// under the 107-byte limit, even with a long $TMPDIR.
func shortTempDir() (string, error) {
	if len(os.TempDir()) < 60 {
		return os.MkdirTemp("", "ftload-")
	}
	return os.MkdirTemp("/tmp", "ftload-")
}
