package generator

import (
	"github.com/dave/jennifer/jen"
	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
)

// decoder emits the strict argument decoder of a tool: one typed
// runtime/args call per parameter, then the selector.
func (e *emitter) decoder(ts *toolset, t *tool) {
	names := paramNames(t.obj)
	if ts.selector != nil {
		names = append(names, paramNames(ts.selector.obj)...)
	}
	fail := jen.Return(jen.Qual(runtimePkg, "Args").Values(), jen.Err())
	body := []jen.Code{
		jen.List(jen.Id("o"), jen.Err()).Op(":=").Qual(argsPkg, "Parse").Call(append([]jen.Code{jen.Id("data")}, names...)...),
		jen.If(jen.Err().Op("!=").Nil()).Block(fail),
		jen.Id("req").Op(":=").Op("&").Add(e.ident(t.obj.msg.GoIdent)).Add(e.fields(t.obj)),
	}
	body = append(body, e.oneofs(t.obj, jen.Id("req"))...)
	result := []jen.Code{field("Request", jen.Id("req"))}
	if ts.selector != nil {
		body = append(body, jen.Id("selector").Op(":=").Id(selectorDecodeFunc(ts.name)).Call(jen.Id("o")))
		result = append(result, field("Forge", jen.Id("selector")))
	}
	body = append(body,
		jen.If(jen.Err().Op(":=").Id("o").Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(fail),
		jen.Return(jen.Qual(runtimePkg, "Args").Values(result...), jen.Nil()),
	)
	e.doc(decodeFunc(t.name) + " decodes the arguments of " + t.name + ".")
	e.f.Func().Id(decodeFunc(t.name)).Params(jen.Id("data").Index().Byte()).Params(jen.Qual(runtimePkg, "Args"), jen.Error()).Block(body...)
}

// paramNames are the names the model may use in obj: every parameter the
// tool shows.
func paramNames(obj *object) []jen.Code {
	var out []jen.Code
	for _, p := range obj.params {
		if !p.hidden {
			out = append(out, jen.Lit(p.name))
		}
	}
	return out
}

// fields is the composite literal that decodes obj's parameters from o,
// but for the members of real oneofs (see oneofs).
func (e *emitter) fields(obj *object) *jen.Statement {
	var items []jen.Code
	for _, p := range obj.params {
		if !p.hidden && p.oneof == nil {
			items = append(items, field(p.field.GoName, e.decodeParam(p, nil)))
		}
	}
	return lines(items...)
}

// oneofs sets each real oneof of obj (built in recv) from the one member
// the model gave; args.OneOf refuses two at once.
func (e *emitter) oneofs(obj *object, recv *jen.Statement) []jen.Code {
	var out []jen.Code
	for _, oneof := range obj.msg.Oneofs {
		if oneof.Desc.IsSynthetic() {
			continue
		}
		var names, cases []jen.Code
		for _, p := range obj.params {
			if p.oneof != oneof || p.hidden {
				continue
			}
			names = append(names, jen.Lit(p.name))
			required := jen.Qual(argsPkg, "Required")
			cases = append(cases, jen.Case(jen.Lit(p.name)).Block(
				recv.Clone().Dot(oneof.GoName).Op("=").Op("&").Add(e.ident(p.field.GoIdent)).Values(
					field(p.field.GoName, e.decodeParam(p, required)))))
		}
		if len(cases) == 0 {
			continue
		}
		out = append(out, jen.Switch(jen.Qual(argsPkg, "OneOf").Call(append([]jen.Code{jen.Id("o")}, names...)...)).Block(cases...))
	}
	return out
}

// scalarFuncs are the runtime/args decoders by proto kind, singular form.
var scalarFuncs = map[protoreflect.Kind]string{
	protoreflect.StringKind:   "String",
	protoreflect.BoolKind:     "Bool",
	protoreflect.BytesKind:    "Bytes",
	protoreflect.Int32Kind:    "Int32",
	protoreflect.Sint32Kind:   "Int32",
	protoreflect.Sfixed32Kind: "Int32",
	protoreflect.Int64Kind:    "Int64",
	protoreflect.Sint64Kind:   "Int64",
	protoreflect.Sfixed64Kind: "Int64",
	protoreflect.Uint32Kind:   "Uint32",
	protoreflect.Fixed32Kind:  "Uint32",
	protoreflect.Uint64Kind:   "Uint64",
	protoreflect.Fixed64Kind:  "Uint64",
	protoreflect.FloatKind:    "Float32",
	protoreflect.DoubleKind:   "Float64",
}

// plurals are the list forms of the runtime/args decoders that do not
// just add an s.
var plurals = map[string]string{"Bytes": "BytesList"}

// wrappers are the wrapperspb constructors by wrapped kind.
var wrappers = map[protoreflect.Kind]string{
	protoreflect.DoubleKind: "Double", protoreflect.FloatKind: "Float",
	protoreflect.Int64Kind: "Int64", protoreflect.Uint64Kind: "UInt64",
	protoreflect.Int32Kind: "Int32", protoreflect.Uint32Kind: "UInt32",
	protoreflect.BoolKind: "Bool", protoreflect.StringKind: "String", protoreflect.BytesKind: "Bytes",
}

const wrapperspbPkg = "google.golang.org/protobuf/types/known/wrapperspb"

// decodeParam is the runtime/args call that decodes p; presence overrides
// p's own (a oneof member, once given, is required to decode).
func (e *emitter) decodeParam(p *param, presence jen.Code) jen.Code {
	o, name := jen.Id("o"), jen.Lit(p.name)
	if presence == nil {
		presence = jen.Qual(argsPkg, "Optional")
		if p.required {
			presence = jen.Qual(argsPkg, "Required")
		}
	}
	list := p.field.Desc.IsList()
	plural := func(s string) string {
		switch {
		case !list:
			return s
		case plurals[s] != "":
			return plurals[s]
		}
		return s + "s"
	}
	switch {
	case p.field.Desc.IsMap():
		key := jen.Qual(argsPkg, keyFuncs[p.key.field.Desc.Kind()])
		return jen.Qual(argsPkg, "Map").Call(o, name, presence, key, e.valueFunc(p.val))
	case p.obj != nil:
		e.queueDecoder(p.obj)
		args := []jen.Code{o, name, presence, jen.Id(e.messageFunc(p.obj, messageDecodeFunc))}
		return jen.Qual(argsPkg, plural("Message")).Call(append(args, paramNames(p.obj)...)...)
	case p.wkt == wkTimestamp:
		return jen.Qual(argsPkg, plural("Timestamp")).Call(o, name, presence)
	case p.wkt == wkDuration:
		return jen.Qual(argsPkg, plural("Duration")).Call(o, name, presence)
	case p.wkt == wkWrapper:
		k := p.valueKind()
		return jen.Qual(argsPkg, "Wrapper").Call(o, name, jen.Qual(argsPkg, scalarFuncs[k]), jen.Qual(wrapperspbPkg, wrappers[k]))
	case p.enum != nil:
		e.queueEnum(p.field.Enum)
		table := jen.Id(e.enumVar(p.field.Enum))
		if isOptionalScalar(p.field) {
			return jen.Qual(argsPkg, "EnumPtr").Call(o, name, table)
		}
		return jen.Qual(argsPkg, plural("Enum")).Call(o, name, presence, table)
	case isOptionalScalar(p.field):
		return jen.Qual(argsPkg, "Ptr").Call(o, name, jen.Qual(argsPkg, scalarFuncs[p.field.Desc.Kind()]))
	}
	return jen.Qual(argsPkg, plural(scalarFuncs[p.field.Desc.Kind()])).Call(o, name, presence)
}

// valueFunc reads one map value (of the entry's value field v), for
// args.Map.
func (e *emitter) valueFunc(v *param) jen.Code {
	switch {
	case v.obj != nil:
		e.queueDecoder(v.obj)
		return jen.Qual(argsPkg, "MessageValue").Call(append([]jen.Code{jen.Id(e.messageFunc(v.obj, messageDecodeFunc))}, paramNames(v.obj)...)...)
	case v.enum != nil:
		e.queueEnum(v.field.Enum)
		return jen.Qual(argsPkg, "EnumValue").Call(jen.Id(e.enumVar(v.field.Enum)))
	case v.wkt == wkTimestamp:
		return jen.Qual(argsPkg, "Timestamp")
	case v.wkt == wkDuration:
		return jen.Qual(argsPkg, "Duration")
	}
	return jen.Qual(argsPkg, scalarFuncs[v.field.Desc.Kind()])
}

// keyFuncs are the runtime/args map key parsers by key kind.
var keyFuncs = map[protoreflect.Kind]string{
	protoreflect.StringKind: "StringKey", protoreflect.BoolKind: "BoolKey",
	protoreflect.Int32Kind: "Int32Key", protoreflect.Sint32Kind: "Int32Key", protoreflect.Sfixed32Kind: "Int32Key",
	protoreflect.Int64Kind: "Int64Key", protoreflect.Sint64Kind: "Int64Key", protoreflect.Sfixed64Kind: "Int64Key",
	protoreflect.Uint32Kind: "Uint32Key", protoreflect.Fixed32Kind: "Uint32Key",
	protoreflect.Uint64Kind: "Uint64Key", protoreflect.Fixed64Kind: "Uint64Key",
}

func (e *emitter) queueDecoder(obj *object) {
	key := "decode " + string(obj.msg.Desc.FullName())
	if !e.h.queued[key] {
		e.h.queued[key] = true
		e.h.decoders = append(e.h.decoders, obj)
	}
}

func (e *emitter) messageDecoder(obj *object) {
	name := e.messageFunc(obj, messageDecodeFunc)
	lit := jen.Op("&").Add(e.ident(obj.msg.GoIdent)).Add(e.fields(obj))
	body := []jen.Code{jen.Return(lit)}
	if oneofs := e.oneofs(obj, jen.Id("m")); len(oneofs) > 0 {
		body = append(append([]jen.Code{jen.Id("m").Op(":=").Add(lit)}, oneofs...), jen.Return(jen.Id("m")))
	}
	e.doc(name + " decodes one " + string(obj.msg.Desc.Name()) + " object.")
	e.f.Func().Id(name).Params(jen.Id("o").Op("*").Qual(argsPkg, "Object")).Op("*").Add(e.ident(obj.msg.GoIdent)).Block(body...)
}

// modelName is the spelling the model uses for an enum value; "" when the
// value is not offered.
func modelName(v *protogen.EnumValue) string {
	opts, _ := proto.GetExtension(v.Desc.Options(), optionsv1.E_Value).(*optionsv1.EnumValueOptions)
	return opts.GetName()
}
