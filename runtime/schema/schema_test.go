package schema_test

import (
	"encoding/json"
	"testing"

	"github.com/forgetools/forgetools/runtime/schema"
)

// The bytes the model reads: keywords in field order whatever order a
// literal names them in, properties in list order, one type as a string,
// numbers as written, nothing HTML-escaped, a closed object's false.
func TestMarshalOrder(t *testing.T) {
	s := &schema.Schema{
		AdditionalProperties: schema.False,
		Required:             []string{"b"},
		Properties: schema.Properties{
			{Name: "b", Schema: &schema.Schema{Pattern: `<a&b>`, Type: schema.Types{"string"}}},
			{Name: "a", Schema: &schema.Schema{Maximum: "18446744073709551615", Type: schema.Types{"integer", "null"}, Enum: []any{json.Number("1"), nil}}},
		},
		Type: schema.Types{"object"},
	}
	want := `{"type":"object","properties":{"b":{"type":"string","pattern":"<a&b>"},"a":{"type":["integer","null"],"enum":[1,null],"maximum":18446744073709551615}},"required":["b"],"additionalProperties":false}`
	if got := s.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// An empty list of properties or of required names is a statement (an
// object that takes nothing; strict mode's every-name list); an unset one
// is absent.
func TestEmptyIsNotUnset(t *testing.T) {
	if got := (&schema.Schema{Type: schema.Types{"object"}, Properties: schema.Properties{}, Required: []string{}}).String(); got != `{"type":"object","properties":{},"required":[]}` {
		t.Errorf("empty lists: %s", got)
	}
	if got := (&schema.Schema{}).String(); got != `{}` {
		t.Errorf("zero schema: %s", got)
	}
}

// A keyword a rewrite adds goes after the ones the schema had, in the
// order added, as appending it to the JSON text would have put it.
func TestAddedLast(t *testing.T) {
	s := &schema.Schema{Type: schema.Types{"string"}, Pattern: "x"}
	s.Enum = []any{"a"}
	s.AddedLast("enum")
	s.Description = "(note)"
	s.AddedLast("description")
	s.AddedLast("enum") // once only
	if got, want := s.String(), `{"type":"string","pattern":"x","enum":["a"],"description":"(note)"}`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Marking a keyword that is not set adds nothing.
	u := &schema.Schema{Type: schema.Types{"string"}}
	u.AddedLast("default")
	if got := u.String(); got != `{"type":"string"}` {
		t.Errorf("unset keyword marked: %s", got)
	}
}

// Walk visits every schema inside, parents first, and not the schema
// false.
func TestWalk(t *testing.T) {
	s := &schema.Schema{
		Description: "root",
		Properties: schema.Properties{
			{Name: "list", Schema: &schema.Schema{Description: "list", Items: &schema.Schema{Description: "item"}}},
			{Name: "map", Schema: &schema.Schema{Description: "map", AdditionalProperties: &schema.Schema{Description: "value"}}},
		},
		AdditionalProperties: schema.False,
		AnyOf:                []*schema.Schema{{Description: "any"}},
		Not:                  &schema.Schema{Description: "not"},
	}
	var seen []string
	s.Walk(func(sub *schema.Schema) { seen = append(seen, sub.Description) })
	want := []string{"root", "not", "list", "item", "map", "value", "any"}
	if len(seen) != len(want) {
		t.Fatalf("visited %q, want %q", seen, want)
	}
	for i := range want {
		if seen[i] != want[i] {
			t.Fatalf("visited %q, want %q", seen, want)
		}
	}
}
