package server_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"testing"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/subscriptions"
	"github.com/forgetools/forgetools/toolserver"
)

// A create on the local forge in the gateway's database commits the issue
// with the gateway's memo and ownership row, in one transaction: these
// tests break the create between the forge's write and that commit.

// localService is the gateway on the local forge in its store's database,
// as `forgetools serve` runs it; wrap (if any) stands between the two. It
// serves accounts, or with none one account "demo" (session "demo") with
// every repository in scope.
func localService(t testing.TB, dsn string, wrap func(*local.Forge) subscriptions.Provider, accounts ...gateway.Account) (*gateway.Service, *store.Store, *local.Forge) {
	t.Helper()
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	st, err := store.Open(ctx, dsn, store.Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	forge, err := local.New(ctx, st.DB(), local.Options{Dialect: string(st.Dialect()), Logger: log, GitDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var p subscriptions.Provider = forge
	if wrap != nil {
		p = wrap(forge)
	}
	if len(accounts) == 0 {
		accounts = []gateway.Account{{Name: "demo", AgentHandle: "agent", OwnerHandle: "me", Scope: []string{"*"}, Sessions: []string{"demo"}}}
	}
	svc, err := gateway.New(gateway.Config{
		Accounts: accounts,
		Forges:   []gateway.Forge{{Provider: subscriptions.Serve(p, st)}},
		Store:    st,
		Logger:   log,
	})
	if err != nil {
		t.Fatal(err)
	}
	return svc, st, forge
}

func callAs(t *testing.T, svc *gateway.Service, req *gatewayv1.ForgeCallRequest) *gatewayv1.ForgeCallResult {
	t.Helper()
	res, err := svc.Call(context.Background(), svc.Sessions()[0], req)
	if err != nil {
		t.Fatal(err)
	}
	return res.(*gatewayv1.ForgeCallResult)
}

// issuesIn lists every issue the forge holds in repo.
func issuesIn(t *testing.T, forge *local.Forge, repo string) []*forgev1.Issue {
	t.Helper()
	list, err := forge.ListIssues(context.Background(), toolserver.Call{}, &gatewayv1.ListIssuesRequest{
		Repo: repo, State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL})
	if err != nil {
		t.Fatal(err)
	}
	return list.GetIssues()
}

// afterWrite is the local forge with a create that fails after the forge
// wrote the issue: then, its answer is fail's.
type afterWrite struct {
	*local.Forge
	fail func() error
}

func (f afterWrite) CreateIssue(ctx context.Context, c toolserver.Call, req *gatewayv1.CreateIssueRequest) (*forgev1.Issue, error) {
	if _, err := f.Forge.CreateIssue(ctx, c, req); err != nil {
		return nil, err
	}
	return nil, f.fail()
}

// A create whose provider fails after writing keeps nothing: no issue, no
// number used, no memo, so the retry files issue #1.
func TestFailedCreateKeepsNothing(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		svc, st, forge := localService(t, dsn, func(f *local.Forge) subscriptions.Provider {
			return afterWrite{Forge: f, fail: func() error {
				return toolserver.Errorf(optionsv1.ErrorCode_ERROR_CODE_UNAVAILABLE, "the forge went away after writing")
			}}
		})
		wantError(t, callAs(t, svc, createIssue("acme/web", "Once", "Body", "key-1")),
			gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, "went away")
		if got := issuesIn(t, forge, "acme/web"); len(got) != 0 {
			t.Fatalf("the failed create left %d issues", len(got))
		}

		healthy, _, _ := localService(t, dsn, nil)
		iss := callAs(t, healthy, createIssue("acme/web", "Once", "Body", "key-1")).GetIssue()
		if iss.GetNumber() != 1 || iss.GetUrl() == "" {
			t.Fatalf("retry = %v, want a new issue #1", iss)
		}
		if owned, err := st.Owned(context.Background(), "demo"); err != nil || len(owned) != 1 {
			t.Fatalf("ownership = %v, %v; want the retry's row only", owned, err)
		}
	})
}

// crashChild names the database a child process of
// TestCrashBeforeCommitLeavesNothing creates on, then dies in.
const (
	crashChild = "FORGETOOLS_TEST_CRASH_CHILD"
	crashExit  = 37
)

// A gateway killed after the forge wrote an issue, before the create
// committed, leaves nothing behind: restarted on the same database, the
// retry with the same key files issue #1 (no replay of an issue that does
// not exist, no wait for a lease, no second issue).
func TestCrashBeforeCommitLeavesNothing(t *testing.T) {
	if dsn := os.Getenv(crashChild); dsn != "" {
		svc, _, _ := localService(t, dsn, func(f *local.Forge) subscriptions.Provider {
			return afterWrite{Forge: f, fail: func() error {
				os.Exit(crashExit) // the process dies with the transaction open
				return nil
			}}
		})
		res := callAs(t, svc, createIssue("acme/web", "Crash", "Body", "key-crash"))
		t.Fatalf("the child survived its create: %v", res)
	}
	storetest.Run(t, func(t *testing.T, dsn string) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashBeforeCommitLeavesNothing$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashChild+"="+dsn)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != crashExit {
			t.Fatalf("child = %v, want exit %d\n%s", err, crashExit, out)
		}

		svc, st, forge := localService(t, dsn, nil)
		if got := issuesIn(t, forge, "acme/web"); len(got) != 0 {
			t.Fatalf("the crashed create left %d issues", len(got))
		}
		iss := callAs(t, svc, createIssue("acme/web", "Crash", "Body", "key-crash")).GetIssue()
		if iss.GetNumber() != 1 || iss.GetUrl() == "" {
			t.Fatalf("retry after the crash = %v, want a new issue #1", iss)
		}
		again := callAs(t, svc, createIssue("acme/web", "Crash", "Body", "key-crash")).GetIssue()
		if again.GetNumber() != 1 || again.GetUrl() != "" {
			t.Fatalf("second retry = %v, want a replay of #1", again)
		}
		owned, err := st.Owned(context.Background(), "demo")
		if err != nil || len(owned) != 1 || fmt.Sprint(owned[0].Number) != "1" {
			t.Fatalf("ownership = %+v, %v; want issue #1 only", owned, err)
		}
	})
}
