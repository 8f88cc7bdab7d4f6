package generator

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/runtime/schema"
)

// Every keyword field of schema.Schema has a Go spelling in the emitter: a
// field the type gains fails here, not in the first proto that sets it.
func TestEveryKeywordIsEmitted(t *testing.T) {
	s := &schema.Schema{}
	v := reflect.ValueOf(s).Elem()
	for i := range v.NumField() {
		f, fv := v.Type().Field(i), v.Field(i)
		if !f.IsExported() {
			continue
		}
		switch fv.Interface().(type) {
		case string:
			fv.SetString("x")
		case bool:
			fv.SetBool(true)
		case json.Number:
			fv.SetString("1")
		case *uint64:
			fv.Set(reflect.ValueOf(schema.Uint(1)))
		case []any:
			fv.Set(reflect.ValueOf([]any{"a", json.Number("2"), false, nil}))
		case []string:
			fv.Set(reflect.ValueOf([]string{"a"}))
		case schema.Types:
			fv.Set(reflect.ValueOf(schema.Types{"integer", "null"}))
		case *schema.Schema:
			fv.Set(reflect.ValueOf(&schema.Schema{Format: "uuid"}))
		case []*schema.Schema:
			fv.Set(reflect.ValueOf([]*schema.Schema{{Pattern: "^a$"}}))
		case schema.Properties:
			fv.Set(reflect.ValueOf(schema.Properties{{Name: "p", Schema: &schema.Schema{}}}))
		default:
			if f.Type.Kind() != reflect.Interface {
				t.Fatalf("field %s of type %s: add a value for it to this test", f.Name, f.Type)
			}
			fv.Set(reflect.ValueOf(json.Number("0")))
		}
	}
	code := fmt.Sprintf("%#v", schemaCode(s))
	for i := range v.NumField() {
		if f := v.Type().Field(i); f.IsExported() && !regexp.MustCompile(`\n\s*`+f.Name+`:\s`).MatchString(code) {
			t.Errorf("keyword %s is not in the emitted value:\n%s", f.Name, code)
		}
	}
	// A number in a keyword of any value keeps its type: "0" would be a
	// string.
	if !regexp.MustCompile(`\n\s*Const:\s+json\.Number\("0"\),`).MatchString(code) {
		t.Errorf("a number Const is not emitted as a json.Number:\n%s", code)
	}
	// A false const is a value, not an unset keyword.
	if code := fmt.Sprintf("%#v", schemaCode(&schema.Schema{Type: schema.Types{"boolean"}, Const: false})); !strings.Contains(code, "Const: false") {
		t.Errorf("a false Const is not emitted as false:\n%s", code)
	}
}

// The schema false has one Go spelling, the runtime's variable.
func TestFalseIsTheRuntimeVariable(t *testing.T) {
	code := fmt.Sprintf("%#v", schemaCode(&schema.Schema{Type: schema.Types{"object"}, Properties: schema.Properties{}, AdditionalProperties: schema.False}))
	if !strings.Contains(code, "AdditionalProperties: schema.False") {
		t.Errorf("additionalProperties false is not schema.False:\n%s", code)
	}
}
