package console

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/forgetools/forgetools/gateway/store"
)

const (
	operatorToken = "operator-token-0123456789abcdef"
	agentToken    = "agent-token-0123456789abcdef"
)

// recordingQueue holds approvals in memory and records every decision, so
// a test sees whether a refused request reached the gate.
type recordingQueue struct {
	mu        sync.Mutex
	approvals map[string]Approval
	decided   []string
}

func (q *recordingQueue) Pending(context.Context) ([]Approval, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []Approval
	for _, a := range q.approvals {
		if a.State == "pending" {
			out = append(out, a)
		}
	}
	return out, nil
}

func (q *recordingQueue) Decided(context.Context) ([]Approval, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []Approval
	for _, a := range q.approvals {
		if a.State != "pending" {
			out = append(out, a)
		}
	}
	return out, nil
}

func (q *recordingQueue) Show(_ context.Context, id string) (Approval, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	a, ok := q.approvals[id]
	if !ok {
		return Approval{}, ErrNotFound
	}
	return a, nil
}

func (q *recordingQueue) decide(id, state, reason string) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	a, ok := q.approvals[id]
	if !ok {
		return ErrNotFound
	}
	a.State, a.Reason = state, reason
	q.approvals[id] = a
	q.decided = append(q.decided, state+" "+id)
	return nil
}

func (q *recordingQueue) Approve(_ context.Context, id, _ string) (string, error) {
	return "", q.decide(id, "approved", "")
}

func (q *recordingQueue) Deny(_ context.Context, id, _, reason string) error {
	return q.decide(id, "denied", reason)
}

func (q *recordingQueue) decisions() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]string(nil), q.decided...)
}

// rig is a console on a loopback test server, and a way to drive it as
// a browser would (Origin set, cookies kept by hand).
type rig struct {
	t     *testing.T
	srv   *httptest.Server
	queue *recordingQueue
}

func newRig(t *testing.T, approvals ...Approval) *rig {
	t.Helper()
	return newRigWith(t, nil, approvals...)
}

func newRigWith(t *testing.T, audit []store.Ownership, approvals ...Approval) *rig {
	t.Helper()
	return newRigEdit(t, audit, nil, approvals...)
}

