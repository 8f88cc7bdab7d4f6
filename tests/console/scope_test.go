package console_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// denied fails t unless the agent's read of demo/app is refused as out of
// its scope.
func denied(t *testing.T, g *gateway, when string) {
	t.Helper()
	r := g.call(t, "forge_read_file", readme)
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, `permission_denied: repository "demo/app" is outside the scope of account "bot"`) {
		t.Fatalf("%s, the read of demo/app was not refused as out of scope (exit %d):\n%s\n%s", when, r.code, r.stdout, r.stderr)
	}
}

// The operator edits an account's scope in a real browser: takes back
// the configured demo/*, and the agent's next read of demo/app is
// refused; adds demo/app from the list of what the forge reaches, sees it
// in the scope and the change log under their name, and the read runs;
// removes it again, and the next read is refused. The running gateway
// honours each change from the next call. On SQLite and PostgreSQL.
func TestScopeEditorInChromium(t *testing.T) {
	storetest.Run(t, scopeRound)
}

func scopeRound(t *testing.T, dsn string) {
	g := startGatewayOn(t, dsn)
	contains(t, "the read before any change", g.call(t, "forge_read_file", readme).ok(t), "demo/app")
	ctx := signInBrowser(t, g)

	do(t, ctx, chromedp.Navigate(g.console+"/scope"))
	contains(t, "the configured scope", text(t, ctx, "scope"), "bot", "demo/*", "the configuration")
	do(t, ctx, chromedp.Click(chromedp.CSS(`tr[data-account="bot"] form[data-entry="demo/*"] button`)))
	contains(t, "the notice", text(t, ctx, "notice"), "Removed demo/* from the scope of bot.")
	denied(t, g, "after demo/* was removed")

	do(t, ctx, chromedp.Click(chromedp.ID("discover")))
	contains(t, "the discovery list", get(t, ctx, chromedp.Text(chromedp.CSS(`section[data-forge="local"]`))), "demo/app")
	do(t, ctx,
		chromedp.SetValue(chromedp.CSS(`section[data-forge="local"] tr[data-entry="demo/app"] select`), "bot"),
		chromedp.Click(chromedp.CSS(`section[data-forge="local"] tr[data-entry="demo/app"] button`)),
	)
	contains(t, "the notice", text(t, ctx, "notice"), "Added demo/app to the scope of bot.")
	bot := get(t, ctx, chromedp.Text(chromedp.CSS(`tr[data-account="bot"]`)))
	contains(t, "bot's scope", bot, "demo/app", "the store")
	if strings.Contains(bot, "demo/*") {
		t.Fatalf("bot's scope still shows demo/*:\n%s", bot)
	}
	contains(t, "the scope log", text(t, ctx, "scope-log"), "FT_OPERATOR_TOKEN\tbot\tadd\tdemo/app", "FT_OPERATOR_TOKEN\tbot\tremove\tdemo/*", "seed\tdemo/*")
	screenshot(t, ctx, "scope.png")
	contains(t, "the read after demo/app was added", g.call(t, "forge_read_file", readme).ok(t), "demo/app")

	// From a fresh scope page: the one showing the last notice would
	// answer for the next page before it loads.
	do(t, ctx,
		chromedp.Navigate(g.console+"/scope"),
		chromedp.Click(chromedp.CSS(`tr[data-account="bot"] form[data-entry="demo/app"] button`)),
	)
	contains(t, "the notice", text(t, ctx, "notice"), "Removed demo/app from the scope of bot.")
	denied(t, g, "after demo/app was removed")
}
