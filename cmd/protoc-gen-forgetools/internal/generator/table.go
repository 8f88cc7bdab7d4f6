package generator

import (
	"regexp"
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/runtime/schema"
)

// toolset is one annotated dispatch oneof: everything the emitters need,
// read from the options and checked.
type toolset struct {
	name         string
	file         *protogen.File
	dispatch     *protogen.Message // the message holding the oneof
	oneof        *protogen.Oneof
	instructions []guidance
	procedure    string          // "" when no method of the file takes dispatch
	result       *protogen.Oneof // the result oneof
	errorArm     *protogen.Field // the arm marked (result).error; may be nil
	resultCallID *protogen.Field // the result's CALL_ID field; may be nil
	callID       *protogen.Field // envelope fields by role; each may be nil
	idempotency  *protogen.Field
	selector     *selector // may be nil
	tools        []*tool
	groups       []*toolGroup // in the grouped shape, one tool each
}

// guidance is one part of the toolset instructions and its conditions
// (see runtime.Guidance).
type guidance struct {
	text              string
	providers, params []string
}

// selector is the envelope field whose message fields become flat
// parameters of every tool.
type selector struct {
	field *protogen.Field
	obj   *object
}

// tool is one arm of the dispatch oneof.
type tool struct {
	name        string
	arm         *protogen.Field
	opts        *optionsv1.ToolOptions
	description string
	obj         *object         // the arm's request message
	schema      *schema.Schema  // its JSON Schema, selector parameters included
	resultArm   *protogen.Field // the result arm it expects
	capability  string          // the provider capability the arm belongs to
	scope       *param          // the request field the gateway scopes by; may be nil
	// unnamed is what scopes a call whose request names no scope value
	// ((tool).scope): SCOPE_OWN_STATE, SCOPE_ACCOUNT_REPOSITORIES or
	// unspecified.
	unnamed optionsv1.Scope
}

// reader builds toolsets from one plugin run, collecting problems.
type reader struct {
	plugin   *protogen.Plugin
	messages map[protoreflect.FullName]*protogen.Message
	objects  *objects
	problems problems
	// scopeChecked holds the nested objects already checked for a
	// misplaced scope option, so each is reported once.
	scopeChecked map[*object]bool
	// resultChecked holds the result message types already checked.
	resultChecked map[protoreflect.FullName]bool
}

func newReader(plugin *protogen.Plugin) (*reader, error) {
	objs, err := newObjects(filesOf(plugin))
	if err != nil {
		return nil, err
	}
	r := &reader{plugin: plugin, messages: map[protoreflect.FullName]*protogen.Message{}, objects: objs, scopeChecked: map[*object]bool{}, resultChecked: map[protoreflect.FullName]bool{}}
	for _, f := range plugin.Files {
		r.index(f.Messages)
	}
	objs.problems = &r.problems
	return r, nil
}

func (r *reader) index(msgs []*protogen.Message) {
	for _, m := range msgs {
		r.messages[m.Desc.FullName()] = m
		r.index(m.Messages)
	}
}

// toolsets returns the annotated oneofs of f, in declaration order.
func (r *reader) toolsets(f *protogen.File) []*toolset {
	var out []*toolset
	for _, o := range r.toolsetsOf(f) {
		out = append(out, r.toolset(f, o.Parent, o))
	}
	return out
}

var (
	toolNameShape    = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	toolsetNameShape = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	placeholder      = regexp.MustCompile(`\{([^{}]*)\}`)
)

func (r *reader) toolset(f *protogen.File, m *protogen.Message, o *protogen.Oneof) *toolset {
	opts := proto.GetExtension(o.Desc.Options(), optionsv1.E_Toolset).(*optionsv1.ToolsetOptions)
	ts := &toolset{name: opts.GetName(), file: f, dispatch: m, oneof: o}
	at := func(field protoreflect.Name) []int32 { return optionPath(oneofProto, optionsv1.E_Toolset, field) }
	if !toolsetNameShape.MatchString(ts.name) {
		r.problems.add(o.Desc, at("name"), "toolset name %q must be lower snake case, e.g. \"forge\"", ts.name)
	}

	snippets := map[string]*optionsv1.Snippet{}
	for _, s := range opts.GetSnippets() {
		if _, dup := snippets[s.GetId()]; dup {
			r.problems.add(o.Desc, at("snippets"), "snippet id %q is defined twice", s.GetId())
		}
		snippets[s.GetId()] = s
	}

	r.envelope(ts)
	r.resultOf(ts)
	r.instructions(ts, opts, snippets)

	seen := map[string]*protogen.Field{}
	for _, arm := range o.Fields {
		t := r.tool(ts, arm, snippets)
		if t == nil {
			continue
		}
		if first, dup := seen[t.name]; dup {
			r.problems.add(arm.Desc, toolPath("name"), "duplicate tool name %q (also on %s)", t.name, first.Desc.Name())
			continue
		}
		seen[t.name] = arm
		ts.tools = append(ts.tools, t)
	}
	r.groups(ts, opts)
	return ts
}

