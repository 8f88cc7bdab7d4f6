package console_test

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestConsoleInChromium signs in as the operator in a real browser (an
// agent's token first, which is refused), and reads the audit of what the
// agent created.
func TestConsoleInChromium(t *testing.T) {
	g := startGateway(t)
	g.call(t, "forge_create_issue", `{"repo":"demo/app","title":"Seen in the console","body":"from the agent"}`).ok(t)
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
		chromedp.WaitVisible(chromedp.CSS("nav")),
		chromedp.Navigate(g.console+"/audit"),
	)
	contains(t, "the audit", text(t, ctx, "audit"), "bot", "bot-1", "forge_create_issue", "demo/app", "issue")
	screenshot(t, ctx, "audit.png")
}
