package githubtest

import (
	"embed"
	"encoding/json"
	"fmt"
)

// The fixtures are GitHub's documented example answers (octocat/Hello-World),
// trimmed to what the REST API returns today. They are the reference for the
// JSON shapes the fake serves (see TestShapesMatchFixtures) and the canned
// answers of the provider's scripted tests.
//
//go:embed testdata/*.json testdata/*.html testdata/*.txt
var fixtures embed.FS

// Fixture is the contents of testdata/name. A missing fixture is a bug in
// the test, so it panics.
func Fixture(name string) string {
	b, err := fixtures.ReadFile("testdata/" + name)
	if err != nil {
		panic(fmt.Sprintf("githubtest: no fixture %q", name))
	}
	return string(b)
}

// FixtureWith is a JSON object fixture with one member's value replaced, for
// an answer that differs from a documented example in one field. It panics
// if the fixture has no such member.
func FixtureWith(name, key string, value any) string {
	var m map[string]any
	if err := json.Unmarshal([]byte(Fixture(name)), &m); err != nil {
		panic(fmt.Sprintf("githubtest: fixture %s: %v", name, err))
	}
	if _, ok := m[key]; !ok {
		panic(fmt.Sprintf("githubtest: fixture %s has no member %q", name, key))
	}
	m[key] = value
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return string(b)
}
