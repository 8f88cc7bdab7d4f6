package generator

import (
	"github.com/dave/jennifer/jen"
	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/reflect/protoreflect"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
)

// The server side: <pkg>handler, per toolset a handler interface per
// capability, the unimplemented handler and a toolserver.Table. It imports
// the toolserver package and the messages, never the agent runtime.

func emitHandler(plugin *protogen.Plugin, file *protogen.File, out pkg, toolsets []*toolset, h *helpers) *jen.File {
	e := newEmitter(plugin, file, out, toolserverPkg, "toolserver", h)
	e.f.ImportAlias(optionsPkg, "optionsv1")
	for _, ts := range toolsets {
		e.interfaces(ts)
		e.unimplemented(ts)
		e.serverTable(ts)
		for _, t := range ts.tools {
			e.arm(ts, t)
		}
		e.wrappers(ts)
		e.split(ts)
		e.errorResult(ts)
	}
	return e.f
}

// capabilities groups a toolset's tools by capability, in the order the
// capabilities first appear.
func capabilities(ts *toolset) ([]string, map[string][]*tool) {
	var order []string
	by := map[string][]*tool{}
	for _, t := range ts.tools {
		if _, ok := by[t.capability]; !ok {
			order = append(order, t.capability)
		}
		by[t.capability] = append(by[t.capability], t)
	}
	return order, by
}

// method is the signature of a tool's handler method, without its name.
func (e *emitter) method(t *tool) *jen.Statement {
	return jen.Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id("c").Qual(toolserverPkg, "Call"),
		jen.Id("req").Op("*").Add(e.ident(t.arm.Message.GoIdent)),
	).Params(jen.Op("*").Add(e.ident(t.resultArm.Message.GoIdent)), jen.Error())
}

func (e *emitter) interfaces(ts *toolset) {
	order, by := capabilities(ts)
	embedded := make([]jen.Code, len(order))
	for i, c := range order {
		embedded[i] = jen.Id(capabilityIface(ts.name, c))
	}
	e.doc(handlerIface(ts.name) + " serves every arm of the " + quoted(ts.name) + " table (" +
		string(ts.dispatch.Desc.Name()) + "." + string(ts.oneof.Desc.Name()) + "). A provider embeds " +
		unimplementedType(ts.name) + " and implements the methods of the capabilities its forge serves; the gateway answers the rest with an in-band unimplemented.")
	e.f.Type().Id(handlerIface(ts.name)).Interface(embedded...)

	for _, c := range order {
		var methods []jen.Code
		for _, t := range by[c] {
			for _, line := range append(wrap(t.arm.GoName+" serves "+t.name+": "+t.opts.GetDescription(), 73), protoComment(t.arm)...) {
				methods = append(methods, jen.Comment(line))
			}
			methods = append(methods, jen.Id(t.arm.GoName).Add(e.method(t)))
		}
		e.doc(capabilityIface(ts.name, c) + " is the " + quoted(c) + " capability: a provider implementing all of it serves these arms.")
		e.f.Type().Id(capabilityIface(ts.name, c)).Interface(methods...)
	}
}

func (e *emitter) unimplemented(ts *toolset) {
	name := unimplementedType(ts.name)
	e.doc(name + " answers every arm with toolserver.Unimplemented, which the gateway words for the model (in the provider's own terms when it is a toolserver.Explainer). Embed it so that arms added to the table later need no code.")
	e.f.Type().Id(name).Struct()
	e.f.Var().Id("_").Id(handlerIface(ts.name)).Op("=").Id(name).Values()
	for _, t := range ts.tools {
		e.f.Line()
		e.f.Func().Params(jen.Id(name)).Id(t.arm.GoName).Add(jen.Params(
			jen.Qual("context", "Context"), jen.Qual(toolserverPkg, "Call"), jen.Op("*").Add(e.ident(t.arm.Message.GoIdent)),
		)).Params(jen.Op("*").Add(e.ident(t.resultArm.Message.GoIdent)), jen.Error()).Block(
			jen.Return(jen.Nil(), jen.Qual(toolserverPkg, "Unimplemented").Call(jen.Lit(t.capability), jen.Lit(string(t.arm.Desc.Name())))),
		)
	}
}