// newRigEdit is newRigWith with edit, if set, changing the options.
func newRigEdit(t *testing.T, audit []store.Ownership, edit func(*Options), approvals ...Approval) *rig {
	t.Helper()
	q := &recordingQueue{approvals: map[string]Approval{}}
	for _, a := range approvals {
		q.approvals[a.ID] = a
	}
	opts := Options{
		Operators:    []Operator{{Name: "alice", Token: operatorToken}},
		IsAgentToken: func(tok string) bool { return tok == agentToken },
		Queue:        q,
		Accounts:     []Account{{Name: "bot", Scope: []string{"acme/app"}, Sessions: []string{"bot-1"}}},
		LoopbackOnly: true,
		Audit: func(context.Context, store.AuditFilter) ([]store.Ownership, error) {
			return audit, nil
		},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if edit != nil {
		edit(&opts)
	}
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(c)
	t.Cleanup(srv.Close)
	return &rig{t: t, srv: srv, queue: q}
}

// do sends a request without following redirects; header pairs follow.
func (r *rig) do(method, path string, form url.Values, cookie *http.Cookie, header ...string) *http.Response {
	r.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, r.srv.URL+path, body)
	if err != nil {
		r.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	if cookie != nil {
		req.AddCookie(cookie)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func read(t *testing.T, resp *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// signIn signs in with token and returns the session cookie (nil when
// refused) and the response.
func (r *rig) signIn(token string) (*http.Cookie, *http.Response) {
	resp := r.do("POST", "/signin", url.Values{"token": {token}}, nil, "Origin", r.srv.URL)
	for _, c := range resp.Cookies() {
		if c.Name == "forgetools_console" && c.Value != "" {
			return c, resp
		}
	}
	return nil, resp
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// csrf reads the session's CSRF token from a page's form.
func (r *rig) csrf(cookie *http.Cookie, path string) string {
	r.t.Helper()
	body := read(r.t, r.do("GET", path, nil, cookie))
	m := csrfField.FindStringSubmatch(body)
	if m == nil {
		r.t.Fatalf("no CSRF token on %s:\n%s", path, body)
	}
	return m[1]
}

func pendingPush(id string) Approval {
	return Approval{ID: id, Account: "bot", Session: "bot-1", Tool: "forge_write_file", Forge: "local", Repo: "acme/app",
		State: "pending", Rule: "push: operator", Risk: "high", Summary: "write README.md on feature",
		View: "approval " + id + ": pending\n\nWhat it will do:\n  --- README.md (main)\n  +++ README.md (after the write)\n  -old\n  +new\n", Created: time.Now(), Expires: time.Now().Add(time.Hour)}
}

func TestOperatorSignsInWithAStrictHttpOnlyCookie(t *testing.T) {
	r := newRig(t, pendingPush("ap-1"))
	cookie, resp := r.signIn(operatorToken)
	if cookie == nil || resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in: status %d, cookie %v", resp.StatusCode, cookie)
	}
	if !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode || cookie.Path != "/" {
		t.Fatalf("cookie = %+v, want HttpOnly, SameSite=Strict, Path=/", cookie)
	}
	if strings.Contains(cookie.Value, operatorToken) {
		t.Fatal("the cookie carries the operator token")
	}
	for _, path := range []string{"/", "/approvals/ap-1", "/audit", "/scope"} {
		resp := r.do("GET", path, nil, cookie)
		body := read(t, resp)
		if resp.StatusCode != http.StatusOK || strings.Contains(body, operatorToken) {
			t.Fatalf("GET %s: status %d, token on the page: %v", path, resp.StatusCode, strings.Contains(body, operatorToken))
		}
		if path == "/approvals/ap-1" && (!strings.Contains(body, `<span class="add">  &#43;new</span>`) || !strings.Contains(body, `<span class="del">  -old</span>`)) {
			t.Fatalf("the approval's diff lines are not marked:\n%s", body)
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "script-src") {
			t.Fatalf("GET %s: CSP %q", path, csp)
		}
	}
	// Without the cookie every page sends the browser to sign in.
	if resp := r.do("GET", "/", nil, nil); resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/signin" {
		t.Fatalf("GET / signed out: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
}

func TestAgentTokenDoesNotSignIn(t *testing.T) {
	r := newRig(t, pendingPush("ap-1"))
	for _, tok := range []string{agentToken, "", operatorToken + "x", operatorToken[:20]} {
		cookie, resp := r.signIn(tok)
		body := read(t, resp)
		if cookie != nil || resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("sign-in with %q: status %d, cookie %v", tok, resp.StatusCode, cookie)
		}
		if tok != "" && strings.Contains(body, tok) {
			t.Fatalf("the refusal echoes the token")
		}
	}
	// An operator token equal to an agent's is refused at start.
	_, err := New(Options{Operators: []Operator{{Name: "x", Token: agentToken}}, IsAgentToken: func(s string) bool { return s == agentToken }})
	if err == nil || strings.Contains(err.Error(), agentToken) {
		t.Fatalf("New with an agent's token as operator token: %v", err)
	}
}

func TestPostWithoutCSRFTokenIsRefused(t *testing.T) {
	r := newRig(t, pendingPush("ap-1"))
	cookie, _ := r.signIn(operatorToken)
	for name, form := range map[string]url.Values{
		"missing": {},
		"wrong":   {"csrf": {"not-the-token"}},
	} {
		resp := r.do("POST", "/approvals/ap-1/approve", form, cookie, "Origin", r.srv.URL)
		if resp.StatusCode != http.StatusForbidden {
			t.Fatalf("%s CSRF token: status %d", name, resp.StatusCode)
		}
	}
	// Another session's token does not do either.
	other, _ := r.signIn(operatorToken)
	resp := r.do("POST", "/approvals/ap-1/approve", url.Values{"csrf": {r.csrf(other, "/")}}, cookie, "Origin", r.srv.URL)
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("another session's CSRF token: status %d", resp.StatusCode)
	}
	if d := r.queue.decisions(); len(d) != 0 {
		t.Fatalf("refused posts reached the gate: %v", d)
	}
	// The right one does.
	resp = r.do("POST", "/approvals/ap-1/approve", url.Values{"csrf": {r.csrf(cookie, "/")}}, cookie, "Origin", r.srv.URL)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("approve with the token: status %d: %s", resp.StatusCode, read(t, resp))
	}
	if d := r.queue.decisions(); len(d) != 1 || d[0] != "approved ap-1" {
		t.Fatalf("decisions = %v", d)
	}
}

func TestCrossOriginPostIsRefused(t *testing.T) {
	r := newRig(t, pendingPush("ap-1"))
	cookie, _ := r.signIn(operatorToken)
	form := url.Values{"csrf": {r.csrf(cookie, "/")}, "reason": {"no"}}
	cases := map[string][]string{
		"foreign Origin":          {"Origin", "https://evil.example"},
		"null Origin":             {"Origin", "null"},
		"other port":              {"Origin", "http://127.0.0.1:1"},
		"foreign Referer":         {"Referer", "https://evil.example/page"},
		"neither header":          {},
		"cross-site fetch":        {"Origin", r.srv.URL, "Sec-Fetch-Site", "cross-site"},
		"same-site, other origin": {"Origin", r.srv.URL, "Sec-Fetch-Site", "same-site"},
	}
	for name, h := range cases {
		resp := r.do("POST", "/approvals/ap-1/deny", form, cookie, h...)
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s: status %d", name, resp.StatusCode)
		}
	}
	// Sign-in is a POST too: a foreign page cannot sign the browser in.
	if resp := r.do("POST", "/signin", url.Values{"token": {operatorToken}}, nil, "Origin", "https://evil.example"); resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-origin sign-in: status %d", resp.StatusCode)
	}
	if d := r.queue.decisions(); len(d) != 0 {
		t.Fatalf("cross-origin posts reached the gate: %v", d)
	}
	// A same-origin Referer alone (a browser that sends no Origin) is
	// accepted.
	resp := r.do("POST", "/approvals/ap-1/deny", form, cookie, "Referer", r.srv.URL+"/approvals/ap-1")
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("same-origin Referer: status %d", resp.StatusCode)
	}
}

