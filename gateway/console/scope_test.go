package console

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/forgetools/forgetools/gateway/scopeedit"
	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	"github.com/forgetools/forgetools/internal/redact"
	"github.com/forgetools/forgetools/providers/discovery"
)

// forgeSecret is a credential a hostile forge echoes in its error.
const forgeSecret = "ghp_forge-credential-0123456789abcdef"

// listing is a forge's discovery answer: its repositories, then err.
type listing struct {
	repos []string
	err   error
}

func (l listing) Repositories(_ context.Context, each func(discovery.Repository) error) error {
	for _, r := range l.repos {
		if err := each(discovery.Repository{Repo: r, Permission: "write"}); err != nil {
			return err
		}
	}
	return l.err
}

// scopeRig is a console whose scope editor is the real one, on a real
// SQLite store, with bot's configured scope acme/app.
type scopeRig struct {
	*rig
	st *store.Store
	mu sync.Mutex
	// changed are the accounts the running gateway was told of.
	changed []string
}

func newScopeRig(t *testing.T, forges ...scopeedit.Forge) *scopeRig {
	t.Helper()
	st, err := store.Open(t.Context(), storetest.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	sr := &scopeRig{st: st}
	ed := &scopeedit.Editor{Store: st, Accounts: []scopeedit.Account{{Name: "bot", Configured: []string{"acme/app"}}}, Forges: forges,
		Changed: func(a string) { sr.mu.Lock(); sr.changed = append(sr.changed, a); sr.mu.Unlock() }}
	sr.rig = newRigEdit(t, nil, func(o *Options) { o.Scopes = ed })
	return sr
}

// post sends a scope change as the signed-in browser would.
func (r *scopeRig) post(cookie *http.Cookie, path string, form url.Values) *http.Response {
	r.t.Helper()
	if _, ok := form["csrf"]; !ok {
		form.Set("csrf", r.csrf(cookie, "/scope"))
	}
	return r.do("POST", path, form, cookie, "Origin", r.srv.URL)
}

func (r *scopeRig) stored() ([]string, bool) {
	r.t.Helper()
	entries, stored, err := r.st.StoredScope(context.Background(), "bot")
	if err != nil {
		r.t.Fatal(err)
	}
	return entries, stored
}

func (r *scopeRig) logRows() []string {
	r.t.Helper()
	changes, err := r.st.ScopeLog(context.Background(), "")
	if err != nil {
		r.t.Fatal(err)
	}
	var out []string
	for _, c := range changes {
		out = append(out, c.Actor+" "+c.Account+" "+c.Action+" "+c.Entry)
	}
	return out
}

func TestScopeEditorAddsAndRemoves(t *testing.T) {
	r := newScopeRig(t)
	cookie, _ := r.signIn(operatorToken)
	body := read(t, r.do("GET", "/scope", nil, cookie))
	contains(t, body, "<code>acme/app</code>", `<td class="from">the configuration</td>`, "No change stored yet")

	resp := r.post(cookie, "/scope/add", url.Values{"account": {"bot"}, "entry": {"ghe.example.com:acme/web"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("add: status %d: %s", resp.StatusCode, read(t, resp))
	}
	if e, stored := r.stored(); !stored || !slices.Equal(e, []string{"acme/app", "ghe.example.com:acme/web"}) {
		t.Fatalf("after the add the store holds %v (stored %v)", e, stored)
	}
	resp = r.post(cookie, "/scope/remove", url.Values{"account": {"bot"}, "entry": {"acme/app"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("remove: status %d: %s", resp.StatusCode, read(t, resp))
	}
	if e, _ := r.stored(); !slices.Equal(e, []string{"ghe.example.com:acme/web"}) {
		t.Fatalf("after the remove the store holds %v", e)
	}
	// Logged under the operator's name, the configured entry seeded first.
	if got, want := r.logRows(), []string{"alice bot seed acme/app", "alice bot add ghe.example.com:acme/web", "alice bot remove acme/app"}; !slices.Equal(got, want) {
		t.Fatalf("scope log %q, want %q", got, want)
	}
	if !slices.Equal(r.changed, []string{"bot", "bot"}) {
		t.Fatalf("the gateway was told of changes to %v", r.changed)
	}
	body = read(t, r.do("GET", "/scope?done=x", nil, cookie))
	contains(t, body, "<code>ghe.example.com:acme/web</code>", `<td class="from">the store</td>`,
		"<td>alice</td><td>bot</td><td>remove</td><td><code>acme/app</code></td>",
		"<td>alice</td><td>bot</td><td>add</td><td><code>ghe.example.com:acme/web</code></td>")
	if strings.Contains(body, `name="entry" value="acme/app"`) {
		t.Fatalf("the removed entry is still shown:\n%s", body)
	}
}

func TestScopeChangeWithoutCSRFOrOriginIsRefused(t *testing.T) {
	r := newScopeRig(t)
	cookie, _ := r.signIn(operatorToken)
	change := url.Values{"account": {"bot"}, "entry": {"acme/web"}}
	for name, resp := range map[string]*http.Response{
		"no CSRF token":    r.post(cookie, "/scope/add", url.Values{"account": {"bot"}, "entry": {"acme/web"}, "csrf": {""}}),
		"wrong CSRF token": r.post(cookie, "/scope/add", url.Values{"account": {"bot"}, "entry": {"acme/web"}, "csrf": {"forged"}}),
		"no origin":        r.do("POST", "/scope/add", url.Values{"account": {"bot"}, "entry": {"acme/web"}, "csrf": {r.csrf(cookie, "/scope")}}, cookie),
		"other origin":     r.do("POST", "/scope/remove", url.Values{"account": {"bot"}, "entry": {"acme/app"}, "csrf": {r.csrf(cookie, "/scope")}}, cookie, "Origin", "http://evil.example"),
		"not signed in":    r.do("POST", "/scope/add", change, nil, "Origin", r.srv.URL),
	} {
		if resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: status %d", name, resp.StatusCode)
		}
	}
	if e, stored := r.stored(); stored || len(r.logRows()) != 0 || len(r.changed) != 0 {
		t.Fatalf("a refused post changed the scope: %v (stored %v), log %v", e, stored, r.logRows())
	}
}

func TestInvalidScopeEntryIsRefusedAsTheCLIRefusesIt(t *testing.T) {
	r := newScopeRig(t)
	cookie, _ := r.signIn(operatorToken)
	for _, c := range []struct {
		path, account, entry string
		status               int
		want                 string
	}{
		{"/scope/add", "bot", "not a repo", http.StatusBadRequest, "scope entry &#34;not a repo&#34; is not"},
		{"/scope/add", "bot", "acme/*/web", http.StatusBadRequest, "scope entry &#34;acme/*/web&#34;"},
		{"/scope/add", "bot", "", http.StatusBadRequest, "scope entry"},
		{"/scope/add", "mallory", "acme/web", http.StatusBadRequest, "account &#34;mallory&#34; is not configured (configured: bot)"},
		{"/scope/add", "bot", "acme/app", http.StatusConflict, "already has &#34;acme/app&#34; in its scope: nothing changed"},
		{"/scope/remove", "bot", "acme/gone", http.StatusConflict, "has no entry &#34;acme/gone&#34; in its scope: nothing changed"},
	} {
		resp := r.post(cookie, c.path, url.Values{"account": {c.account}, "entry": {c.entry}})
		body := read(t, resp)
		if resp.StatusCode != c.status || !strings.Contains(body, `<p class="error" id="error">`) || !strings.Contains(body, c.want) {
			t.Errorf("%s %q %q: status %d, want %d and %q:\n%s", c.path, c.account, c.entry, resp.StatusCode, c.status, c.want, body)
		}
	}
	if e, stored := r.stored(); stored || len(r.logRows()) != 0 {
		t.Fatalf("a refused change changed the scope: %v (stored %v), log %v", e, stored, r.logRows())
	}
}

func TestDiscoveryListShowsForgeNamesAsTextBoundedAndRedacted(t *testing.T) {
	var many []string
	for i := range discoverLimit + 50 {
		many = append(many, fmt.Sprintf("big/repo-%03d", i))
	}
	r := newScopeRig(t,
		scopeedit.Forge{Where: "local", Lister: listing{repos: []string{`acme/<script>alert("x")</script>`, "acme/web"}}},
		scopeedit.Forge{Where: "gitea/git.example.com", Prefix: "git.example.com:", Lister: listing{repos: many}},
		scopeedit.Forge{Where: "github", Lister: listing{err: fmt.Errorf("401 for token %s", forgeSecret)}, Redact: redact.New(forgeSecret).String},
	)
	cookie, _ := r.signIn(operatorToken)
	body := read(t, r.do("GET", "/scope/discover", nil, cookie))
	if strings.Contains(body, "<script>") || strings.Contains(body, forgeSecret) {
		t.Fatalf("the discovery page has a live script or the credential:\n%s", body)
	}
	contains(t, body, "acme/&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;", `data-entry="acme/web"`,
		`value="git.example.com:big/repo-000"`, fmt.Sprintf("big/repo-%03d", discoverLimit-1), "Only the first 200 are shown", "This forge could not list: 401 for token")
	if strings.Contains(body, fmt.Sprintf("big/repo-%03d", discoverLimit)) {
		t.Fatalf("the list is not bounded at %d", discoverLimit)
	}
	// The hostile name is a bad entry: adding it is refused, nothing stored.
	resp := r.post(cookie, "/scope/add", url.Values{"account": {"bot"}, "entry": {`acme/<script>alert("x")</script>`}})
	if b := read(t, resp); resp.StatusCode != http.StatusBadRequest || strings.Contains(b, "<script>") {
		t.Fatalf("adding the hostile name: status %d:\n%s", resp.StatusCode, b)
	}
	// A listed one is added from its row.
	resp = r.post(cookie, "/scope/add", url.Values{"account": {"bot"}, "entry": {"git.example.com:big/repo-007"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("adding a listed repository: status %d", resp.StatusCode)
	}
	if e, _ := r.stored(); !slices.Equal(e, []string{"acme/app", "git.example.com:big/repo-007"}) {
		t.Fatalf("stored %v", e)
	}
}

func contains(t *testing.T, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			t.Fatalf("the page lacks %q:\n%s", w, body)
		}
	}
}
