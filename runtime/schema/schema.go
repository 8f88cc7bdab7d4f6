// Package schema is the typed JSON Schema (draft 2020-12) of a tool's
// arguments: the generator writes each tool's schema as a Schema value, and
// the runtime narrows, groups and exports it as a value, never as text.
//
// The fields are the keywords the generator and the runtime use, in the
// order they are marshalled: what a value is, then what it means, then its
// bounds. Property order is kept (Properties is a list): it is the order a
// model fills the parameters in. Nothing is HTML-escaped, so a pattern
// keeps its < and &.
package schema

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
)

// Schema is one JSON Schema. The zero value is the schema {}.
type Schema struct {
	Type             Types       `json:"type,omitempty"`
	Description      string      `json:"description,omitempty"`
	Deprecated       bool        `json:"deprecated,omitempty"`
	Enum             []any       `json:"enum,omitempty"`
	Const            any         `json:"const,omitempty"`
	Not              *Schema     `json:"not,omitempty"`
	Format           string      `json:"format,omitempty"`
	ContentEncoding  string      `json:"contentEncoding,omitempty"`
	MinLength        *uint64     `json:"minLength,omitempty"`
	MaxLength        *uint64     `json:"maxLength,omitempty"`
	Pattern          string      `json:"pattern,omitempty"`
	Minimum          json.Number `json:"minimum,omitempty"`
	ExclusiveMinimum json.Number `json:"exclusiveMinimum,omitempty"`
	Maximum          json.Number `json:"maximum,omitempty"`
	ExclusiveMaximum json.Number `json:"exclusiveMaximum,omitempty"`
	MinItems         *uint64     `json:"minItems,omitempty"`
	MaxItems         *uint64     `json:"maxItems,omitempty"`
	UniqueItems      bool        `json:"uniqueItems,omitempty"`
	Items            *Schema     `json:"items,omitempty"`
	MinProperties    *uint64     `json:"minProperties,omitempty"`
	MaxProperties    *uint64     `json:"maxProperties,omitempty"`
	PropertyNames    *Schema     `json:"propertyNames,omitempty"`
	Properties       Properties  `json:"properties,omitzero"`
	Required         []string    `json:"required,omitzero"`
	// AdditionalProperties is False for a closed object, or the values'
	// schema for a map.
	AdditionalProperties *Schema   `json:"additionalProperties,omitempty"`
	AllOf                []*Schema `json:"allOf,omitempty"`
	AnyOf                []*Schema `json:"anyOf,omitempty"`
	OneOf                []*Schema `json:"oneOf,omitempty"`
	Examples             []any     `json:"examples,omitempty"`
	// Default is set by the runtime only (a narrowed selector's default
	// provider), after every keyword the generator writes.
	Default any `json:"default,omitempty"`

	// boolean marks the schema false (see False).
	boolean bool
	// last are keywords a rewrite added (see AddedLast), marshalled after
	// the others in the order they were added.
	last []string
}

// AddedLast marks keyword (its JSON name) as added by a rewrite: it is
// marshalled after every keyword the schema had, as a rewrite of the JSON
// text would have appended it, so a narrowed or strict schema keeps the
// generated schema's bytes up to the keywords it added.
func (s *Schema) AddedLast(keyword string) {
	if !slices.Contains(s.last, keyword) {
		s.last = append(s.last, keyword)
	}
}

// False is the schema false, which nothing matches: the value of a closed
// object's AdditionalProperties. Never change it through the pointer.
var False = &Schema{boolean: true}

// IsFalse reports whether s is the schema false.
func (s *Schema) IsFalse() bool { return s != nil && s.boolean }

// Types is a schema's type: one name, marshalled as a string, or several
// (["integer", "null"]).
type Types []string

// MarshalJSON writes one name as a string and several as a list.
func (t Types) MarshalJSON() ([]byte, error) {
	if len(t) == 1 {
		return json.Marshal(t[0])
	}
	return json.Marshal([]string(t))
}

// Is reports whether the type is exactly the one name.
func (t Types) Is(name string) bool { return len(t) == 1 && t[0] == name }

// Property is one named parameter of an object schema.
type Property struct {
	Name   string
	Schema *Schema
}

// Properties are an object's parameters in order. A non-nil empty list is
// marshalled as {}: an object schema with no parameters still says so.
type Properties []Property

// Get is the named property's schema; nil when there is none.
func (p Properties) Get(name string) *Schema {
	for _, prop := range p {
		if prop.Name == name {
			return prop.Schema
		}
	}
	return nil
}

// Names are the property names in order.
func (p Properties) Names() []string {
	out := make([]string, len(p))
	for i, prop := range p {
		out[i] = prop.Name
	}
	return out
}

// MarshalJSON writes the properties as one object, in order.
func (p Properties) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, prop := range p {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := marshal(prop.Name)
		if err != nil {
			return nil, err
		}
		v, err := marshal(prop.Schema)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// MarshalJSON writes the keywords that are set, in field order, then the
// ones a rewrite added (AddedLast).
func (s *Schema) MarshalJSON() ([]byte, error) {
	if s.boolean {
		return []byte("false"), nil
	}
	v, t := reflect.ValueOf(s).Elem(), reflect.TypeFor[Schema]()
	var keys []string
	vals := map[string]reflect.Value{}
	for i := range t.NumField() {
		name, opt, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		fv := v.Field(i)
		if !t.Field(i).IsExported() || fv.IsZero() || opt == "omitempty" && fv.Kind() == reflect.Slice && fv.Len() == 0 {
			continue
		}
		keys = append(keys, name)
		vals[name] = fv
	}
	for _, k := range s.last {
		if i := slices.Index(keys, k); i >= 0 {
			keys = append(slices.Delete(keys, i, i+1), k)
		}
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		val, err := marshal(vals[k].Interface())
		if err != nil {
			return nil, err
		}
		b.WriteString(`"` + k + `":`)
		b.Write(val)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// JSON is s marshalled compactly, not HTML-escaped: the bytes the model
// reads. It panics only on a value no schema holds (a channel in Enum).
func (s *Schema) JSON() []byte {
	b, err := marshal(s)
	if err != nil {
		panic("schema: " + err.Error())
	}
	return b
}

// String is s as JSON text (see JSON).
func (s *Schema) String() string { return string(s.JSON()) }

// marshal is json.Marshal without HTML escaping.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Uint is a pointer to n, for the size bounds (MinLength: schema.Uint(1)).
func Uint(n uint64) *uint64 { return &n }
