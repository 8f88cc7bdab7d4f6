package generator

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"

	"github.com/forgetools/forgetools/runtime/schema"
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
// came from and marshals to the bytes the generator computed.
func schemaCode(s *schema.Schema) jen.Code {
	if s.IsFalse() {
		return jen.Qual(schemaPkg, "False")
	}
	return jen.Op("&").Qual(schemaPkg, "Schema").Add(schemaValues(s))
}

// schemaValues is the braces of s's composite literal: every keyword that
// is set, walking schema.Schema's fields in order, so a keyword the type
// gains is written without a change here. A list of schemas writes its
// elements without the type (as gofmt -s would).
func schemaValues(s *schema.Schema) *jen.Statement {
	v := reflect.ValueOf(s).Elem()
	var kw []jen.Code
	for i := range v.NumField() {
		f, fv := v.Type().Field(i), v.Field(i)
		switch {
		case fv.IsZero():
		case !f.IsExported():
			// False and the keyword order a rewrite adds have no Go
			// spelling but the variable False; the generator makes neither
			// inside a composite literal.
			panic(fmt.Sprintf("schema: unexported %s set in a generated schema", f.Name))
		case f.Type.Kind() == reflect.Interface:
			kw = append(kw, field(f.Name, valueCode(fv.Interface())))
		default:
			kw = append(kw, field(f.Name, keywordCode(f.Name, fv.Interface())))
		}
	}
	if len(kw) <= 1 {
		return jen.Values(kw...)
	}
	return lines(kw...)
}

// keywordCode is the value of one keyword field of schema.Schema.
func keywordCode(name string, v any) jen.Code {
	switch v := v.(type) {
	case string:
		if name == "Pattern" {
			return rawLit(v)
		}
		return jen.Lit(v)
	case bool:
		return jen.Lit(v)
	case json.Number:
		return jen.Lit(string(v))
	case *uint64:
		return jen.Qual(schemaPkg, "Uint").Call(jen.Lit(int(*v)))
	case []any:
		return valuesCode(v)
	case []string:
		return stringList(v)
	case schema.Types:
		types := make([]jen.Code, len(v))
		for i, t := range v {
			types[i] = jen.Lit(t)
		}
		return jen.Qual(schemaPkg, "Types").Values(types...)
	case *schema.Schema:
		return schemaCode(v)
	case []*schema.Schema:
		items := make([]jen.Code, len(v))
		for i, sub := range v {
			items[i] = schemaValues(sub)
		}
		return jen.Index().Op("*").Qual(schemaPkg, "Schema").Add(lines(items...))
	case schema.Properties:
		props := make([]jen.Code, len(v))
		for i, p := range v {
			props[i] = jen.Values(field("Name", jen.Lit(p.Name)), field("Schema", schemaCode(p.Schema)))
		}
		return jen.Qual(schemaPkg, "Properties").Add(lines(props...))
	}
	panic(fmt.Sprintf("schema: keyword %s of type %T has no Go spelling here", name, v))
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
