package console_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// parkPush parks an agent's push of content to README.md on main and
// returns the approval id and the call's arguments.
func parkPush(t *testing.T, g *gateway, content string) (id, args string) {
	t.Helper()
	sha := blobSHA.FindStringSubmatch(g.call(t, "forge_read_file", readme).ok(t))
	if sha == nil {
		t.Fatal("forge_read_file shows no sha")
	}
	args = fmt.Sprintf(`{"repo":"demo/app","branch":"main","path":"README.md","content":%q,"message":"Change it","expected_sha":%q}`, content, sha[1])
	r := g.call(t, "forge_write_file", args)
	m := pendingID.FindStringSubmatch(r.stdout + r.stderr)
	if r.code == 0 || m == nil {
		t.Fatalf("the push was not parked (exit %d):\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	return m[1], args
}

// stillPending fails t unless the agent's repeat of the call still gets
// the pending approval.
func stillPending(t *testing.T, g *gateway, id, args string) {
	t.Helper()
	r := g.call(t, "forge_write_file", args)
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "approval "+id+": this call waits for an operator") {
		t.Fatalf("approval %s was decided:\n%s\n%s", id, r.stdout, r.stderr)
	}
}

func signInBrowser(t *testing.T, g *gateway) context.Context {
	t.Helper()
	ctx := browser(t)
	do(t, ctx,
		chromedp.Navigate(g.console+"/signin"),
		chromedp.SendKeys(chromedp.ID("token"), operatorToken),
		chromedp.Click(chromedp.ID("signin-submit")),
		chromedp.WaitVisible(chromedp.CSS("nav")),
	)
	return ctx
}

// A page on another origin (here another port of 127.0.0.1, which is the
// same site, so even the SameSite=Strict cookie goes along) makes the
// signed-in operator's browser post an approval: it is refused and the
// call stays parked.
func TestCrossOriginPostInChromium(t *testing.T) {
	g := startGateway(t)
	id, args := parkPush(t, g, "# demo/app\n\nForged.\n")
	ctx := signInBrowser(t, g)
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><form id="f" method="post" action="%s/approvals/%s/approve"><input name="csrf" value="guessed"></form>
<script>document.getElementById("f").submit()</script>`, g.console, id)
	}))
	t.Cleanup(evil.Close)
	do(t, ctx, chromedp.Navigate(evil.URL), chromedp.WaitVisible(chromedp.CSS("body")))
	body := get(t, ctx, chromedp.Text(chromedp.CSS("body")))
	contains(t, "the forged post's answer", body, "refused")
	stillPending(t, g, id, args)
}

// Forge content on the approval page is text, never markup: a script in
// the file the agent wants to write does not run in the operator's
// browser, and the operator sees it as written.
func TestScriptInAnApprovalDoesNotRunInChromium(t *testing.T) {
	g := startGateway(t)
	const payload = `<script>document.title="pwned"</script><img src=x onerror="document.title='pwned'">`
	id, args := parkPush(t, g, "# demo/app\n\n"+payload+"\n")
	ctx := signInBrowser(t, g)
	do(t, ctx, chromedp.Navigate(g.console+"/approvals/"+id))
	contains(t, "the approval's view", text(t, ctx, "view"), "+"+payload)
	if title := get(t, ctx, chromedp.Title()); title == "pwned" {
		t.Fatal("the forge content's script ran in the console")
	}
	n := get(t, ctx, chromedp.Nodes(chromedp.CSSAll("main script, main img"), chromedp.AtLeast(0)))
	if len(n) != 0 {
		t.Fatalf("the approval page has %d script or img elements from forge content", len(n))
	}
	stillPending(t, g, id, args)
}
