package schema_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ecmaVerdicts runs every case through the second validator, ajv under
// node (ecma/check.js), in one process: the verdict of each case's tool
// schema, in case order. Every schema must compile there too.
//
// ajv is a test-only dependency, installed by `npm ci --prefix
// tests/schema/ecma` (make test and .ci/run do it). Without it the
// ECMA-262 side is skipped, unless FORGETOOLS_REQUIRE_ECMA=1 (as make test
// sets) makes that a failure; nil means skipped.
func ecmaVerdicts(t *testing.T, cases []argCase) []bool {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join("ecma", "node_modules", "ajv", "package.json"))
	}
	if err != nil {
		msg := "the ECMA-262 validator is not installed (" + err.Error() + "); run npm ci --prefix tests/schema/ecma, as make test does"
		if os.Getenv("FORGETOOLS_REQUIRE_ECMA") == "1" {
			t.Fatal(msg)
		}
		t.Log("skipping the ECMA-262 side: " + msg)
		return nil
	}
	type call struct {
		Tool string `json:"tool"`
		Args string `json:"args"`
	}
	in := struct {
		Schemas map[string]json.RawMessage `json:"schemas"`
		Cases   []call                     `json:"cases"`
	}{Schemas: map[string]json.RawMessage{}}
	for _, table := range tables {
		for _, tool := range table.Tools {
			in.Schemas[tool.Name] = json.RawMessage(tool.InputSchema().JSON())
		}
	}
	for _, c := range cases {
		in.Cases = append(in.Cases, call{c.tool, c.args})
	}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "check.js")
	cmd.Dir = "ecma"
	cmd.Stdin = strings.NewReader(string(data))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node ecma/check.js: %v\n%s", err, stderr.String())
	}
	var raw []any
	if err := json.Unmarshal(out, &raw); err != nil || len(raw) != len(cases) {
		t.Fatalf("node ecma/check.js answered %q (%v), want %d verdicts", clip(string(out)), err, len(cases))
	}
	verdicts := make([]bool, len(raw))
	failed := map[string]bool{}
	for i, v := range raw {
		switch v := v.(type) {
		case bool:
			verdicts[i] = v
		case string:
			if !failed[cases[i].tool] {
				failed[cases[i].tool] = true
				t.Errorf("%s: under ajv (ECMA-262): %s", cases[i].tool, v)
			}
		}
	}
	return verdicts
}
