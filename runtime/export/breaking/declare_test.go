package breaking_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/runtime/export"
	"github.com/forgetools/forgetools/runtime/export/breaking"
)

func TestDeclare(t *testing.T) {
	base := surface(t)
	changed := edit(t, base, "forge_get_issue", func(d *export.Definition, s map[string]any) {
		delete(s["properties"].(map[string]any), "forge_host")
		d.Description = "Read one issue."
	})
	keys, err := breaking.ParseDeclared("declared-breaks", []byte(`# accepted for 0.2
forge_get_issue:forge_host:removed   # the host comes from the config now

forge_get_issue:description-changed
forge_gone:tool-removed
`))
	if err != nil {
		t.Fatal(err)
	}
	changes, stale := breaking.Declare(breaking.Compare(base, changed), keys)
	// A compatible change needs no declaration; declaring one is stale too.
	if want := []string{"forge_get_issue:description-changed", "forge_gone:tool-removed"}; !slices.Equal(stale, want) {
		t.Errorf("stale = %v, want %v", stale, want)
	}
	for _, c := range changes {
		if c.Declared != (c.Key() == "forge_get_issue:forge_host:removed") {
			t.Errorf("%s: declared = %t", c.Key(), c.Declared)
		}
		if c.Declared && !strings.HasPrefix(c.String(), "breaking (declared): forge_get_issue: parameter forge_host removed") {
			t.Errorf("declared line: %q", c.String())
		}
	}
}

func TestParseDeclaredRefuses(t *testing.T) {
	for in, want := range map[string]string{
		"a:b:removed\na:b:removed\n": "breaks:2: a:b:removed declared twice",
		"a:b removed\n":              "breaks:1: \"a:b removed\" is not one key",
	} {
		if _, err := breaking.ParseDeclared("breaks", []byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseDeclared(%q) = %v, want an error containing %q", in, err, want)
		}
	}
}

func TestParseSnapshotRefuses(t *testing.T) {
	for in, want := range map[string]string{
		`{"name": "x", "input_schema": {}, "approvals": "read"}`: `x.json: not a tool definition: json: unknown field "approvals"`,
		`{"input_schema": {}}`:                 "x.json: not a tool definition: no name",
		`{"name": "x", "input_schema": []}`:    "x.json: tool x: input_schema is not a JSON object",
		`{"name": "x", "input_schema": {}} {}`: "x.json: not a tool definition: more than one JSON value",
		`[`:                                    "x.json: not a tool definition",
	} {
		if _, err := breaking.ParseSnapshot("x.json", []byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSnapshot(%s) = %v, want an error containing %q", in, err, want)
		}
	}
	_, err := breaking.ParseSnapshots(map[string][]byte{
		"a.json": []byte(`{"name": "x", "input_schema": {}}`),
		"b.json": []byte(`{"name": "x", "input_schema": {}}`),
	})
	if err == nil || err.Error() != "b.json: tool x is already defined by a.json" {
		t.Errorf("two files for one tool: %v", err)
	}
}
