package schematest_test

import (
	"testing"

	"github.com/forgetools/forgetools/runtime/schema/schematest"
)

// A fixture written in keyword order reads back to the same bytes; one
// Schema cannot hold is refused, not half read.
func TestParse(t *testing.T) {
	text := `{"type":"object","properties":{"n":{"type":["integer","null"],"enum":[9007199254740993,null],"not":{"const":0}},"m":{"type":"object","additionalProperties":{"type":"string"}}},"required":["n"],"additionalProperties":false}`
	s, err := schematest.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.String(); got != text {
		t.Errorf("got  %s\nwant %s", got, text)
	}
	for _, bad := range []string{`{"type":"object","$ref":"#"}`, `{"type":"object"} {}`, `[]`, `{"type":"object"`} {
		if _, err := schematest.Parse(bad); err == nil {
			t.Errorf("Parse(%s) accepted", bad)
		}
	}
}
