package console_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// browser starts a fresh headless Chromium for t and returns a tab's
// context. The machine's network is closed, so everything that would call
// home is switched off; as root Chromium's sandbox cannot start and is
// switched off too.
func browser(t *testing.T) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("FORGETOOLS_REQUIRE_CHROMIUM") == "1" {
			t.Fatalf("this test needs Debian's chromium (apt-get install -y chromium): %v", err)
		}
		t.Skipf("no chromium (apt-get install -y chromium; make test installs it): %v", err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(filepath.Join(t.TempDir(), "chromium")),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 900),
	}
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancelTab := chromedp.NewContext(actx, chromedp.WithErrorf(t.Logf))
	t.Cleanup(cancelTab)
	// The first run starts the browser; it must not carry a timeout,
	// which would end the browser with it.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return ctx
}

// do runs browser steps, bounded by within.
func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// get runs one browser action that returns a value, bounded by within.
func get[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// text is the visible text of the element with the id, once it is visible.
func text(t *testing.T, ctx context.Context, id string) string {
	t.Helper()
	do(t, ctx, chromedp.WaitVisible(chromedp.ID(id)))
	return get(t, ctx, chromedp.Text(chromedp.ID(id)))
}

// screenshot saves the whole page as a PNG in the test's artifact
// directory and logs its path.
func screenshot(t *testing.T, ctx context.Context, name string) string {
	t.Helper()
	png := get(t, ctx, chromedp.FullScreenshot(100))
	path := filepath.Join(t.ArtifactDir(), name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
	return path
}