func toolPath(field protoreflect.Name) []int32 {
	return optionPath(fieldProto, optionsv1.E_Tool, field)
}

// withSnippets appends the texts of the snippet ids to text, refusing ids
// the toolset does not define and conditional snippets: a description is
// the same whatever the gateway serves.
func (r *reader) withSnippets(d protoreflect.Descriptor, at []int32, text string, ids []string, snippets map[string]*optionsv1.Snippet) string {
	parts := []string{}
	if text != "" {
		parts = append(parts, text)
	}
	for i, id := range ids {
		s, ok := snippets[id]
		where := append(at[:len(at):len(at)], int32(i))
		switch {
		case !ok:
			r.problems.add(d, where, "snippet %q is not defined by the toolset", id)
			continue
		case len(s.GetProviders()) > 0 || len(s.GetParams()) > 0:
			r.problems.add(d, where, "snippet %q has conditions (providers, params): only the toolset instructions can include it", id)
		}
		parts = append(parts, s.GetText())
	}
	return strings.Join(parts, " ")
}

// instructions reads the toolset instructions: the text, then each
// instruction snippet with its conditions, which must name selector
// parameters and provider spellings the table knows.
func (r *reader) instructions(ts *toolset, opts *optionsv1.ToolsetOptions, snippets map[string]*optionsv1.Snippet) {
	at := optionPath(oneofProto, optionsv1.E_Toolset, "instruction_snippets")
	if opts.GetInstructions() != "" {
		ts.instructions = append(ts.instructions, guidance{text: opts.GetInstructions()})
	}
	params, spellings := map[string]bool{}, map[string]bool{}
	if ts.selector != nil {
		for _, p := range ts.selector.obj.params {
			params[p.name] = true
			if en := p.field.Enum; en != nil {
				for _, v := range en.Values {
					spellings[modelName(v)] = true
				}
			}
		}
	}
	for i, id := range opts.GetInstructionSnippets() {
		where := append(at[:len(at):len(at)], int32(i))
		s, ok := snippets[id]
		if !ok {
			r.problems.add(ts.oneof.Desc, where, "snippet %q is not defined by the toolset", id)
			continue
		}
		for _, p := range s.GetParams() {
			if !params[p] {
				r.problems.add(ts.oneof.Desc, where, "snippet %q: %q is not a selector parameter", id, p)
			}
		}
		for _, p := range s.GetProviders() {
			if !spellings[p] {
				r.problems.add(ts.oneof.Desc, where, "snippet %q: provider %q is not a value of the selector", id, p)
			}
		}
		ts.instructions = append(ts.instructions, guidance{text: s.GetText(), providers: s.GetProviders(), params: s.GetParams()})
	}
}

// envelope finds the dispatch message's envelope fields by role.
func (r *reader) envelope(ts *toolset) {
	for _, f := range ts.dispatch.Fields {
		if f.Oneof == ts.oneof || !proto.HasExtension(f.Desc.Options(), optionsv1.E_Envelope) {
			continue
		}
		env := proto.GetExtension(f.Desc.Options(), optionsv1.E_Envelope).(*optionsv1.EnvelopeOptions)
		at := optionPath(fieldProto, optionsv1.E_Envelope, "role")
		var slot **protogen.Field
		switch env.GetRole() {
		case optionsv1.EnvelopeRole_ENVELOPE_ROLE_CALL_ID:
			slot = &ts.callID
		case optionsv1.EnvelopeRole_ENVELOPE_ROLE_IDEMPOTENCY_KEY:
			slot = &ts.idempotency
		case optionsv1.EnvelopeRole_ENVELOPE_ROLE_FORGE_SELECTOR:
			if ts.selector != nil {
				r.problems.add(f.Desc, at, "%s is a second FORGE_SELECTOR (first: %s)", f.Desc.Name(), ts.selector.field.Desc.Name())
				continue
			}
			ts.selector = r.selector(f, env)
			continue
		default:
			r.problems.add(f.Desc, at, "envelope field %s has no role", f.Desc.Name())
			continue
		}
		if *slot != nil {
			r.problems.add(f.Desc, at, "%s has the role %s of %s too", f.Desc.Name(), env.GetRole(), (*slot).Desc.Name())
			continue
		}
		if f.Desc.Kind() != protoreflect.StringKind || f.Desc.IsList() {
			r.problems.add(f.Desc, at, "envelope field %s with role %s must be a string", f.Desc.Name(), env.GetRole())
			continue
		}
		*slot = f
	}
}

