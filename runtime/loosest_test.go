package runtime

import (
	"encoding/json"
	"testing"

	"github.com/forgetools/forgetools/runtime/schema"
	"github.com/forgetools/forgetools/runtime/schema/schematest"
)

// The union of a parameter's variants accepts what every variant accepts,
// and leaves caps and type ranges to the action's validator.
func TestLoosest(t *testing.T) {
	for _, tc := range []struct {
		name     string
		variants []string
		want     string
	}{{
		name:     "alike",
		variants: []string{`{"type":"string","description":"A.","enum":["x"]}`, `{"type":"string","enum":["x"]}`},
		want:     `{"type":"string","description":"A.","enum":["x"]}`,
	}, {
		name:     "enums joined, in first-seen order",
		variants: []string{`{"type":"string","enum":["open","closed","all"]}`, `{"type":"string","enum":["open","closed","merged"]}`},
		want:     `{"type":"string","enum":["open","closed","all","merged"]}`,
	}, {
		name:     "bounds widened",
		variants: []string{`{"type":"integer","minimum":1,"maximum":50}`, `{"type":"integer","minimum":0,"maximum":100}`},
		want:     `{"type":"integer","minimum":0,"maximum":100}`,
	}, {
		name:     "a keyword one variant lacks or that differs is dropped",
		variants: []string{`{"type":"string","format":"date-time"}`, `{"type":"string"}`, `{"type":"string","format":"date-time"}`},
		want:     `{"type":"string"}`,
	}, {
		name:     "the first description",
		variants: []string{`{"type":"string"}`, `{"type":"string","description":"Second."}`, `{"type":"string","description":"Third."}`},
		want:     `{"type":"string","description":"Second."}`,
	}, {
		name:     "caps and type ranges left to the action",
		variants: []string{`{"type":"array","maxItems":10,"items":{"type":"integer","minimum":1,"maximum":2147483647}}`},
		want:     `{"type":"array","items":{"type":"integer","minimum":1}}`,
	}, {
		name:     "patterns and lengths, in alternatives too",
		variants: []string{`{"type":"string","anyOf":[{"maxLength":0},{"maxLength":200,"pattern":"x"}]}`},
		want:     `{"type":"string","anyOf":[{},{}]}`,
	}} {
		var vs []*schema.Schema
		for _, v := range tc.variants {
			vs = append(vs, schematest.Must(v))
		}
		got := loosest(vs)
		relax(got)
		b, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, b, tc.want)
		}
	}
}

func TestSentences(t *testing.T) {
	got := sentences("Open an issue. A retry returns the first, e.g. one. Never write it.")
	want := []string{"Open an issue.", "A retry returns the first, e.g. one.", "Never write it."}
	if len(got) != len(want) {
		t.Fatalf("sentences = %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("sentence %d = %q, want %q", i, got[i], want[i])
		}
	}
}
