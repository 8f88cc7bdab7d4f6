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

func paramNames(obj *object) []jen.Code {
	out := make([]jen.Code, len(obj.params))
	for i, p := range obj.params {
		out[i] = jen.Lit(p.name)
	}
	return out
}

// fields is the composite literal that decodes obj's parameters from o.
func (e *emitter) fields(obj *object) *jen.Statement {
	items := make([]jen.Code, len(obj.params))
	for i, p := range obj.params {
		items[i] = field(p.field.GoName, e.decodeParam(p))
	}
	return lines(items...)
}

// scalarFuncs are the runtime/args decoders by proto kind, singular form.
var scalarFuncs = map[protoreflect.Kind]string{
	protoreflect.StringKind:   "String",
	protoreflect.BoolKind:     "Bool",
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

func (e *emitter) decodeParam(p *param) jen.Code {
	o, name := jen.Id("o"), jen.Lit(p.name)
	presence := jen.Qual(argsPkg, "Optional")
	if p.required {
		presence = jen.Qual(argsPkg, "Required")
	}
	list := p.field.Desc.IsList()
	plural := func(s string) string {
		if list {
			return s + "s"
		}
		return s
	}
	switch {
	case p.obj != nil:
		e.queueDecoder(p.obj)
		args := []jen.Code{o, name, presence, jen.Id(e.messageFunc(p.obj, messageDecodeFunc))}
		return jen.Qual(argsPkg, plural("Message")).Call(append(args, paramNames(p.obj)...)...)
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

func (e *emitter) queueDecoder(obj *object) {
	key := "decode " + string(obj.msg.Desc.FullName())
	if !e.h.queued[key] {
		e.h.queued[key] = true
		e.h.decoders = append(e.h.decoders, obj)
	}
}

func (e *emitter) messageDecoder(obj *object) {
	name := e.messageFunc(obj, messageDecodeFunc)
	e.doc(name + " decodes one " + string(obj.msg.Desc.Name()) + " object.")
	e.f.Func().Id(name).Params(jen.Id("o").Op("*").Qual(argsPkg, "Object")).Op("*").Add(e.ident(obj.msg.GoIdent)).Block(
		jen.Return(jen.Op("&").Add(e.ident(obj.msg.GoIdent)).Add(e.fields(obj))),
	)
}

// modelName is the spelling the model uses for an enum value; "" when the
// value is not offered.
func modelName(v *protogen.EnumValue) string {
	opts, _ := proto.GetExtension(v.Desc.Options(), optionsv1.E_Value).(*optionsv1.EnumValueOptions)
	return opts.GetName()
}