func (e *emitter) serverTable(ts *toolset) {
	arms := make([]jen.Code, len(ts.tools))
	for i, t := range ts.tools {
		arms[i] = jen.Id(armVar(t.name))
	}
	newMsg := func(m *protogen.Message) jen.Code {
		return jen.Func().Params().Qual(protoPkg, "Message").Block(jen.Return(jen.Op("&").Add(e.ident(m.GoIdent)).Values()))
	}
	items := []jen.Code{field("Name", jen.Lit(ts.name))}
	if ts.procedure != "" {
		items = append(items, field("Procedure", jen.Lit(ts.procedure)))
	}
	items = append(items,
		field("NewRequest", newMsg(ts.dispatch)),
		field("NewResult", newMsg(ts.result.Parent)),
		field("Arms", jen.Index().Op("*").Qual(toolserverPkg, "Arm").Add(lines(arms...))),
		field("Split", jen.Id(splitFunc(ts.name))),
		field("Error", jen.Id(errorFunc(ts.name))),
	)
	e.doc(serverTableVar(ts.name) + " is the server side of the " + quoted(ts.name) + " table: the gateway dispatches " +
		string(ts.dispatch.Desc.Name()) + " through it to a provider's " + handlerIface(ts.name) + " methods.")
	e.f.Var().Id(serverTableVar(ts.name)).Op("=").Op("&").Qual(toolserverPkg, "Table").Add(lines(items...))
}

func (e *emitter) arm(ts *toolset, t *tool) {
	items := []jen.Code{
		field("Name", jen.Lit(string(t.arm.Desc.Name()))),
		field("Tool", jen.Lit(t.name)),
		field("Capability", jen.Lit(t.capability)),
		field("Result", jen.Lit(string(t.resultArm.Desc.Name()))),
	}
	if t.opts.GetIdempotencyKey() {
		items = append(items, field("IdempotencyKey", jen.True()))
	}
	if t.opts.GetOwnsResult() {
		items = append(items, field("OwnsResult", jen.True()))
	}
	items = append(items, field("Approval", jen.Qual(toolserverPkg, approvalNames[t.opts.GetApproval()])))
	if c := t.opts.GetActionClass(); c != "" {
		items = append(items, field("ActionClass", jen.Lit(c)))
	}
	if r := t.opts.GetRisk(); r != optionsv1.Risk_RISK_UNSPECIFIED {
		items = append(items, field("Risk", jen.Qual(toolserverPkg, riskNames[r])))
	}
	if t.scope != nil {
		scope := "ScopeRepository"
		if t.scope.scope == optionsv1.Scope_SCOPE_SUBSCRIPTION {
			scope = "ScopeSubscription"
		}
		items = append(items, field("Scope", jen.Qual(toolserverPkg, scope)), field("ScopeKey", jen.Id(scopeFunc(t.name))))
	}
	if t.unnamed == optionsv1.Scope_SCOPE_OWN_STATE {
		name := "Scope"
		if t.scope != nil {
			name = "ScopeWhenEmpty"
		}
		items = append(items, field(name, jen.Qual(toolserverPkg, "ScopeOwnState")))
	}
	if t.unnamed == optionsv1.Scope_SCOPE_ACCOUNT_REPOSITORIES {
		items = append(items, field("ScopeWhenEmpty", jen.Qual(toolserverPkg, "ScopeAccountRepositories")))
	}
	texts := hasText(t.obj, serverTexts)
	if texts {
		items = append(items, field("Texts", jen.Id(textsFunc(t.name))))
	}
	var checked []*textSide
	for _, side := range checkedSides {
		if hasText(t.obj, side) {
			checked = append(checked, side)
			items = append(items, field(side.armField, jen.Id(side.funcName(t.name))))
		}
	}
	items = append(items,
		field("Serve", jen.Id(serveFunc(t.name))),
		field("Wrap", jen.Id(wrapFunc(ts.name, string(t.resultArm.Desc.Name())))),
	)
	e.armDoc(armVar(t.name)+" is the "+string(t.arm.Desc.Name())+" arm ("+t.name+").", t.arm)
	e.f.Var().Id(armVar(t.name)).Op("=").Op("&").Qual(toolserverPkg, "Arm").Add(lines(items...))

	iface := capabilityIface(ts.name, t.capability)
	e.doc(serveFunc(t.name) + " calls " + t.arm.GoName + " on a provider serving the " + quoted(t.capability) + " capability.")
	e.f.Func().Id(serveFunc(t.name)).Params(
		jen.Id("ctx").Qual("context", "Context"), jen.Id("h").Any(), jen.Id("c").Qual(toolserverPkg, "Call"), jen.Id("req").Qual(protoPkg, "Message"),
	).Params(jen.Qual(protoPkg, "Message"), jen.Error()).Block(
		jen.List(jen.Id("s"), jen.Id("ok")).Op(":=").Id("h").Assert(jen.Id(iface)),
		jen.If(jen.Op("!").Id("ok")).Block(
			jen.Return(jen.Nil(), jen.Qual(toolserverPkg, "Unimplemented").Call(jen.Lit(t.capability), jen.Lit(string(t.arm.Desc.Name())))),
		),
		jen.Return(jen.Qual(toolserverPkg, "Result").Call(
			jen.Id("s").Dot(t.arm.GoName).Call(jen.Id("ctx"), jen.Id("c"), jen.Id("req").Assert(jen.Op("*").Add(e.ident(t.arm.Message.GoIdent)))))),
	)
	if t.scope != nil {
		e.doc(scopeFunc(t.name) + " returns the " + string(t.scope.field.Desc.Name()) + " the gateway scopes " + t.name + " by.")
		e.f.Func().Id(scopeFunc(t.name)).Params(jen.Id("m").Qual(protoPkg, "Message")).String().Block(
			jen.Return(jen.Id("m").Assert(jen.Op("*").Add(e.ident(t.arm.Message.GoIdent))).Dot("Get" + t.scope.field.GoName).Call()),
		)
	}
	if texts {
		e.texts(t, serverTexts)
	}
	for _, side := range checked {
		e.texts(t, side)
	}
}

