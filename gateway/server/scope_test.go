package server_test

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// every arm that names a repository, aimed at repo.
func everyArm(repo string) []*gatewayv1.ForgeCallRequest {
	return []*gatewayv1.ForgeCallRequest{
		getIssue(repo, 1),
		{Call: &gatewayv1.ForgeCallRequest_GetPullRequest{GetPullRequest: &gatewayv1.GetPullRequestRequest{Repo: repo, PullNumber: 1}}},
		{Call: &gatewayv1.ForgeCallRequest_ListIssues{ListIssues: &gatewayv1.ListIssuesRequest{Repo: repo}}},
		{Call: &gatewayv1.ForgeCallRequest_CommentOnIssue{CommentOnIssue: &gatewayv1.CommentOnIssueRequest{Repo: repo, IssueNumber: 1, Body: "hi"}}},
		{Call: &gatewayv1.ForgeCallRequest_CommentOnPullRequest{CommentOnPullRequest: &gatewayv1.CommentOnPullRequestRequest{Repo: repo, PullNumber: 1, Body: "hi"}}},
		{Call: &gatewayv1.ForgeCallRequest_SubmitReview{SubmitReview: &gatewayv1.SubmitReviewRequest{Repo: repo, PullNumber: 1, Verdict: gatewayv1.Verdict_VERDICT_APPROVE}}},
		createIssue(repo, "t", "", "k-"+repo),
		createPR(repo, "t", "kpr-"+repo),
		{Call: &gatewayv1.ForgeCallRequest_Subscribe{Subscribe: &gatewayv1.SubscribeRequest{Repo: repo, Kind: gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_ISSUE, Number: 1}}},
	}
}

func TestOutOfScopeNeverReachesTheForge(t *testing.T) {
	h := start(t, storetest.SQLite(t))
	for _, repo := range []string{"acme/other", "evil/web", "tools/cli/sub", "toolsx/cli"} {
		for _, req := range everyArm(repo) {
			wantError(t, h.call("alice-1", req), gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, repo, "outside the scope")
		}
	}
	// bob's scope is empty: nothing at all, not even alice's repositories.
	for _, repo := range []string{"acme/web", "tools/cli"} {
		for _, req := range everyArm(repo) {
			wantError(t, h.call("bob-1", req), gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, repo)
		}
	}
	linear := withForge(getIssue("ENG", 1), forgev1.ForgeProvider_FORGE_PROVIDER_LINEAR, "")
	wantError(t, h.call("bob-1", linear), gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "ENG")
	for _, f := range []interface{ Total() int }{h.github, h.ghe, h.linear} {
		if f.Total() != 0 {
			t.Fatalf("a refused call reached a forge (%d calls)", f.Total())
		}
	}
	if owned, _ := h.store.Owned(t.Context(), "alice"); len(owned) != 0 {
		t.Fatalf("refused creates left ownership records: %v", owned)
	}
}

// A repository the forge cannot name is invalid_argument naming the shape
// it needs, on every forge, before the scope check and before any forge is
// called: a bare name on GitHub, an owner/name on Linear.
func TestRepoShapePerForge(t *testing.T) {
	h := start(t, storetest.SQLite(t))
	for _, session := range []string{"alice-1", "bob-1"} {
		for _, req := range everyArm("acme") {
			wantError(t, h.call(session, req), gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, `repo "acme" names no repository on github: want "owner/name"`)
			ghe := withForge(proto.Clone(req).(*gatewayv1.ForgeCallRequest), forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, "ghe.example.com")
			wantError(t, h.call(session, ghe), gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, `want "owner/name"`)
		}
		req := withForge(getIssue("acme/web", 1), forgev1.ForgeProvider_FORGE_PROVIDER_LINEAR, "")
		wantError(t, h.call(session, req), gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, `repo "acme/web" is not a Linear team key`)
	}
	for _, f := range []interface{ Total() int }{h.github, h.ghe, h.linear} {
		if f.Total() != 0 {
			t.Fatalf("a refused call reached a forge (%d calls)", f.Total())
		}
	}
}

