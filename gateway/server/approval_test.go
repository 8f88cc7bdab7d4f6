package server_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/subscriptions"
)

// gated is a gateway on the local forge whose account "agent" has the
// default policy (pushes wait for an operator) and whose account "seed"
// runs everything, to set a repository up. Its store's clock can be moved.
type gated struct {
	svc    *gateway.Service
	store  *store.Store
	gitDir string
	dsn    string
	clock  *clock
}

// clock is a store clock a test moves forward.
type clock struct{ offset atomic.Int64 }

func (c *clock) now() time.Time          { return time.Now().Add(time.Duration(c.offset.Load())) }
func (c *clock) advance(d time.Duration) { c.offset.Add(int64(d)) }

var gatedAccounts = []gateway.Account{
	{Name: "agent", AgentHandle: "agent", OwnerHandle: "me", Scope: []string{"acme/*"}, Sessions: []string{"agent"}},
	{Name: "seed", AgentHandle: "seed", OwnerHandle: "me", Scope: []string{"*"}, Sessions: []string{"seed"},
		PushToDefaultBranch: true, Policy: gateway.Unattended()},
	// pusher may push unattended, but not merge its own unreviewed code.
	{Name: "pusher", AgentHandle: "pusher", OwnerHandle: "me", Scope: []string{"acme/*"}, Sessions: []string{"pusher"},
		Policy: gateway.Policy{Levels: map[string]gateway.Decision{"push": gateway.Allow}, Risks: map[string]gateway.Decision{}}},
}

// openGated opens (or, on the same dsn and git directory, reopens, as a
// restart or a second replica would) the gated gateway.
func openGated(t *testing.T, dsn, gitDir string, c *clock, wait ...time.Duration) *gated {
	t.Helper()
	return openGatedAs(t, gatedAccounts, dsn, gitDir, c, wait...)
}

// openGatedAs is openGated with the given accounts.
func openGatedAs(t *testing.T, accounts []gateway.Account, dsn, gitDir string, c *clock, wait ...time.Duration) *gated {
	t.Helper()
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	st, err := store.Open(ctx, dsn, store.Options{Logger: log, Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	forge, err := local.New(ctx, st.DB(), local.Options{Dialect: string(st.Dialect()), Logger: log, GitDir: gitDir})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := gateway.New(gateway.Config{
		Accounts: accounts,
		Forges:   []gateway.Forge{{Provider: subscriptions.Serve(forge, st)}},
		Store:    st, Logger: log, ApprovalExpiry: time.Hour, ApprovalWait: append(wait, 0)[0],
	})
	if err != nil {
		t.Fatal(err)
	}
	return &gated{svc: svc, store: st, gitDir: gitDir, dsn: dsn, clock: c}
}

func newGated(t *testing.T, dsn string) *gated {
	return openGated(t, dsn, t.TempDir(), &clock{})
}

// as calls the gateway as session (an account of the same name).
func (g *gated) as(t *testing.T, session string, req *gatewayv1.ForgeCallRequest) *gatewayv1.ForgeCallResult {
	t.Helper()
	res, err := g.svc.Call(context.Background(), gateway.Identity{Account: session, Session: session}, req)
	if err != nil {
		t.Fatal(err)
	}
	return res.(*gatewayv1.ForgeCallResult)
}

func (g *gated) seed(t *testing.T, req *gatewayv1.ForgeCallRequest) *gatewayv1.ForgeCallResult {
	t.Helper()
	res := g.as(t, "seed", req)
	if fe := res.GetError(); fe != nil {
		t.Fatalf("seed %v: %s", req, fe)
	}
	return res
}

// refs is every ref of the forge's bare repository, with its object, as
// git reads it: what a push changes.
func (g *gated) refs(t *testing.T, repo string) string {
	t.Helper()
	out, err := exec.Command("git", "--git-dir", filepath.Join(g.gitDir, repo+".git"), "for-each-ref", "--format=%(refname) %(objectname)").CombinedOutput()
	if err != nil {
		t.Fatalf("git for-each-ref: %v: %s", err, out)
	}
	return string(out)
}

// rows counts the approvals of every state in the store.
func (g *gated) rows(t *testing.T) int {
	t.Helper()
	all, err := g.svc.Approvals(context.Background(), gateway.ApprovalFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return len(all)
}

// parkedID reads the approval id out of a pending_approval answer.
func parkedID(t *testing.T, res *gatewayv1.ForgeCallResult) string {
	t.Helper()
	fe := res.GetError()
	if fe.GetCode() != gatewayv1.ErrorCode_ERROR_CODE_PENDING_APPROVAL {
		t.Fatalf("want pending_approval, got %v", res)
	}
	for _, w := range []string{"has not reached the forge", "Call again with the same arguments to get the decision"} {
		if !strings.Contains(fe.GetMessage(), w) {
			t.Errorf("pending line %q lacks %q", fe.GetMessage(), w)
		}
	}
	id, _, ok := strings.Cut(strings.TrimPrefix(fe.GetMessage(), "approval "), ":")
	if !ok || !strings.HasPrefix(id, "ap-") {
		t.Fatalf("no approval id in %q", fe.GetMessage())
	}
	return id
}

// pushArms are the push-level calls of the forge table, each with what
// the repository needs first (seeded through the unattended account).
func pushArms(t *testing.T, g *gated) map[string]*gatewayv1.ForgeCallRequest {
	g.seed(t, &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreateBranch{CreateBranch: &gatewayv1.CreateBranchRequest{Repo: "acme/web", Branch: "feature"}}})
	g.seed(t, &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreateBranch{CreateBranch: &gatewayv1.CreateBranchRequest{Repo: "acme/web", Branch: "topic"}}})
	g.seed(t, &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_WriteFile{WriteFile: &gatewayv1.WriteFileRequest{
		Repo: "acme/web", Branch: "topic", Path: "topic.txt", Content: "topic\n", Message: "Add topic"}}})
	pr := g.seed(t, &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreatePullRequest{CreatePullRequest: &gatewayv1.CreatePullRequestRequest{
		Repo: "acme/web", Title: "Topic", HeadRef: "topic", BaseRef: "main"}}}).GetPullRequest()
	return map[string]*gatewayv1.ForgeCallRequest{
		"create_branch": {Call: &gatewayv1.ForgeCallRequest_CreateBranch{CreateBranch: &gatewayv1.CreateBranchRequest{Repo: "acme/web", Branch: "agent-branch"}}},
		"write_file": {Call: &gatewayv1.ForgeCallRequest_WriteFile{WriteFile: &gatewayv1.WriteFileRequest{
			Repo: "acme/web", Branch: "feature", Path: "notes.txt", Content: "hello\n", Message: "Add notes"}}},
		"merge_pull_request": {Call: &gatewayv1.ForgeCallRequest_MergePullRequest{MergePullRequest: &gatewayv1.MergePullRequestRequest{
			Repo: "acme/web", PullNumber: pr.GetNumber(), ExpectedHeadSha: pr.GetHeadSha()}}},
	}
}