// wrappers emits one function per result arm the tools answer with.
func (e *emitter) wrappers(ts *toolset) {
	done := map[*protogen.Field]bool{}
	for _, t := range ts.tools {
		arm := t.resultArm
		if done[arm] {
			continue
		}
		done[arm] = true
		name := wrapFunc(ts.name, string(arm.Desc.Name()))
		e.doc(name + " puts a result into the " + string(arm.Desc.Name()) + " arm of " + string(ts.result.Parent.Desc.Name()) + ".")
		e.f.Func().Id(name).Params(jen.Id("callID").String(), jen.Id("m").Qual(protoPkg, "Message")).Qual(protoPkg, "Message").Block(
			jen.Return(e.result(ts, field(ts.result.GoName, jen.Op("&").Add(e.ident(arm.GoIdent)).Values(
				field(arm.GoName, jen.Id("m").Assert(jen.Op("*").Add(e.ident(arm.Message.GoIdent)))))))),
		)
	}
}

// result is a result envelope literal with the call id (when the message
// has a CALL_ID field) and the given oneof item.
func (e *emitter) result(ts *toolset, oneof jen.Code) jen.Code {
	var items []jen.Code
	if ts.resultCallID != nil {
		items = append(items, field(ts.resultCallID.GoName, jen.Id("callID")))
	}
	items = append(items, oneof)
	return jen.Op("&").Add(e.ident(ts.result.Parent.GoIdent)).Add(lines(items...))
}

