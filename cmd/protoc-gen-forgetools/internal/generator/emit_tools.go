package generator

import (
	"github.com/dave/jennifer/jen"
	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/reflect/protoreflect"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
)

// The agent side: <pkg>tools, a runtime.Table of tools per toolset.

func emitTools(plugin *protogen.Plugin, file *protogen.File, out pkg, toolsets []*toolset, h *helpers) *jen.File {
	e := newEmitter(plugin, file, out, argsPkg, "args", h)
	e.f.ImportName(runtimePkg, "runtime")
	e.f.ImportName(schemaPkg, "schema")
	for _, ts := range toolsets {
		e.toolset(ts)
	}
	return e.f
}

func (e *emitter) toolset(ts *toolset) {
	tools := make([]jen.Code, len(ts.tools))
	for i, t := range ts.tools {
		tools[i] = jen.Id(toolVar(t.name))
	}
	items := []jen.Code{field("Name", jen.Lit(ts.name))}
	if len(ts.instructions) > 0 {
		parts := make([]jen.Code, len(ts.instructions))
		for i, g := range ts.instructions {
			part := []jen.Code{field("Text", jen.Lit(g.text))}
			if len(g.providers) > 0 {
				part = append(part, field("Providers", stringList(g.providers)))
			}
			if len(g.params) > 0 {
				part = append(part, field("Params", stringList(g.params)))
			}
			parts[i] = jen.Values(part...)
		}
		items = append(items, field("Instructions", jen.Index().Qual(runtimePkg, "Guidance").Add(lines(parts...))))
	}
	items = append(items, field("Tools", jen.Index().Op("*").Qual(runtimePkg, "Tool").Add(lines(tools...))))
	if len(ts.groups) > 0 {
		groups := make([]jen.Code, len(ts.groups))
		for i, g := range ts.groups {
			group := []jen.Code{field("Name", jen.Lit(g.name))}
			if g.title != "" {
				group = append(group, field("Title", jen.Lit(g.title)))
			}
			if g.description != "" {
				group = append(group, field("Description", jen.Lit(g.description)))
			}
			groups[i] = jen.Values(group...)
		}
		items = append(items, field("Groups", jen.Index().Qual(runtimePkg, "Group").Add(lines(groups...))))
	}
	if ts.procedure != "" {
		items = append(items, field("Procedure", jen.Lit(ts.procedure)))
	}
	result := ts.result.Parent
	items = append(items,
		field("NewResult", jen.Func().Params().Qual(protoPkg, "Message").Block(
			jen.Return(jen.Op("&").Add(e.ident(result.GoIdent)).Values()))),
		field("Unwrap", jen.Id(unwrapFunc(ts.name))),
	)
	if ts.selector != nil {
		items = append(items, field("Selector", e.selectorNames(ts.selector)))
	}
	if renamed := renamedParams(ts); len(renamed) > 0 {
		items = append(items, field("ParamNames", jen.Map(jen.String()).String().Add(lines(renamed...))))
	}
	doc := tableVar(ts.name) + " is the " + quoted(ts.name) + " toolset: one tool per arm of " +
		string(ts.dispatch.Desc.Name()) + "." + string(ts.oneof.Desc.Name())
	if ts.procedure != "" {
		doc += ", sent as " + ts.procedure
	}
	e.doc(doc + ".")
	e.f.Var().Id(tableVar(ts.name)).Op("=").Op("&").Qual(runtimePkg, "Table").Add(lines(items...))

	for _, t := range ts.tools {
		e.tool(ts, t)
	}
	if ts.selector != nil {
		e.selector(ts)
	}
	e.unwrap(ts)
	for _, t := range ts.tools {
		if !hasText(t.obj, agentTexts) {
			e.doc(noTextsFunc(ts.name) + " is the Texts of the tools without agent-authored text.")
			e.f.Func().Id(noTextsFunc(ts.name)).Params(jen.Qual(protoPkg, "Message")).Index().Qual(runtimePkg, "Text").Block(jen.Return(jen.Nil()))
			break
		}
	}
}

// stringList is a []string literal on one line.
func stringList(ss []string) *jen.Statement {
	lits := make([]jen.Code, len(ss))
	for i, s := range ss {
		lits[i] = jen.Lit(s)
	}
	return jen.Index().String().Values(lits...)
}

