package console_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// pendingID reads the approval id out of a pending_approval line.
var pendingID = regexp.MustCompile(`pending_approval: approval (ap-[A-Za-z0-9]+):`)

// blobSHA reads the blob sha out of a forge_read_file result.
var blobSHA = regexp.MustCompile(`(?m)^sha: ([0-9a-f]{40})$`)

const (
	readme  = `{"repo":"demo/app","path":"README.md"}`
	newLine = "Approved in the console."
)

// TestConsoleInChromium is the operator's whole round in a real browser:
// an agent's token does not sign in, the operator's does; the agent's
// push is parked and the forge is unchanged; the operator sees it with
// what it will do, approves it, and the agent's repeat of the call returns
// the real result; the audit shows the decision and what the agent
// created. On SQLite and PostgreSQL.
func TestConsoleInChromium(t *testing.T) {
	storetest.Run(t, consoleRound)
}

func consoleRound(t *testing.T, dsn string) {
	g := startGatewayOn(t, dsn)
	g.call(t, "forge_create_issue", `{"repo":"demo/app","title":"Seen in the console","body":"from the agent"}`).ok(t)

	sha := blobSHA.FindStringSubmatch(g.call(t, "forge_read_file", readme).ok(t))
	if sha == nil {
		t.Fatal("forge_read_file shows no sha")
	}
	push := `{"repo":"demo/app","branch":"main","path":"README.md","content":"# demo/app\n\n` + newLine + `\n","message":"Say who approved it","expected_sha":"` + sha[1] + `"}`
	parked := g.call(t, "forge_write_file", push)
	m := pendingID.FindStringSubmatch(parked.stdout + parked.stderr)
	if parked.code == 0 || m == nil {
		t.Fatalf("the push was not parked (exit %d):\n%s\n%s", parked.code, parked.stdout, parked.stderr)
	}
	id := m[1]
	if out := g.call(t, "forge_read_file", readme).ok(t); strings.Contains(out, newLine) {
		t.Fatalf("the parked push reached the forge:\n%s", out)
	}

	ctx := browser(t)
	// An agent's bearer token does not sign in.
	do(t, ctx,
		chromedp.Navigate(g.console+"/"),
		chromedp.SendKeys(chromedp.ID("token"), agentToken),
		chromedp.Click(chromedp.ID("signin-submit")),
	)
	contains(t, "the refused sign-in", text(t, ctx, "error"), "not an operator token")

	do(t, ctx,
		chromedp.SendKeys(chromedp.ID("token"), operatorToken),
		chromedp.Click(chromedp.ID("signin-submit")),
	)
	contains(t, "the queue", text(t, ctx, "queue"), id, "bot", "bot-1", "forge_write_file", "demo/app", "push")

	do(t, ctx, chromedp.Click(chromedp.CSS("a.approval-link")))
	contains(t, "the approval", text(t, ctx, "state"), "pending")
	contains(t, "the parked push's diff", text(t, ctx, "view"), "--- README.md (main)", "+++ README.md (after the write)", " # demo/app", "+"+newLine)
	screenshot(t, ctx, "approval.png")

	do(t, ctx, chromedp.Click(chromedp.ID("approve-submit")))
	contains(t, "the notice", text(t, ctx, "notice"), "Approved "+id)

	// The agent's repeat returns the real result, and the forge has it.
	done := g.call(t, "forge_write_file", push).ok(t)
	contains(t, "the repeated push", done, "README.md")
	contains(t, "the file on main", g.call(t, "forge_read_file", readme).ok(t), newLine)

	do(t, ctx, chromedp.Navigate(g.console+"/audit"))
	contains(t, "the decisions", text(t, ctx, "decisions"), id, "forge_write_file", "done", "FT_OPERATOR_TOKEN")
	contains(t, "the audit", text(t, ctx, "audit"), "bot", "bot-1", "forge_create_issue", "demo/app", "issue")
	screenshot(t, ctx, "audit.png")
}

// The operator denies a parked push with a reason in the browser: the
// agent's repeat gets permission_denied with that reason, and nothing was
// written.
func TestConsoleDenyInChromium(t *testing.T) {
	g := startGateway(t)
	id, args := parkPush(t, g, "# demo/app\n\nDenied in the console.\n")
	ctx := signInBrowser(t, g)
	do(t, ctx,
		chromedp.Navigate(g.console+"/approvals/"+id),
		chromedp.SendKeys(chromedp.ID("reason"), "work on a branch, not on main"),
		chromedp.Click(chromedp.ID("deny-submit")),
	)
	contains(t, "the notice", text(t, ctx, "notice"), "Denied "+id)
	r := g.call(t, "forge_write_file", args)
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "permission_denied") || !strings.Contains(r.stdout+r.stderr, "work on a branch, not on main") {
		t.Fatalf("the agent's repeat after the denial (exit %d):\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if out := g.call(t, "forge_read_file", readme).ok(t); strings.Contains(out, "Denied in the console.") {
		t.Fatalf("the denied push reached the forge:\n%s", out)
	}
	do(t, ctx, chromedp.Navigate(g.console+"/audit"))
	contains(t, "the decisions", text(t, ctx, "decisions"), id, "denied", "work on a branch, not on main")
}