func (e *emitter) split(ts *toolset) {
	env := []jen.Code{}
	if ts.callID != nil {
		env = append(env, field("CallID", jen.Id("req").Dot("Get"+ts.callID.GoName).Call()))
	}
	if ts.idempotency != nil {
		env = append(env, field("ClientRequestID", jen.Id("req").Dot("Get"+ts.idempotency.GoName).Call()))
	}
	var selector []jen.Code
	if ts.selector != nil { // set only when sent: a nil *T in the interface is not nil
		get := jen.Id("req").Dot("Get" + ts.selector.field.GoName).Call()
		selector = append(selector, jen.If(jen.Id("s").Op(":=").Add(get), jen.Id("s").Op("!=").Nil()).Block(
			jen.Id("env").Dot("Selector").Op("=").Id("s")))
	}
	var cases []jen.Code
	for _, t := range ts.tools {
		cases = append(cases, jen.Case(jen.Op("*").Add(e.ident(t.arm.GoIdent))).Block(
			jen.Return(jen.Id(armVar(t.name)), jen.Id("arm").Dot(t.arm.GoName), jen.Id("env"))))
	}
	name := splitFunc(ts.name)
	e.doc(name + " finds the arm of a " + string(ts.dispatch.Desc.Name()) + "; nil when it names none.")
	e.f.Func().Id(name).Params(jen.Id("m").Qual(protoPkg, "Message")).Params(
		jen.Op("*").Qual(toolserverPkg, "Arm"), jen.Qual(protoPkg, "Message"), jen.Qual(toolserverPkg, "Envelope"),
	).Block(append(append([]jen.Code{
		jen.Id("req").Op(":=").Id("m").Assert(jen.Op("*").Add(e.ident(ts.dispatch.GoIdent))),
		jen.Id("env").Op(":=").Qual(toolserverPkg, "Envelope").Add(lines(env...)),
	}, selector...),
		jen.Switch(jen.Id("arm").Op(":=").Id("req").Dot("Get"+ts.oneof.GoName).Call().Assert(jen.Type())).Block(cases...),
		jen.Return(jen.Nil(), jen.Nil(), jen.Id("env")),
	)...)
}

// errorResult emits the function that puts an in-band error (the
// contract's CallError) into the table's error arm: as is when the arm is a
// CallError, else converted field by field, an enum code by model name and
// a string code as the model name. No table's error type is special.
func (e *emitter) errorResult(ts *toolset) {
	arm := ts.errorArm
	get := func(name string) *jen.Statement { return jen.Id("e").Dot(name).Call() }
	var items []jen.Code
	for _, f := range arm.Message.Fields {
		switch f.Desc.Name() {
		case "code":
			switch {
			case f.Enum != nil:
				e.queueEnum(f.Enum)
				items = append(items, field(f.GoName, jen.Id(e.enumVar(f.Enum)).Index(jen.Qual(enumnamePkg, "Of").Call(get("GetCode")))))
			default:
				items = append(items, field(f.GoName, jen.Qual(enumnamePkg, "Of").Call(get("GetCode"))))
			}
		case "message":
			items = append(items, field(f.GoName, get("GetMessage")))
		case "retry_after_ms":
			if f.Desc.Kind() == protoreflect.Uint64Kind {
				items = append(items, field(f.GoName, get("GetRetryAfterMs")))
			} else {
				items = append(items, field(f.GoName, jen.Uint32().Call(jen.Min(get("GetRetryAfterMs"), jen.Qual("math", "MaxUint32")))))
			}
		}
	}
	var value jen.Code = jen.Id("e")
	if arm.Message.Desc.FullName() != callErrorName {
		value = jen.Op("&").Add(e.ident(arm.Message.GoIdent)).Add(lines(items...))
	}
	name := errorFunc(ts.name)
	e.doc(name + " puts an in-band error into the " + string(arm.Desc.Name()) + " arm of " + string(ts.result.Parent.Desc.Name()) + ".")
	e.f.Func().Id(name).Params(jen.Id("callID").String(), jen.Id("e").Op("*").Qual(optionsPkg, "CallError")).Qual(protoPkg, "Message").Block(
		jen.Return(e.result(ts, field(ts.result.GoName, jen.Op("&").Add(e.ident(arm.GoIdent)).Values(field(arm.GoName, value))))),
	)
}

// The contract's in-band error, which the server side converts from.
const (
	optionsPkg                          = "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	callErrorName protoreflect.FullName = "forgetools.options.v1.CallError"
)