// Every push arm parks under the default policy: the forge's refs do not
// move until an operator approves; the approval runs it once, as parked;
// the same call repeated adds no row and answers the stored result; a
// second approval runs nothing.
func TestPushArmsParkUntilApproved(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		g := newGated(t, dsn)
		arms := pushArms(t, g)
		if len(arms) != 3 {
			t.Fatalf("%d push arms", len(arms))
		}
		for name, req := range arms {
			t.Run(name, func(t *testing.T) {
				before, rows := g.refs(t, "acme/web"), g.rows(t)
				id := parkedID(t, g.as(t, "agent", req))
				again := g.as(t, "agent", req)
				if parkedID(t, again) != id || g.rows(t) != rows+1 {
					t.Fatalf("the repeat answered %v with %d rows; want the same id %s and one new row", again, g.rows(t), id)
				}
				if after := g.refs(t, "acme/web"); after != before {
					t.Fatalf("a parked call moved refs:\n%s\nto\n%s", before, after)
				}
				a, err := g.svc.Approve(ctx, id, "ops", "looks right")
				if err != nil || a.State != gateway.ApprovalDone || a.Error != nil || a.Result == nil {
					t.Fatalf("Approve = %+v, %v", a, err)
				}
				moved := g.refs(t, "acme/web")
				if moved == before {
					t.Fatalf("the approved %s moved no ref", name)
				}
				if _, err := g.svc.Approve(ctx, id, "ops", "twice"); !errors.Is(err, gateway.ErrApprovalDecided) {
					t.Fatalf("second Approve = %v, want ErrApprovalDecided", err)
				}
				replay := g.as(t, "agent", req)
				if replay.GetError() != nil || g.refs(t, "acme/web") != moved || g.rows(t) != rows+1 {
					t.Fatalf("after approval the repeat answered %v (refs moved again: %v, rows %d)", replay, g.refs(t, "acme/web") != moved, g.rows(t))
				}
			})
		}
	})
}

