package export

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/forgetools/forgetools/runtime/internal/jsonobj"
	"slices"
	"strings"
)

// strictKeywords are the JSON Schema keywords OpenAI structured outputs
// accept with strict: true (platform.openai.com/docs/guides/structured-outputs,
// "Supported schemas"): the structural ones, and as constraints pattern and
// format for strings, minimum/maximum/exclusive*/multipleOf for numbers and
// minItems/maxItems for arrays. Every other keyword is rejected; Strict drops
// it and states it in the description instead.
var strictKeywords = map[string]bool{
	"type": true, "description": true, "properties": true, "required": true,
	"additionalProperties": true, "items": true, "enum": true, "const": true,
	"anyOf": true, "$ref": true, "$defs": true,
	"pattern": true, "format": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"minItems": true, "maxItems": true,
}

// strictFormats are the string formats strict mode supports.
var strictFormats = map[string]bool{
	"date-time": true, "time": true, "date": true, "duration": true,
	"email": true, "hostname": true, "ipv4": true, "ipv6": true, "uuid": true,
}

// metaKeywords carry no constraint and are dropped without a note.
var metaKeywords = map[string]bool{"$schema": true, "$id": true, "$comment": true, "title": true}

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
// The root must be an object schema.
func Strict(schema string) (json.RawMessage, error) {
	v, err := jsonobj.Parse([]byte(schema))
	if err != nil {
		return nil, err
	}
	root, ok := v.(*jsonobj.Object)
	if !ok || root.Str("type") != "object" {
		return nil, errors.New("strict mode needs an object schema at the root")
	}
	if err := strictify(root); err != nil {
		return nil, err
	}
	return json.Marshal(root)
}

// ErrNotStrict is the error of Strict for a schema strict mode cannot
// express at all: a map (an object whose property names are not fixed),
// since strict mode closes every object.
var ErrNotStrict = errors.New("strict mode cannot express this schema")

func strictify(s *jsonobj.Object) error {
	if s.Obj("additionalProperties") != nil {
		return fmt.Errorf("%w: a map (additionalProperties with a schema)", ErrNotStrict)
	}
	if one, ok := s.Get("oneOf"); ok && presence(one) == nil {
		if _, has := s.Get("anyOf"); !has {
			s.Set("anyOf", one)
			s.Del("oneOf")
		}
	}
	notes := dropUnsupported(s)

	if props := s.Obj("properties"); props != nil || s.Str("type") == "object" {
		if props == nil {
			props = jsonobj.New()
			s.Set("properties", props)
		}
		required := s.Strings("required")
		all := make([]any, 0, len(props.Keys))
		for _, k := range props.Keys {
			p, ok := props.Vals[k].(*jsonobj.Object)
			if !ok {
				continue
			}
			if err := strictify(p); err != nil {
				return err
			}
			if !slices.Contains(required, k) {
				nullable(p)
			}
			all = append(all, k)
		}
		s.Set("required", all)
		s.Set("additionalProperties", false)
	}
	if items := s.Obj("items"); items != nil {
		if err := strictify(items); err != nil {
			return err
		}
	}
	if defs := s.Obj("$defs"); defs != nil {
		for _, k := range defs.Keys {
			if d, ok := defs.Vals[k].(*jsonobj.Object); ok {
				if err := strictify(d); err != nil {
					return err
				}
			}
		}
	}
	if anyOf, ok := s.Vals["anyOf"].([]any); ok {
		for _, a := range anyOf {
			if d, ok := a.(*jsonobj.Object); ok {
				if err := strictify(d); err != nil {
					return err
				}
			}
		}
	}
	note(s, notes)
	return nil
}

// dropUnsupported removes the keywords strict mode rejects and returns what
// they said, in words.
func dropUnsupported(s *jsonobj.Object) []string {
	var notes []string
	if n := lengthNote(s); n != "" {
		notes = append(notes, n)
	}
	for _, k := range slices.Clone(s.Keys) {
		switch {
		case k == "format":
			if !strictFormats[s.Str(k)] {
				notes = append(notes, "format: "+jsonText(s.Vals[k]))
				s.Del(k)
			}
		case strictKeywords[k]:
		case metaKeywords[k]:
			s.Del(k)
		case k == "minLength" || k == "maxLength":
			s.Del(k) // stated by lengthNote
		case k == "default":
			notes = append(notes, "default "+jsonText(s.Vals[k]))
			s.Del(k)
		case k == "deprecated":
			s.Del(k) // the description says so
		case phraseable(k, s.Vals[k]):
			text, _ := phrase(k, s.Vals[k])
			notes = append(notes, text)
			s.Del(k)
		case k == "uniqueItems":
			if s.Vals[k] == true {
				notes = append(notes, "items must be unique")
			}
			s.Del(k)
		default:
			notes = append(notes, k+": "+jsonText(s.Vals[k]))
			s.Del(k)
		}
	}
	return notes
}

// lengthNote phrases minLength/maxLength: "1-200 characters".
func lengthNote(s *jsonobj.Object) string {
	lo, hasLo := s.Get("minLength")
	hi, hasHi := s.Get("maxLength")
	switch {
	case hasLo && hasHi:
		return jsonText(lo) + "-" + jsonText(hi) + " characters"
	case hasLo:
		return "at least " + characters(jsonText(lo))
	case hasHi:
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

// phraseable: k is a keyword strict mode drops that phrase can word.
func phraseable(k string, v any) bool {
	_, ok := phrase(k, v)
	return ok
}

// notEnum phrases {"enum": [...]} as "a or b"; "" for any other schema.
func notEnum(not *jsonobj.Object) string {
	if not == nil || len(not.Keys) != 1 {
		return ""
	}
	enum, ok := not.Vals["enum"].([]any)
	if !ok {
		return ""
	}
	vals := make([]string, len(enum))
	for i, v := range enum {
		vals[i] = jsonText(v)
	}
	return strings.Join(vals, " or ")
}

// nullable lets an optional property be null.
func nullable(p *jsonobj.Object) {
	switch t := p.Vals["type"].(type) {
	case string:
		p.Set("type", []any{t, "null"})
	case []any:
		if !slices.Contains(t, any("null")) {
			p.Set("type", append(t, "null"))
		}
	default:
		null := jsonobj.New()
		null.Set("type", "null")
		if anyOf, ok := p.Vals["anyOf"].([]any); ok {
			p.Set("anyOf", append(anyOf, null))
			break
		}
		// A $ref or const-only schema: wrap it, keeping the description
		// outside where the model reads it.
		inner := jsonobj.New()
		for _, k := range p.Keys {
			if k != "description" {
				inner.Set(k, p.Vals[k])
			}
		}
		desc, hasDesc := p.Get("description")
		*p = *jsonobj.New()
		p.Set("anyOf", []any{inner, null})
		if hasDesc {
			p.Set("description", desc)
		}
		return
	}
	if enum, ok := p.Vals["enum"].([]any); ok && !slices.Contains(enum, nil) {
		p.Set("enum", append(enum, nil))
	}
	if c, ok := p.Get("const"); ok {
		p.Del("const")
		p.Set("enum", []any{c, nil})
	}
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	return string(b)
}
