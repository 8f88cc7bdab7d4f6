package testkit

import (
	"os"
	"os/exec"
	"testing"
)

// RequireSandbox skips a test of the local forge's CI sandbox where
// bubblewrap is missing, unless FORGETOOLS_REQUIRE_SANDBOX=1 (scripts/test
// sets it after installing bubblewrap) makes that a failure.
func RequireSandbox(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil {
		if os.Getenv("FORGETOOLS_REQUIRE_SANDBOX") == "1" {
			t.Fatalf("FORGETOOLS_REQUIRE_SANDBOX=1 but bwrap is not installed (apt-get install bubblewrap): %v", err)
		}
		t.Skip("bwrap is not installed; scripts/test installs it and sets FORGETOOLS_REQUIRE_SANDBOX=1")
	}
}