// A denied call never runs; the model reads the operator's reason; an
// expired approval cannot be approved; an unknown id is its own error.
func TestDeniedAndExpiredApprovals(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		g := newGated(t, dsn)
		branch := func(name string) *gatewayv1.ForgeCallRequest {
			return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreateBranch{CreateBranch: &gatewayv1.CreateBranchRequest{Repo: "acme/web", Branch: name}}}
		}
		g.seed(t, branch("base"))
		before := g.refs(t, "acme/web")

		id := parkedID(t, g.as(t, "agent", branch("denied")))
		if _, err := g.svc.Deny(ctx, id, "ops", "no branches today"); err != nil {
			t.Fatal(err)
		}
		wantError(t, g.as(t, "agent", branch("denied")), gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, id, "ops", "no branches today")
		if _, err := g.svc.Approve(ctx, id, "ops", ""); !errors.Is(err, gateway.ErrApprovalDecided) {
			t.Fatalf("Approve after Deny = %v", err)
		}

		late := parkedID(t, g.as(t, "agent", branch("late")))
		g.clock.advance(2 * time.Hour)
		if a, err := g.svc.Approval(ctx, late); err != nil || a.State != gateway.ApprovalExpired {
			t.Fatalf("Approval after expiry = %+v, %v", a, err)
		}
		if _, err := g.svc.Approve(ctx, late, "ops", ""); !errors.Is(err, gateway.ErrApprovalExpired) {
			t.Fatalf("Approve after expiry = %v", err)
		}
		if _, err := g.svc.Approve(ctx, "ap-nosuchapproval", "ops", ""); !errors.Is(err, gateway.ErrApprovalNotFound) {
			t.Fatalf("Approve of an unknown id = %v", err)
		}
		if after := g.refs(t, "acme/web"); after != before {
			t.Fatalf("a denied or expired call moved refs:\n%s\nto\n%s", before, after)
		}
		// Past its expiry the same call parks anew.
		if fresh := parkedID(t, g.as(t, "agent", branch("late"))); fresh == late {
			t.Fatalf("the call after expiry answered the expired approval %s", late)
		}
	})
}

// A restart between park and decision loses nothing: a new gateway on
// the same store approves what the old one parked, and it runs once.
func TestApprovalSurvivesARestart(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		gitDir, c := t.TempDir(), &clock{}
		first := openGated(t, dsn, gitDir, c)
		req := &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreateBranch{CreateBranch: &gatewayv1.CreateBranchRequest{Repo: "acme/web", Branch: "after-restart"}}}
		first.seed(t, &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreateBranch{CreateBranch: &gatewayv1.CreateBranchRequest{Repo: "acme/web", Branch: "base"}}})
		before := first.refs(t, "acme/web")
		id := parkedID(t, first.as(t, "agent", req))
		first.store.Close()

		second := openGated(t, dsn, gitDir, c)
		if _, err := second.svc.Approve(ctx, id, "ops", ""); err != nil {
			t.Fatal(err)
		}
		after := second.refs(t, "acme/web")
		if strings.Count(after, "\n") != strings.Count(before, "\n")+1 || !strings.Contains(after, "refs/heads/after-restart ") {
			t.Fatalf("refs after the approval:\n%s\nbefore:\n%s", after, before)
		}
	})
}