func (r *reader) selector(f *protogen.Field, env *optionsv1.EnvelopeOptions) *selector {
	at := optionPath(fieldProto, optionsv1.E_Envelope, "params")
	if f.Message == nil || f.Desc.IsList() {
		r.problems.add(f.Desc, nil, "FORGE_SELECTOR field %s must be a singular message", f.Desc.Name())
		return nil
	}
	if len(env.GetParams()) == 0 {
		r.problems.add(f.Desc, at, "FORGE_SELECTOR field %s names no params (selector field -> flat parameter name)", f.Desc.Name())
		return nil
	}
	for key := range env.GetParams() {
		if f.Message.Desc.Fields().ByName(protoreflect.Name(key)) == nil {
			r.problems.add(f.Desc, at, "params key %q is not a field of %s", key, f.Message.Desc.FullName())
		}
	}
	for key := range env.GetDescriptions() {
		if _, ok := env.GetParams()[key]; !ok {
			r.problems.add(f.Desc, optionPath(fieldProto, optionsv1.E_Envelope, "descriptions"), "descriptions key %q is not a params key", key)
		}
	}
	obj := r.objects.selector(f.Message, env.GetParams(), env.GetDescriptions())
	if obj == nil {
		return nil
	}
	return &selector{field: f, obj: obj}
}