// A page on evil.example whose name the attacker points at 127.0.0.1
// (DNS rebinding) is same-origin with itself; the Host check refuses it.
func TestRebindingHostIsRefused(t *testing.T) {
	r := newRig(t, pendingPush("ap-1"))
	req, _ := http.NewRequest("GET", r.srv.URL+"/signin", nil)
	req.Host = "evil.example"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest {
		t.Fatalf("status %d", resp.StatusCode)
	}
}

// Everything in an approval is attacker-written; none of it becomes markup.
func TestForgeScriptInAnApprovalIsEscaped(t *testing.T) {
	const evil = `<script>alert(1)</script>`
	a := pendingPush("ap-1")
	a.Summary, a.Repo, a.Rule = evil, evil, evil
	// The view quotes forge text: a file's old content, a pull request's
	// title and reviews, the call's own texts.
	a.View = "What it will do:\n  --- x (main)\n  +++ x (after the write)\n  -" + evil + "\n  +\"><img src=x onerror=alert(1)>\n" +
		"  \"" + evil + "\" by mallory: evil into main\n"
	// The forge reports the URL of what the agent created, and an agent
	// chooses a tool's arguments.
	audit := []store.Ownership{{Account: "bot", Session: "bot-1", Tool: "forge_create_issue", URL: "javascript:alert(1)",
		Artifact: store.Artifact{Repo: evil, Kind: store.KindIssue, Number: 1}}}
	r := newRigWith(t, audit, a)
	cookie, _ := r.signIn(operatorToken)
	for _, path := range []string{"/", "/approvals/ap-1", "/audit"} {
		body := read(t, r.do("GET", path, nil, cookie))
		if strings.Contains(body, "<script") || strings.Contains(body, "<img") || strings.Contains(body, `href="javascript:`) {
			t.Fatalf("GET %s renders forge content as markup:\n%s", path, body)
		}
		if !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Fatalf("GET %s does not show the text escaped:\n%s", path, body)
		}
	}
}

func TestDenyNeedsAReason(t *testing.T) {
	r := newRig(t, pendingPush("ap-1"))
	cookie, _ := r.signIn(operatorToken)
	resp := r.do("POST", "/approvals/ap-1/deny", url.Values{"csrf": {r.csrf(cookie, "/")}, "reason": {"  "}}, cookie, "Origin", r.srv.URL)
	if body := read(t, resp); resp.StatusCode != http.StatusConflict || !strings.Contains(body, "needs a reason") {
		t.Fatalf("deny without a reason: %d %s", resp.StatusCode, body)
	}
	if d := r.queue.decisions(); len(d) != 0 {
		t.Fatalf("decisions = %v", d)
	}
	resp = r.do("POST", "/approvals/ap-9/approve", url.Values{"csrf": {r.csrf(cookie, "/")}}, cookie, "Origin", r.srv.URL)
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown approval: %d", resp.StatusCode)
	}
}

func TestSignOutEndsTheSession(t *testing.T) {
	r := newRig(t)
	cookie, _ := r.signIn(operatorToken)
	resp := r.do("POST", "/signout", url.Values{"csrf": {r.csrf(cookie, "/")}}, cookie, "Origin", r.srv.URL)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign out: %d", resp.StatusCode)
	}
	if resp := r.do("GET", "/", nil, cookie); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("the old cookie still works: %d", resp.StatusCode)
	}
}

// Under TLS the cookie is Secure and __Host- prefixed, so it never
// crosses plain HTTP and no other host or path can set it.
func TestSecureCookieUnderTLS(t *testing.T) {
	c, err := New(Options{Operators: []Operator{{Name: "alice", Token: operatorToken}}, Secure: true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewTLSServer(c)
	t.Cleanup(srv.Close)
	req, _ := http.NewRequest("POST", srv.URL+"/signin", strings.NewReader(url.Values{"token": {operatorToken}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", srv.URL)
	client := srv.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cookies := resp.Cookies()
	if len(cookies) != 1 || cookies[0].Name != "__Host-forgetools_console" || !cookies[0].Secure || !cookies[0].HttpOnly || cookies[0].SameSite != http.SameSiteStrictMode {
		t.Fatalf("status %d, cookies %+v", resp.StatusCode, cookies)
	}
}

func TestScopePageShowsEachAccount(t *testing.T) {
	r := newRig(t)
	cookie, _ := r.signIn(operatorToken)
	body := read(t, r.do("GET", "/scope", nil, cookie))
	for _, want := range []string{"<td>bot</td>", "<code>acme/app</code>", "bot-1", "console, forgetools approvals"} {
		if !strings.Contains(body, want) {
			t.Fatalf("the scope page lacks %q:\n%s", want, body)
		}
	}
}