// Two replicas on one PostgreSQL: parked on one, approved on both at once,
// the call runs exactly once.
func TestApprovalRunsOnceAcrossReplicas(t *testing.T) {
	ctx := context.Background()
	dsn := storetest.Postgres(t)
	gitDir, c := t.TempDir(), &clock{}
	one, two := openGated(t, dsn, gitDir, c), openGated(t, dsn, gitDir, c)
	one.seed(t, &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreateBranch{CreateBranch: &gatewayv1.CreateBranchRequest{Repo: "acme/web", Branch: "base"}}})
	before := one.refs(t, "acme/web")
	req := &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_WriteFile{WriteFile: &gatewayv1.WriteFileRequest{
		Repo: "acme/web", Branch: "base", Path: "once.txt", Content: "once\n", Message: "Once"}}}
	id := parkedID(t, one.as(t, "agent", req))
	if parkedID(t, two.as(t, "agent", req)) != id {
		t.Fatal("the other replica parked the same call again")
	}
	var ran, refused atomic.Int32
	var wg sync.WaitGroup
	for i := range 8 {
		svc := []*gateway.Service{one.svc, two.svc}[i%2]
		wg.Go(func() {
			_, err := svc.Approve(ctx, id, "ops", "")
			switch {
			case err == nil:
				ran.Add(1)
			case errors.Is(err, gateway.ErrApprovalDecided):
				refused.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if ran.Load() != 1 || refused.Load() != 7 {
		t.Fatalf("%d approvals ran, %d refused; want 1 and 7", ran.Load(), refused.Load())
	}
	out, err := exec.Command("git", "--git-dir", filepath.Join(gitDir, "acme/web.git"), "rev-list", "--count", "refs/heads/base").CombinedOutput()
	if err != nil {
		t.Fatal(err, string(out))
	}
	if got := strings.TrimSpace(string(out)); got != "2" {
		t.Fatalf("base has %s commits after the approval; want 2 (one write): refs before %s", got, before)
	}
}

// The unreviewed merge on the local forge: an account allowed to push
// cannot merge its own pull request into the default branch on its own
// approval; another account's approving review lets it; a merge into
// another branch is no one's business but the push rule's.
func TestUnreviewedMergeWaitsOnTheLocalForge(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		g := newGated(t, dsn)
		pr := func(head, base string) *forgev1.PullRequest {
			g.seed(t, &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreateBranch{CreateBranch: &gatewayv1.CreateBranchRequest{Repo: "acme/web", Branch: head}}})
			g.seed(t, &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_WriteFile{WriteFile: &gatewayv1.WriteFileRequest{
				Repo: "acme/web", Branch: head, Path: head + ".txt", Content: head + "\n", Message: "Add " + head}}})
			return g.seed(t, &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreatePullRequest{CreatePullRequest: &gatewayv1.CreatePullRequestRequest{
				Repo: "acme/web", Title: head, HeadRef: head, BaseRef: base}}}).GetPullRequest()
		}
		review := func(as string, p *forgev1.PullRequest) {
			if fe := g.as(t, as, &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_SubmitReview{SubmitReview: &gatewayv1.SubmitReviewRequest{
				Repo: "acme/web", PullNumber: p.GetNumber(), Verdict: gatewayv1.Verdict_VERDICT_APPROVE}}}).GetError(); fe != nil {
				t.Fatalf("review as %s: %v", as, fe)
			}
		}
		merge := func(p *forgev1.PullRequest) *gatewayv1.ForgeCallRequest {
			return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_MergePullRequest{MergePullRequest: &gatewayv1.MergePullRequestRequest{
				Repo: "acme/web", PullNumber: p.GetNumber(), ExpectedHeadSha: p.GetHeadSha()}}}
		}
		g.seed(t, &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreateBranch{CreateBranch: &gatewayv1.CreateBranchRequest{Repo: "acme/web", Branch: "release"}}})
		own := pr("own", "main")
		review("pusher", own)
		before := g.refs(t, "acme/web")
		res := g.as(t, "pusher", merge(own))
		parkedID(t, res)
		if !strings.Contains(res.GetError().GetMessage(), "merges pull request #"+fmt.Sprint(own.GetNumber())+" into the default branch main, and no one other than this account approved it (unreviewed_merge: operator)") {
			t.Fatalf("the self-approved merge parked as %q", res.GetError().GetMessage())
		}
		if g.refs(t, "acme/web") != before {
			t.Fatal("the parked merge moved a ref")
		}
		review("seed", own)
		if res := g.as(t, "pusher", merge(own)); res.GetMerge() == nil {
			t.Fatalf("the merge another account approved: %v", res)
		}
		side := pr("side", "release")
		if res := g.as(t, "pusher", merge(side)); res.GetMerge() == nil {
			t.Fatalf("an unreviewed merge into release: %v", res)
		}
	})
}

// With approval_wait the parked call is held open: an operator deciding
// meanwhile (here, as soon as the approval is listed) gets the model the
// real result in the same call.
func TestApprovalWaitReturnsTheResult(t *testing.T) {
	ctx := context.Background()
	g := openGated(t, storetest.SQLite(t), t.TempDir(), &clock{}, time.Minute)
	g.seed(t, &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreateBranch{CreateBranch: &gatewayv1.CreateBranchRequest{Repo: "acme/web", Branch: "base"}}})
	done := make(chan error, 1)
	go func() {
		for {
			list, err := g.svc.Approvals(ctx, gateway.ApprovalFilter{State: gateway.ApprovalPending})
			if err != nil || len(list) > 0 {
				if err == nil {
					_, err = g.svc.Approve(ctx, list[0].ID, "ops", "quick")
				}
				done <- err
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	res := g.as(t, "agent", &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreateBranch{CreateBranch: &gatewayv1.CreateBranchRequest{Repo: "acme/web", Branch: "quick"}}})
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if res.GetBranch().GetBranch() != "quick" {
		t.Fatalf("the held call answered %v, want the branch", res)
	}
}