func TestScopeEntries(t *testing.T) {
	h := start(t, storetest.SQLite(t))
	// owner/* and exact entries, any case.
	for _, repo := range []string{"tools/cli", "TOOLS/Cli", "tools/x.y-z_1", "acme/web", "ACME/WEB"} {
		if res := h.call("alice-1", createIssue(repo, "in scope", "", "")); res.GetIssue() == nil {
			t.Errorf("create in %s = %v, want an issue", repo, res)
		}
	}
	// A team key, on the Linear forge its entry names.
	req := withForge(createIssue("ENG", "on linear", "", ""), forgev1.ForgeProvider_FORGE_PROVIDER_LINEAR, "")
	if res := h.call("alice-1", req); res.GetIssue().GetForge().GetHost() != "linear.app" {
		t.Errorf("create in ENG on linear = %v", res)
	}
	// A glob in the name: web-* covers web-app, not web or other owners.
	globs := start(t, storetest.SQLite(t), scope("acme/web-*", "acme/docs-?"))
	for repo, in := range map[string]bool{"acme/web-app": true, "ACME/Web-API": true, "acme/docs-1": true,
		"acme/web": false, "acme/docs-12": false, "evil/web-app": false, "acme/web-app/sub": false} {
		res := globs.call("alice-1", getIssue(repo, 1))
		if denied := res.GetError().GetCode() == gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED; denied == in {
			t.Errorf("glob scope, get in %s = %v; want in scope: %v", repo, res, in)
		}
	}
	// "*" is every repository.
	all := start(t, storetest.SQLite(t), scope("*"))
	if res := all.call("alice-1", createIssue("anyone/anything", "t", "", "")); res.GetIssue() == nil {
		t.Errorf(`create with scope "*" = %v`, res)
	}
}

func TestMalformedRepositoriesAreRefused(t *testing.T) {
	h := start(t, storetest.SQLite(t), scope("*"))
	// Characters no forge allows in a name break the field's pattern; the
	// rest are shapes the gateway refuses before any forge sees them.
	const chars = "only letters, digits, '-', '.', '/' and '_'"
	for repo, want := range map[string]string{"acme/..": "owner/name", "../etc": "owner/name", "acme//web": "owner/name",
		"/acme": "owner/name", "acme/web?x=1": chars, "acme/web#1": chars, "acme/w eb": chars} {
		wantError(t, h.call("alice-1", getIssue(repo, 1)), gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, want)
	}
	if h.github.Total() != 0 {
		t.Fatalf("malformed repositories reached the forge")
	}
}

// An entry covers its name on one forge: "acme/app" is the default forge's
// (github.com), and reaches neither the GitHub Enterprise forge configured
// beside it nor Linear; "ghe.example.com:acme/app" is that forge's only.
func TestScopeIsPerForge(t *testing.T) {
	h := start(t, storetest.SQLite(t), scope("acme/app", "ghe.example.com:tools/*"))
	onGHE := func(req *gatewayv1.ForgeCallRequest) *gatewayv1.ForgeCallRequest {
		return withForge(req, forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, "ghe.example.com")
	}
	for _, req := range everyArm("acme/app") {
		wantError(t, h.call("alice-1", onGHE(req)), gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "acme/app", "outside the scope")
	}
	for _, req := range everyArm("tools/cli") {
		wantError(t, h.call("alice-1", req), gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "tools/cli", "outside the scope")
	}
	if h.ghe.Total() != 0 || h.github.Total() != 0 {
		t.Fatalf("a refused call reached a forge: github %d, ghe %d calls", h.github.Total(), h.ghe.Total())
	}
	if res := h.call("alice-1", createIssue("acme/app", "on github.com", "", "")); res.GetIssue().GetForge().GetHost() != "github.com" {
		t.Errorf("create in acme/app on the default forge = %v", res)
	}
	if res := h.call("alice-1", onGHE(createIssue("tools/cli", "on ghe", "", ""))); res.GetIssue().GetForge().GetHost() != "ghe.example.com" {
		t.Errorf("create in tools/cli on ghe.example.com = %v", res)
	}
}

