package server_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/server"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/toolserver"
)

// hostileSearch is a forge whose searches answer with whatever repositories
// it likes: the ones asked for, and others the account may not see.
type hostileSearch struct {
	gatewayv1handler.UnimplementedForgeHandler
	ref     *forgev1.ForgeRef
	answers []string // the repositories every answer carries an item of

	mu    sync.Mutex
	calls []toolserver.Call
}

func (h *hostileSearch) Ref() *forgev1.ForgeRef { return h.ref }

func (h *hostileSearch) record(c toolserver.Call) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls = append(h.calls, c)
}

func (h *hostileSearch) SearchCode(_ context.Context, c toolserver.Call, _ *gatewayv1.SearchCodeRequest) (*forgev1.CodeMatchList, error) {
	h.record(c)
	out := &forgev1.CodeMatchList{NextCursor: "more"}
	for _, r := range h.answers {
		out.Matches = append(out.Matches, &forgev1.CodeMatch{Repo: r, Path: "main.go", Line: 1, Text: "func Secret()"})
	}
	return out, nil
}

func (h *hostileSearch) SearchIssues(_ context.Context, c toolserver.Call, _ *gatewayv1.SearchIssuesRequest) (*forgev1.SearchHitList, error) {
	h.record(c)
	out := &forgev1.SearchHitList{}
	for i, r := range h.answers {
		out.Hits = append(out.Hits, &forgev1.SearchHit{Repo: r, Number: uint64(i + 1), Kind: "issue", Title: "secret"})
	}
	return out, nil
}

// hostileForge adds h as the gitea forge at h.ref's host.
func hostileForge(h *hostileSearch) option {
	return func(c *gateway.Config, _ *server.Options) {
		c.Forges = append(c.Forges, gateway.Forge{Provider: h})
	}
}

func searchCode(repo string) *gatewayv1.ForgeCallRequest {
	return withForge(&gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_SearchCode{
		SearchCode: &gatewayv1.SearchCodeRequest{Repo: repo, Query: "Secret"}}}, forgev1.ForgeProvider_FORGE_PROVIDER_GITEA, "git.example.com")
}

func searchIssues(repo string) *gatewayv1.ForgeCallRequest {
	return withForge(&gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_SearchIssues{
		SearchIssues: &gatewayv1.SearchIssuesRequest{Repo: repo, Query: "secret"}}}, forgev1.ForgeProvider_FORGE_PROVIDER_GITEA, "git.example.com")
}

func codeRepos(res *gatewayv1.ForgeCallResult) []string {
	var out []string
	for _, m := range res.GetCodeMatches().GetMatches() {
		out = append(out, m.Repo)
	}
	return out
}

func hitRepos(res *gatewayv1.ForgeCallResult) []string {
	var out []string
	for _, m := range res.GetSearchResults().GetHits() {
		out = append(out, m.Repo)
	}
	return out
}

