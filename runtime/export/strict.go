package export

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/forgetools/forgetools/runtime/schema"
)

// strictFormats are the string formats OpenAI structured outputs accept
// with strict: true (platform.openai.com/docs/guides/structured-outputs,
// "Supported schemas"). Besides formats, strict mode takes the structural
// keywords, pattern, minimum/maximum/exclusive* and minItems/maxItems;
// Strict drops every other keyword and states it in the description.
var strictFormats = map[string]bool{
	"date-time": true, "time": true, "date": true, "duration": true,
	"email": true, "hostname": true, "ipv4": true, "ipv6": true, "uuid": true,
}

// Strict rewrites a tool's JSON Schema into one OpenAI accepts in strict
// mode without losing what it said:
//
//   - every object lists all its properties in required and sets
//     additionalProperties to false, at every level;
//   - a property that was optional becomes nullable (type [T, "null"], and
//     null joins its enum), so the model sends null for "omitted", which the
//     decoder treats as absent;
//   - oneOf becomes anyOf;
//   - unsupported keywords (minLength, maxLength, default, uniqueItems, an
//     unsupported format, ...) are dropped and their meaning is appended to
//     the description, e.g. "(1-200 characters)".
//
// The root must be an object schema. Strict rewrites s in place: give it
// a new value (Tool.InputSchema returns one per call).
func Strict(s *schema.Schema) (json.RawMessage, error) {
	if s == nil || !s.Type.Is("object") {
		return nil, errors.New("strict mode needs an object schema at the root")
	}
	if err := strictify(s); err != nil {
		return nil, err
	}
	return json.Marshal(s)
}

// ErrNotStrict is the error of Strict for a schema strict mode cannot
// express at all: a map (an object whose property names are not fixed),
// since strict mode closes every object.
var ErrNotStrict = errors.New("strict mode cannot express this schema")

func strictify(s *schema.Schema) error {
	if s.AdditionalProperties != nil && !s.AdditionalProperties.IsFalse() {
		return fmt.Errorf("%w: a map (additionalProperties with a schema)", ErrNotStrict)
	}
	if s.OneOf != nil && presence(s.OneOf) == nil && s.AnyOf == nil {
		s.AnyOf, s.OneOf = s.OneOf, nil
		s.AddedLast("anyOf")
	}
	notes := dropUnsupported(s)

	if s.Properties != nil || s.Type.Is("object") {
		if s.Properties == nil {
			s.Properties = schema.Properties{}
			s.AddedLast("properties")
		}
		if s.Required == nil {
			s.AddedLast("required")
		}
		if s.AdditionalProperties == nil {
			s.AddedLast("additionalProperties")
		}
		all := make([]string, 0, len(s.Properties))
		for _, p := range s.Properties {
			if err := strictify(p.Schema); err != nil {
				return err
			}
			if !slices.Contains(s.Required, p.Name) {
				nullable(p.Schema)
			}
			all = append(all, p.Name)
		}
		s.Required, s.AdditionalProperties = all, schema.False
	}
	for _, sub := range append([]*schema.Schema{s.Items}, s.AnyOf...) {
		if sub != nil {
			if err := strictify(sub); err != nil {
				return err
			}
		}
	}
	note(s, notes)
	return nil
}

// dropUnsupported removes the keywords strict mode rejects and returns what
// they said, in words, in keyword order.
func dropUnsupported(s *schema.Schema) []string {
	var notes []string
	add := func(text string) { notes = append(notes, text) }
	if n := lengthNote(s); n != "" {
		add(n)
	}
	s.MinLength, s.MaxLength, s.Deprecated = nil, nil, false // the description says deprecated
	if s.Not != nil {
		add(combinatorNote("not", s))
		s.Not = nil
	}
	if s.Format != "" && !strictFormats[s.Format] {
		add("format: " + jsonText(s.Format))
		s.Format = ""
	}
	if s.ContentEncoding == "base64" {
		add("base64")
	} else if s.ContentEncoding != "" {
		add("contentEncoding: " + jsonText(s.ContentEncoding))
	}
	s.ContentEncoding = ""
	if s.UniqueItems {
		add("items must be unique")
		s.UniqueItems = false
	}
	if s.MinProperties != nil {
		add("minProperties: " + jsonText(s.MinProperties))
	}
	if s.MaxProperties != nil {
		add("maxProperties: " + jsonText(s.MaxProperties))
	}
	if s.PropertyNames != nil {
		add("propertyNames: " + jsonText(s.PropertyNames))
	}
	s.MinProperties, s.MaxProperties, s.PropertyNames = nil, nil, nil
	for _, k := range []string{"allOf", "oneOf"} {
		if has(s, k) {
			add(combinatorNote(k, s))
		}
	}
	s.AllOf, s.OneOf = nil, nil
	if len(s.Examples) > 0 {
		vals := make([]string, len(s.Examples))
		for i, x := range s.Examples {
			vals[i] = jsonText(x)
		}
		add("e.g. " + strings.Join(vals, ", "))
	}
	if s.Default != nil {
		add("default " + jsonText(s.Default))
	}
	s.Examples, s.Default = nil, nil
	return notes
}

// lengthNote phrases minLength/maxLength: "1-200 characters".
func lengthNote(s *schema.Schema) string {
	switch lo, hi := s.MinLength, s.MaxLength; {
	case lo != nil && hi != nil:
		return jsonText(lo) + "-" + jsonText(hi) + " characters"
	case lo != nil:
		return "at least " + characters(jsonText(lo))
	case hi != nil:
		return "at most " + characters(jsonText(hi))
	}
	return ""
}

func characters(n string) string {
	if n == "1" {
		return "1 character"
	}
	return n + " characters"
}

// notEnum phrases {"enum": [...]} as "a or b"; "" for any other schema.
func notEnum(not *schema.Schema) string {
	if !only(not, func(c *schema.Schema) { c.Enum = nil }) {
		return ""
	}
	vals := make([]string, len(not.Enum))
	for i, v := range not.Enum {
		vals[i] = jsonText(v)
	}
	return strings.Join(vals, " or ")
}

// nullable lets an optional property be null.
func nullable(p *schema.Schema) {
	switch {
	case len(p.Type) > 0:
		if !slices.Contains(p.Type, "null") {
			p.Type = append(p.Type, "null")
		}
	case p.AnyOf != nil:
		p.AnyOf = append(p.AnyOf, &schema.Schema{Type: schema.Types{"null"}})
		return
	default:
		// A const-only schema: wrap it, keeping the description outside
		// where the model reads it.
		inner := *p
		inner.Description = ""
		*p = schema.Schema{Description: p.Description, AnyOf: []*schema.Schema{&inner, {Type: schema.Types{"null"}}}}
		p.AddedLast("description")
		return
	}
	if p.Enum != nil && !slices.Contains(p.Enum, nil) {
		p.Enum = append(p.Enum, nil)
	}
	if p.Const != nil {
		if p.Enum == nil {
			p.AddedLast("enum")
		}
		p.Enum, p.Const = []any{p.Const, nil}, nil
	}
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	return string(b)
}
