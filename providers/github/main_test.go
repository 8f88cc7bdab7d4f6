package github

import (
	"os"
	"testing"

	"github.com/forgetools/forgetools/providers/github/githubtest"
)

// TestMain prints how many of the tests' exchanges with the fake were held
// to GitHub's published description (githubtest.NewChecked).
func TestMain(m *testing.M) {
	code := m.Run()
	githubtest.ReportChecked()
	os.Exit(code)
}