// A search naming no repository reaches the forge with exactly the
// repositories the scope lists there, and whatever the forge answers, the
// agent sees only those: a hostile forge's items from other repositories
// (another owner, a look-alike, one the account has on another forge, a
// malformed name) are dropped by the gateway.
func TestSearchShowsOnlyTheScope(t *testing.T) {
	forge := &hostileSearch{
		ref:     &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITEA, Host: "git.example.com"},
		answers: []string{"acme/web", "Acme/API", "acme/secret", "acme/web-x", "acme/web/../secret", "evil/web", "tools/cli", ""},
	}
	h := start(t, storetest.SQLite(t), hostileForge(forge),
		scope("git.example.com:acme/web", "git.example.com:acme/api", "tools/cli"))

	res := h.call("alice-1", searchCode(""))
	if res.GetError() != nil {
		t.Fatalf("search_code: %v", res.GetError())
	}
	if got, want := codeRepos(res), []string{"acme/web", "Acme/API"}; !slices.Equal(got, want) {
		t.Errorf("code search shows %v, want only the scope's %v", got, want)
	}
	if res.GetCodeMatches().GetNextCursor() != "more" {
		t.Errorf("the forge's next_cursor was lost: %q", res.GetCodeMatches().GetNextCursor())
	}
	res = h.call("alice-1", searchIssues(""))
	if got, want := hitRepos(res), []string{"acme/web", "Acme/API"}; !slices.Equal(got, want) {
		t.Errorf("issue search shows %v, want only the scope's %v", got, want)
	}
	forge.mu.Lock()
	for _, c := range forge.calls {
		if want := []string{"acme/api", "acme/web"}; !slices.Equal(c.Repos, want) {
			t.Errorf("the forge was asked to search %v, want the scope's repositories there, %v", c.Repos, want)
		}
	}
	forge.calls = nil
	forge.mu.Unlock()
	// What the session read is recorded per repository the agent was
	// shown, for the flow rules (private to public): the scope's two, never
	// the dropped ones.
	reads, err := h.store.FlowReads(t.Context(), "alice", "alice-1")
	if err != nil {
		t.Fatal(err)
	}
	read := map[string]bool{}
	for _, r := range reads {
		read[strings.ToLower(r.Repo)] = true
	}
	if !read["acme/web"] || !read["acme/api"] || read["acme/secret"] || read["evil/web"] || read["tools/cli"] {
		t.Errorf("flow reads after the searches: %+v", reads)
	}

	// Naming a repository: scope-checked as every arm, and the answer
	// holds that repository only, even one the scope also covers.
	res = h.call("alice-1", searchCode("acme/web"))
	if got := codeRepos(res); !slices.Equal(got, []string{"acme/web"}) {
		t.Errorf("a search of acme/web shows %v", got)
	}
	forge.mu.Lock()
	if len(forge.calls) != 1 || forge.calls[0].Repos != nil {
		t.Errorf("a search naming its repository was given a repository list: %+v", forge.calls)
	}
	forge.mu.Unlock()
	wantError(t, h.call("alice-1", searchCode("acme/secret")), gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "acme/secret", "outside the scope")
	wantError(t, h.call("alice-1", searchIssues("evil/web")), gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "evil/web", "outside the scope")
}

// A scope the gateway cannot list on the forge (a pattern, or "*") does
// not turn a search naming no repository into a search of the whole forge:
// it is refused before any forge is called, and the caller names one. A
// scope with nothing on the forge is a denial.
func TestSearchWithoutRepoNeedsAListedScope(t *testing.T) {
	for _, tc := range []struct {
		scope []string
		code  gatewayv1.ErrorCode
		says  string
	}{
		{[]string{"*"}, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, `"*"`},
		{[]string{"git.example.com:acme/web", "git.example.com:tools/*"}, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "tools/*"},
		{[]string{"git.example.com:group/**"}, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "/**"},
		{[]string{"git.example.com:*"}, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "every repository"},
		{[]string{"acme/web"}, gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "no repository in scope"},
		{nil, gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "no repository in scope"},
	} {
		forge := &hostileSearch{ref: &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITEA, Host: "git.example.com"}}
		h := start(t, storetest.SQLite(t), hostileForge(forge), scope(tc.scope...))
		wantError(t, h.call("alice-1", searchCode("")), tc.code, tc.says)
		wantError(t, h.call("alice-1", searchIssues("")), tc.code, tc.says)
		if len(forge.calls) != 0 {
			t.Errorf("scope %v: a refused search reached the forge", tc.scope)
		}
		h.stop()
	}
	// A pattern still lets a search name a repository it covers.
	forge := &hostileSearch{ref: &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITEA, Host: "git.example.com"},
		answers: []string{"tools/cli", "tools/other"}}
	h := start(t, storetest.SQLite(t), hostileForge(forge), scope("git.example.com:tools/*"))
	if got := hitRepos(h.call("alice-1", searchIssues("tools/cli"))); !slices.Equal(got, []string{"tools/cli"}) {
		t.Errorf("a search of tools/cli under tools/* shows %v", got)
	}
}
