package gitlabtest

import (
	"embed"
	"fmt"
)

// The fixtures are GitLab's JSON answers as its REST API documentation
// shows them (member names as the client's json tags read them), for the
// project platform/infra/deploy. They are the reference the fake's shapes
// are held to (TestShapesMatchFixtures) and canned answers for scripted
// tests.
//
//go:embed testdata/*.json
var fixtures embed.FS

// Fixture is the contents of testdata/name. A missing fixture is a bug in
// the test, so it panics.
func Fixture(name string) string {
	b, err := fixtures.ReadFile("testdata/" + name)
	if err != nil {
		panic(fmt.Sprintf("gitlabtest: no fixture %q", name))
	}
	return string(b)
}