// tool reads one arm; nil when it cannot be used at all.
func (r *reader) tool(ts *toolset, arm *protogen.Field, snippets map[string]*optionsv1.Snippet) *tool {
	if !proto.HasExtension(arm.Desc.Options(), optionsv1.E_Tool) {
		r.problems.add(arm.Desc, nil, "arm %s has no (forgetools.options.v1.tool) options", arm.Desc.Name())
		return nil
	}
	opts := proto.GetExtension(arm.Desc.Options(), optionsv1.E_Tool).(*optionsv1.ToolOptions)
	t := &tool{name: opts.GetName(), arm: arm, opts: opts}
	if !toolNameShape.MatchString(t.name) {
		r.problems.add(arm.Desc, toolPath("name"), "arm %s: tool name %q must be 1-64 of [a-zA-Z0-9_-]", arm.Desc.Name(), t.name)
		return nil
	}
	if arm.Message == nil {
		r.problems.add(arm.Desc, nil, "%s: arm %s must be a request message", t.name, arm.Desc.Name())
		return nil
	}
	if strings.TrimSpace(opts.GetDescription()) == "" {
		r.problems.add(arm.Desc, toolPath("description"), "%s: missing description", t.name)
	}
	if _, ok := approvalNames[opts.GetApproval()]; !ok {
		r.problems.add(arm.Desc, toolPath("approval"), "%s: missing approval (APPROVAL_READ, APPROVAL_WRITE or APPROVAL_PUSH)", t.name)
	}
	if _, ok := riskNames[opts.GetRisk()]; !ok && opts.GetRisk() != optionsv1.Risk_RISK_UNSPECIFIED {
		r.problems.add(arm.Desc, toolPath("risk"), "%s: unknown risk %d (RISK_LOW, RISK_MEDIUM or RISK_HIGH)", t.name, opts.GetRisk())
	}
	// A one-service table need not name capabilities: an arm without one
	// belongs to the capability named after the toolset.
	t.capability = opts.GetCapability()
	if t.capability == "" {
		t.capability = ts.name
	}
	if !toolsetNameShape.MatchString(t.capability) {
		r.problems.add(arm.Desc, toolPath("capability"), "%s: capability %q must be lower snake case, e.g. \"issues\" (the provider capability the arm belongs to)", t.name, t.capability)
	}
	if opts.GetIdempotencyKey() && ts.idempotency == nil {
		r.problems.add(arm.Desc, toolPath("idempotency_key"), "%s: idempotency_key is set but %s has no IDEMPOTENCY_KEY envelope field", t.name, ts.dispatch.Desc.Name())
	}
	r.checkResult(ts, t)

	t.obj = r.objects.request(arm.Message)
	if t.obj == nil {
		return nil
	}
	t.scope = r.scopeOf(t)
	t.unnamed = opts.GetScope()
	switch t.unnamed {
	case optionsv1.Scope_SCOPE_UNSPECIFIED, optionsv1.Scope_SCOPE_OWN_STATE:
	case optionsv1.Scope_SCOPE_ACCOUNT_REPOSITORIES:
		// The gateway reads the forge and the scope's repositories from the
		// call; without a repository field it could not filter by one.
		if t.scope == nil || t.scope.scope != optionsv1.Scope_SCOPE_REPOSITORY || t.opts.GetApproval() != optionsv1.Approval_APPROVAL_READ {
			r.problems.add(arm.Desc, toolPath("scope"), "%s: (tool).scope SCOPE_ACCOUNT_REPOSITORIES needs a read arm with a SCOPE_REPOSITORY field", t.name)
		}
	default:
		r.problems.add(arm.Desc, toolPath("scope"), "%s: (tool).scope is %s; only SCOPE_OWN_STATE or SCOPE_ACCOUNT_REPOSITORIES goes on a tool (a repository or a subscription is named by a field with (param).scope)", t.name, t.unnamed)
	}
	if t.unnamed != optionsv1.Scope_SCOPE_UNSPECIFIED && t.scope != nil && t.scope.required {
		r.problems.add(arm.Desc, toolPath("scope"), "%s: (tool).scope %s applies when %s is empty, but %s is required", t.name, t.unnamed, t.scope.field.Desc.Name(), t.scope.field.Desc.Name())
	}
	if ts.selector != nil {
		for _, p := range t.obj.params {
			for _, sp := range ts.selector.obj.params {
				if p.name == sp.name {
					r.problems.add(p.field.Desc, nil, "%s: parameter %q collides with the selector parameter of %s.%s", t.name, p.name, ts.dispatch.Desc.Name(), ts.selector.field.Desc.Name())
				}
			}
		}
	}
	desc := r.withSnippets(arm.Desc, toolPath("snippets"), opts.GetDescription(), opts.GetSnippets(), snippets)
	parts := []string{desc}
	var sentences []string
	var sel *object
	if ts.selector != nil {
		sel = ts.selector.obj
	}
	t.schema, sentences = inputSchema(t.obj, sel)
	parts = append(parts, sentences...)
	t.description = strings.Join(parts, " ")
	return t
}

// nestedScope refuses a scope option below the top level of an arm's
// request, where the gateway would never look for it.
func (r *reader) nestedScope(obj *object, seen map[*object]bool) {
	if seen[obj] {
		return
	}
	seen[obj] = true
	for _, p := range obj.params {
		if p.scope != optionsv1.Scope_SCOPE_UNSPECIFIED {
			r.problems.add(p.field.Desc, nil, "scope is set on %s, a field of a nested message; only a top-level field of an arm request scopes the call", p.field.Desc.FullName())
		}
		if p.obj != nil {
			r.nestedScope(p.obj, seen)
		}
	}
}

// scopeOf finds the one top-level field of the arm's request that the
// gateway scopes the call by; nil when there is none (the gateway then
// refuses the arm at run time rather than run it unscoped).
func (r *reader) scopeOf(t *tool) *param {
	var found *param
	for _, p := range t.obj.params {
		if p.obj != nil {
			r.nestedScope(p.obj, r.scopeChecked)
		}
		if p.scope == optionsv1.Scope_SCOPE_UNSPECIFIED {
			continue
		}
		switch {
		case p.scope == optionsv1.Scope_SCOPE_OWN_STATE:
			r.problems.add(p.field.Desc, nil, "%s: %s has (param).scope SCOPE_OWN_STATE, which names no field: set it as (tool).scope", t.name, p.field.Desc.Name())
		case p.field.Desc.Kind() != protoreflect.StringKind || p.field.Desc.IsList() || isOptionalScalar(p.field):
			r.problems.add(p.field.Desc, nil, "%s: scope field %s must be a plain string", t.name, p.field.Desc.Name())
		case found != nil:
			r.problems.add(p.field.Desc, nil, "%s: %s is a second scope field (first: %s)", t.name, p.field.Desc.Name(), found.field.Desc.Name())
		default:
			found = p
		}
	}
	return found
}
