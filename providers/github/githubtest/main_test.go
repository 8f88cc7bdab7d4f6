package githubtest

import (
	"os"
	"testing"
)

// TestMain prints how many exchanges were held to GitHub's published
// description (NewChecked).
func TestMain(m *testing.M) {
	code := m.Run()
	ReportChecked()
	os.Exit(code)
}