// A scope kept in the store is the account's whole scope once set, seen
// by the running gateway: it can revoke what the configuration granted,
// grant what it did not, per forge, and empty denies everything; on both
// stores.
func TestStoredScope(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		h := start(t, dsn, scopeRefresh(-1))
		ctx := t.Context()
		yaml := []string{"acme/web", "tools/*", "ghe.example.com:acme/web", "linear.app:ENG"}
		change := func(account, action, entry string, seed []string) {
			t.Helper()
			if err := h.store.ChangeScope(ctx, store.ScopeChange{Account: account, Action: action, Entry: entry, Actor: "ops"}, seed); err != nil {
				t.Fatal(err)
			}
		}
		allowed := func(session string, req *gatewayv1.ForgeCallRequest) {
			t.Helper()
			if fe := h.call(session, req).GetError(); fe != nil {
				t.Fatalf("%s: %v: %v", session, req, fe)
			}
		}
		onGHE := func(req *gatewayv1.ForgeCallRequest) *gatewayv1.ForgeCallRequest {
			return withForge(req, forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, "ghe.example.com")
		}
		allowed("alice-1", createIssue("acme/web", "t", "", ""))

		// Revoke an entry the configuration granted; the rest stays.
		change("alice", store.ScopeRemove, "acme/web", yaml)
		wantError(t, h.call("alice-1", getIssue("acme/web", 1)), gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "outside the scope")
		allowed("alice-1", createIssue("tools/cli", "t", "", ""))
		allowed("alice-1", onGHE(createIssue("acme/web", "t", "", "")))

		// Grant per forge: bob (configured with nothing) gets ghe's tools/*.
		change("bob", store.ScopeAdd, "ghe.example.com:tools/*", nil)
		allowed("bob-1", onGHE(createIssue("tools/x", "t", "", "")))
		wantError(t, h.call("bob-1", createIssue("tools/x", "t", "", "")), gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "outside the scope")

		// Emptied, the stored scope denies everything.
		change("bob", store.ScopeRemove, "ghe.example.com:tools/*", nil)
		wantError(t, h.call("bob-1", onGHE(getIssue("tools/x", 1))), gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "outside the scope")
		if entries, stored, err := h.store.StoredScope(ctx, "bob"); err != nil || !stored || len(entries) != 0 {
			t.Fatalf("bob's stored scope = %v, %v, %v; want stored and empty", entries, stored, err)
		}

		log, err := h.store.ScopeLog(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range log {
			got = append(got, c.Account+" "+c.Action+" "+c.Entry+" "+c.Actor)
		}
		want := []string{"alice seed acme/web ops", "alice seed tools/* ops", "alice seed ghe.example.com:acme/web ops", "alice seed linear.app:ENG ops",
			"alice remove acme/web ops", "bob add ghe.example.com:tools/* ops", "bob remove ghe.example.com:tools/* ops"}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("scope log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

// The gateway keeps a stored scope for its refresh interval, so a call
// costs no store read for it.
func TestStoredScopeIsCached(t *testing.T) {
	h := start(t, storetest.SQLite(t), scopeRefresh(time.Hour))
	if fe := h.call("alice-1", createIssue("acme/web", "t", "", "")).GetError(); fe != nil {
		t.Fatal(fe)
	}
	if err := h.store.ChangeScope(t.Context(), store.ScopeChange{Account: "alice", Action: store.ScopeRemove, Entry: "acme/web", Actor: "ops"},
		[]string{"acme/web"}); err != nil {
		t.Fatal(err)
	}
	if fe := h.call("alice-1", getIssue("acme/web", 1)).GetError(); fe != nil {
		t.Fatalf("within the refresh interval the cached scope applies; got %v", fe)
	}
}
