package giteatest

import (
	"embed"
	"fmt"
)

// The fixtures are Gitea's JSON answers as its API documents them (swagger
// member names, which are also the SDK types' json tags), for acme/gadgets.
// They are the reference the fake's shapes are held to
// (TestShapesMatchFixtures) and canned answers for scripted tests.
//
//go:embed testdata/*.json
var fixtures embed.FS

// Fixture is the contents of testdata/name. A missing fixture is a bug in
// the test, so it panics.
func Fixture(name string) string {
	b, err := fixtures.ReadFile("testdata/" + name)
	if err != nil {
		panic(fmt.Sprintf("giteatest: no fixture %q", name))
	}
	return string(b)
}
