package lineartest

import (
	"embed"
	"fmt"
)

// The fixtures are answers shaped like Linear's real ones (the ENG team of
// workspace "acme"): the reference for the fake's error bodies and the
// canned answers of the provider's scripted tests.
//
//go:embed testdata/*.json testdata/*.html
var fixtures embed.FS

// Fixture is the contents of testdata/name. A missing fixture is a bug in
// the test, so it panics.
func Fixture(name string) string {
	b, err := fixtures.ReadFile("testdata/" + name)
	if err != nil {
		panic(fmt.Sprintf("lineartest: no fixture %q", name))
	}
	return string(b)
}