func (e *emitter) tool(ts *toolset, t *tool) {
	hints := []jen.Code{
		field("ReadOnly", jen.False()),
		field("Destructive", jen.Lit(t.opts.GetDestructive())),
		field("Idempotent", jen.Lit(t.opts.GetIdempotent())),
		field("OpenWorld", jen.True()), // forges are outside the agent's world
	}
	if t.opts.GetApproval() == optionsv1.Approval_APPROVAL_READ {
		hints = []jen.Code{
			field("ReadOnly", jen.True()),
			field("Destructive", jen.False()),
			field("Idempotent", jen.True()),
			field("OpenWorld", jen.True()),
		}
	}
	items := []jen.Code{field("Name", jen.Lit(t.name))}
	if t.opts.GetTitle() != "" {
		items = append(items, field("Title", jen.Lit(t.opts.GetTitle())))
	}
	items = append(items,
		field("Description", jen.Lit(t.description)),
		field("Approval", jen.Qual(runtimePkg, approvalNames[t.opts.GetApproval()])),
	)
	if c := t.opts.GetActionClass(); c != "" {
		items = append(items, field("ActionClass", jen.Lit(c)))
	}
	if r := t.opts.GetRisk(); r != optionsv1.Risk_RISK_UNSPECIFIED {
		items = append(items, field("Risk", jen.Qual(runtimePkg, riskNames[r])))
	}
	items = append(items,
		field("Hints", jen.Qual(runtimePkg, "Hints").Values(hints...)),
		field("InputSchema", jen.Id(schemaFunc(t.name))),
		field("ResultArm", jen.Lit(string(t.resultArm.Desc.Name()))),
	)
	if t.opts.GetIdempotencyKey() {
		items = append(items, field("IdempotencyKey", jen.True()))
	}
	if t.opts.GetAck() != "" {
		items = append(items, field("Ack", jen.Lit(t.opts.GetAck())))
	}
	if t.opts.GetReplayAck() != "" {
		items = append(items, field("ReplayAck", jen.Lit(t.opts.GetReplayAck())))
	}
	if t.opts.GetGroup() != "" {
		items = append(items, field("Group", jen.Lit(t.opts.GetGroup())), field("Action", jen.Lit(t.opts.GetAction())))
	}
	if len(t.opts.GetAliases()) > 0 {
		items = append(items, field("Aliases", stringList(t.opts.GetAliases())))
	}
	texts := noTextsFunc(ts.name)
	if hasText(t.obj, agentTexts) {
		texts = textsFunc(t.name)
	}
	items = append(items,
		field("Decode", jen.Id(decodeFunc(t.name))),
		field("Build", jen.Id(buildFunc(t.name))),
		field("Texts", jen.Id(texts)),
	)
	e.armDoc(toolVar(t.name)+" is "+t.name+", the "+string(t.arm.Desc.Name())+" arm of "+string(ts.dispatch.Desc.Name())+".", t.arm)
	e.f.Var().Id(toolVar(t.name)).Op("=").Op("&").Qual(runtimePkg, "Tool").Add(lines(items...))

	e.schema(t)
	e.decoder(ts, t)
	e.builder(ts, t)
	if hasText(t.obj, agentTexts) {
		e.texts(t, agentTexts)
	}
}

// approvalNames and riskNames are the runtime constants of the option
// values; the reader refuses an unspecified approval before emitting.
var (
	approvalNames = map[optionsv1.Approval]string{
		optionsv1.Approval_APPROVAL_READ:  "ApprovalRead",
		optionsv1.Approval_APPROVAL_WRITE: "ApprovalWrite",
		optionsv1.Approval_APPROVAL_PUSH:  "ApprovalPush",
	}
	riskNames = map[optionsv1.Risk]string{
		optionsv1.Risk_RISK_LOW:    "RiskLow",
		optionsv1.Risk_RISK_MEDIUM: "RiskMedium",
		optionsv1.Risk_RISK_HIGH:   "RiskHigh",
	}
)

// builder emits the function that puts the arm into the envelope; the
// envelope fields are found by role, not by name.
func (e *emitter) builder(ts *toolset, t *tool) {
	items := []jen.Code{}
	if ts.callID != nil {
		items = append(items, field(ts.callID.GoName, jen.Id("e").Dot("CallID")))
	}
	items = append(items, field(ts.oneof.GoName, jen.Op("&").Add(e.ident(t.arm.GoIdent)).Values(
		field(t.arm.GoName, jen.Id("a").Dot("Request").Assert(jen.Op("*").Add(e.ident(t.arm.Message.GoIdent)))))))
	if ts.selector != nil {
		items = append(items, field(ts.selector.field.GoName, jen.Id(selectorFunc(ts.name)).Call(jen.Id("a"))))
	}
	if t.opts.GetIdempotencyKey() {
		items = append(items, field(ts.idempotency.GoName, jen.Id("e").Dot("ClientRequestID")))
	}
	e.doc(buildFunc(t.name) + " puts a " + t.name + " request into the " + string(ts.dispatch.Desc.Name()) + " envelope.")
	e.f.Func().Id(buildFunc(t.name)).Params(
		jen.Id("a").Qual(runtimePkg, "Args"), jen.Id("e").Qual(runtimePkg, "Envelope"),
	).Qual(protoPkg, "Message").Block(
		jen.Return(jen.Op("&").Add(e.ident(ts.dispatch.GoIdent)).Add(lines(items...))),
	)
}

