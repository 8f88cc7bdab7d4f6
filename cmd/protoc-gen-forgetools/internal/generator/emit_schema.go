package generator

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
)

// schemaPkg holds the typed schema the tools' InputSchema values are
// written in: the runtime narrows, groups and exports them as values.
const schemaPkg = "github.com/forgetools/forgetools/runtime/schema"

// schemaFunc names the function that returns a tool's input schema.
func schemaFunc(tool string) string { return "schema" + camel(tool) }

// schema writes the function that returns t's input schema: a new value on
// every call, so a caller may rewrite it, and none held between calls (the
// values are pointer-rich; a process that never lists its tools never
// carries them through every garbage collection).
func (e *emitter) schema(t *tool) {
	e.doc(schemaFunc(t.name) + " is the input schema of " + t.name + ".")
	e.f.Func().Id(schemaFunc(t.name)).Params().Op("*").Qual(schemaPkg, "Schema").Block(jen.Return(schemaCode(t.schema)))
}

// schemaCode is s as a Go value of schema.Schema, one keyword per line in
// the order they are marshalled, so the value reads like the proto it
// came from and marshals to the bytes the generator's own schema does.
func schemaCode(s *schema) jen.Code {
	return jen.Op("&").Qual(schemaPkg, "Schema").Add(schemaValues(s))
}

// schemaValues is the braces of s's composite literal, which a list of
// schemas writes without the type (as gofmt -s would).
func schemaValues(s *schema) *jen.Statement {
	var kw []jen.Code
	add := func(name string, v jen.Code) { kw = append(kw, field(name, v)) }
	if len(s.Type) > 0 {
		types := make([]jen.Code, len(s.Type))
		for i, t := range s.Type {
			types[i] = jen.Lit(t)
		}
		add("Type", jen.Qual(schemaPkg, "Types").Values(types...))
	}
	if s.Description != "" {
		add("Description", jen.Lit(s.Description))
	}
	if s.Deprecated {
		add("Deprecated", jen.True())
	}
	if s.Enum != nil {
		add("Enum", valuesCode(s.Enum))
	}
	if s.Const != nil {
		add("Const", valueCode(s.Const))
	}
	if s.Not != nil {
		add("Not", schemaCode(s.Not))
	}
	if s.Format != "" {
		add("Format", jen.Lit(s.Format))
	}
	if s.ContentEncoding != "" {
		add("ContentEncoding", jen.Lit(s.ContentEncoding))
	}
	uintField(add, "MinLength", s.MinLength)
	uintField(add, "MaxLength", s.MaxLength)
	if s.Pattern != "" {
		add("Pattern", rawLit(s.Pattern))
	}
	for _, n := range []struct {
		name string
		v    json.Number
	}{{"Minimum", s.Minimum}, {"ExclusiveMinimum", s.ExclusiveMinimum}, {"Maximum", s.Maximum}, {"ExclusiveMaximum", s.ExclusiveMaximum}} {
		if n.v != "" {
			add(n.name, jen.Lit(string(n.v)))
		}
	}
	uintField(add, "MinItems", s.MinItems)
	uintField(add, "MaxItems", s.MaxItems)
	if s.UniqueItems {
		add("UniqueItems", jen.True())
	}
	if s.Items != nil {
		add("Items", schemaCode(s.Items))
	}
	uintField(add, "MinProperties", s.MinProperties)
	uintField(add, "MaxProperties", s.MaxProperties)
	if s.PropertyNames != nil {
		add("PropertyNames", schemaCode(s.PropertyNames))
	}
	if s.Properties != nil {
		props := make([]jen.Code, len(s.Properties.names))
		for i, name := range s.Properties.names {
			props[i] = jen.Values(field("Name", jen.Lit(name)), field("Schema", schemaCode(s.Properties.schemas[i])))
		}
		add("Properties", jen.Qual(schemaPkg, "Properties").Add(lines(props...)))
	}
	if s.Required != nil {
		add("Required", stringList(s.Required))
	}
	switch a := s.AdditionalProperties.(type) {
	case nil:
	case bool:
		if a {
			panic("additionalProperties: true is never emitted")
		}
		add("AdditionalProperties", jen.Qual(schemaPkg, "False"))
	case *schema:
		add("AdditionalProperties", schemaCode(a))
	default:
		panic(fmt.Sprintf("additionalProperties: %T", a))
	}
	for _, l := range []struct {
		name string
		list []*schema
	}{{"AllOf", s.AllOf}, {"AnyOf", s.AnyOf}, {"OneOf", s.OneOf}} {
		if l.list != nil {
			items := make([]jen.Code, len(l.list))
			for i, sub := range l.list {
				items[i] = schemaValues(sub)
			}
			add(l.name, jen.Index().Op("*").Qual(schemaPkg, "Schema").Add(lines(items...)))
		}
	}
	if s.Examples != nil {
		add("Examples", valuesCode(s.Examples))
	}
	if len(kw) <= 1 {
		return jen.Values(kw...)
	}
	return lines(kw...)
}

func uintField(add func(string, jen.Code), name string, v *uint64) {
	if v != nil {
		add(name, jen.Qual(schemaPkg, "Uint").Call(jen.Lit(int(*v))))
	}
}

// valuesCode is an enum's or the examples' values, on one line.
func valuesCode(vals []any) jen.Code {
	items := make([]jen.Code, len(vals))
	for i, v := range vals {
		items[i] = valueCode(v)
	}
	return jen.Index().Any().Values(items...)
}

// valueCode is one JSON scalar: a number keeps its spelling (json.Number),
// never going through float64.
func valueCode(v any) jen.Code {
	switch v := v.(type) {
	case nil:
		return jen.Nil()
	case json.Number:
		return jen.Qual("encoding/json", "Number").Call(jen.Lit(string(v)))
	case string, bool:
		return jen.Lit(v)
	}
	panic(fmt.Sprintf("schema value of type %T", v))
}

// rawLit is a pattern as a raw string literal when it can be one, so its
// backslashes read as the regular expression's own.
func rawLit(p string) jen.Code {
	if strings.ContainsAny(p, "`\r\n") || !utf8.ValidString(p) {
		return jen.Lit(p)
	}
	return jen.Id("`" + p + "`")
}