// selector emits the selector's decoder (nil when no selector parameter is
// given, so the envelope carries none) and its typed accessor for builders.
func (e *emitter) selector(ts *toolset) {
	sel := ts.selector
	msg := e.ident(sel.field.Message.GoIdent)
	names := make([]jen.Code, len(sel.obj.params))
	for i, p := range sel.obj.params {
		names[i] = jen.Lit(p.name)
	}
	e.doc(selectorDecodeFunc(ts.name) + " builds the " + string(sel.field.Desc.Name()) + " selector from its flat parameters; nil when the call gives none of them, so the envelope carries no selector.")
	e.f.Func().Id(selectorDecodeFunc(ts.name)).Params(jen.Id("o").Op("*").Qual(argsPkg, "Object")).Qual(protoPkg, "Message").Block(
		jen.If(jen.Op("!").Id("o").Dot("Has").Call(names...)).Block(jen.Return(jen.Nil())),
		jen.Return(jen.Op("&").Add(msg).Add(e.fields(sel.obj))),
	)
	e.doc(selectorFunc(ts.name) + " returns the decoded selector of a call; nil when it names none.")
	e.f.Func().Id(selectorFunc(ts.name)).Params(jen.Id("a").Qual(runtimePkg, "Args")).Op("*").Add(e.ident(sel.field.Message.GoIdent)).Block(
		jen.List(jen.Id("s"), jen.Id("_")).Op(":=").Id("a").Dot("Forge").Assert(jen.Op("*").Add(e.ident(sel.field.Message.GoIdent))),
		jen.Return(jen.Id("s")),
	)
}

// unwrap emits the typed switch that splits a result into its arm; the
// error arm becomes a runtime.CallError with the code's model name.
func (e *emitter) unwrap(ts *toolset) {
	result := ts.result.Parent
	var cases []jen.Code
	for _, arm := range ts.result.Fields {
		var outcome jen.Code
		switch {
		case arm == ts.errorArm:
			outcome = jen.Qual(runtimePkg, "Outcome").Values(
				field("Arm", jen.Lit(string(arm.Desc.Name()))),
				field("Err", jen.Op("&").Qual(runtimePkg, "CallError").Add(lines(e.callError(arm)...))),
			)
		case arm.Message != nil:
			outcome = jen.Qual(runtimePkg, "Outcome").Values(
				field("Arm", jen.Lit(string(arm.Desc.Name()))),
				field("Message", jen.Id("arm").Dot(arm.GoName)),
			)
		default:
			outcome = jen.Qual(runtimePkg, "Outcome").Values(field("Arm", jen.Lit(string(arm.Desc.Name()))))
		}
		cases = append(cases, jen.Case(jen.Op("*").Add(e.ident(arm.GoIdent))).Block(jen.Return(outcome)))
	}
	name := unwrapFunc(ts.name)
	e.doc(name + " splits a result (" + string(result.Desc.Name()) + ") into the arm that is set.")
	e.f.Func().Id(name).Params(jen.Id("m").Qual(protoPkg, "Message")).Qual(runtimePkg, "Outcome").Block(
		jen.List(jen.Id("r"), jen.Id("_")).Op(":=").Id("m").Assert(jen.Op("*").Add(e.ident(result.GoIdent))),
		jen.Switch(jen.Id("arm").Op(":=").Id("r").Dot("Get"+ts.result.GoName).Call().Assert(jen.Type())).Block(cases...),
		jen.Return(jen.Qual(runtimePkg, "Outcome").Values()),
	)
}

func (e *emitter) callError(arm *protogen.Field) []jen.Code {
	get := func(f *protogen.Field) *jen.Statement {
		return jen.Id("arm").Dot(arm.GoName).Dot("Get" + f.GoName).Call()
	}
	var items []jen.Code
	for _, f := range arm.Message.Fields {
		switch f.Desc.Name() {
		case "code":
			if f.Enum != nil {
				items = append(items, field("Code", jen.Qual(enumnamePkg, "Of").Call(get(f))))
			} else {
				items = append(items, field("Code", get(f)))
			}
		case "message":
			items = append(items, field("Message", get(f)))
		case "retry_after_ms":
			if f.Desc.Kind() == protoreflect.Uint64Kind {
				items = append(items, field("RetryAfterMs", get(f)))
			} else {
				items = append(items, field("RetryAfterMs", jen.Uint64().Call(get(f))))
			}
		}
	}
	return items
}

// selectorNames is the literal of the selector's field -> flat parameter
// names, in field order.
func (e *emitter) selectorNames(sel *selector) jen.Code {
	items := make([]jen.Code, len(sel.obj.params))
	for i, p := range sel.obj.params {
		items[i] = jen.Lit(string(p.field.Desc.Name())).Op(":").Lit(p.name)
	}
	return jen.Map(jen.String()).String().Add(lines(items...))
}

// renamedParams lists the request fields (at any depth) whose parameter
// name differs from the field name, keyed by full field name.
func renamedParams(ts *toolset) []jen.Code {
	var out []jen.Code
	seen := map[*object]bool{}
	for _, t := range ts.tools {
		eachParam(t.obj, seen, func(p *param) {
			if p.name != string(p.field.Desc.Name()) {
				out = append(out, jen.Lit(string(p.field.Desc.FullName())).Op(":").Lit(p.name))
			}
		})
	}
	return out
}
