package generator

import (
	"regexp"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/gofeaturespb"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
)

// object is a message the model writes as a JSON object: a tool's request,
// a nested message in it, or the forge selector.
type object struct {
	msg    *protogen.Message
	params []*param
	// hidden are the deprecated fields left out of the tool.
	hidden []*protogen.Field
}

// param is one field of an object as the model sees it.
type param struct {
	name        string
	description string
	field       *protogen.Field
	// required: the field's proto default would fail validation (a
	// required rule, min_len >= 1, gte >= 1, ...), so the model must give it.
	required  bool
	agentText bool
	// scope and attribution are the gateway's policy for the field, from
	// (param).scope and (param).attribution.
	scope       optionsv1.Scope
	attribution optionsv1.Attribution
	// repoPath: the value is a repository path the gateway checks
	// ((param).repo_path).
	repoPath bool
	// gitRef: the value is a git ref the gateway checks ((param).git_ref).
	gitRef   bool
	rules    *validate.FieldRules // nil when the field has none
	obj      *object              // for message fields
	enum     []enumValue          // for enum fields: the values the model may name
	wkt      wellKnown            // for google.protobuf messages the tool takes
	key, val *param               // for maps: the entry's key and value
	// oneof is the real oneof the field belongs to; nil for others.
	oneof *protogen.Oneof
	// deprecated: the field is marked deprecated and exposed anyway;
	// hidden: deprecated and left out of the tool (kept only for the
	// server side's text walker).
	deprecated, hidden bool
}

type enumValue struct {
	name  string // model name, from (forgetools.options.v1.value).name
	value *protogen.EnumValue
}

// objects builds (and caches) objects, refusing field shapes a tool cannot
// take.
type objects struct {
	validator protovalidate.Validator
	files     *protoregistry.Files // every file of the run, for compileField
	built     map[protoreflect.FullName]*object
	building  map[protoreflect.FullName]bool
	failed    map[protoreflect.FullName]bool // refused already: reported once
	// enumChecked holds the enums already checked for duplicate names.
	enumChecked map[protoreflect.FullName]bool
	problems    *problems
}

func newObjects(files *protoregistry.Files) (*objects, error) {
	v, err := protovalidate.New()
	if err != nil {
		return nil, err
	}
	return &objects{validator: v, files: files, built: map[protoreflect.FullName]*object{}, building: map[protoreflect.FullName]bool{}, failed: map[protoreflect.FullName]bool{}, enumChecked: map[protoreflect.FullName]bool{}}, nil
}

var paramNameShape = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// request builds the object of a request message: every field is a
// parameter, named by (param).name or the field name. It reports every
// problem of every field before giving up on the message.
func (o *objects) request(m *protogen.Message) *object {
	name := m.Desc.FullName()
	if obj, ok := o.built[name]; ok || o.failed[name] {
		return obj
	}
	if o.building[name] {
		o.problems.add(m.Desc, nil, "%s is recursive: a tool parameter cannot nest it in itself, since the model needs a schema of finite depth; break the cycle", name)
		return nil
	}
	o.building[name] = true
	defer delete(o.building, name)
	if !o.checkMessage(m) {
		return nil
	}
	before := len(*o.problems)
	obj := &object{msg: m}
	seen := map[string]bool{}
	for _, f := range m.Fields {
		opts, _ := proto.GetExtension(f.Desc.Options(), optionsv1.E_Param).(*optionsv1.ParamOptions)
		pname := string(f.Desc.Name())
		if opts.GetName() != "" {
			pname = opts.GetName()
		}
		deprecated := f.Desc.Options().(*descriptorpb.FieldOptions).GetDeprecated()
		hidden := deprecated && !opts.GetExposeDeprecated()
		if hidden && opts.GetAttribution() == optionsv1.Attribution_ATTRIBUTION_UNSPECIFIED {
			obj.hidden = append(obj.hidden, f)
			continue // the tool never sees it; its rules are checked below
		}
		if seen[pname] {
			o.problems.add(f.Desc, nil, "parameter name %q is used twice in %s", pname, m.Desc.FullName())
			continue
		}
		seen[pname] = true
		p := o.param(f, pname, opts.GetDescription())
		if p == nil {
			continue
		}
		p.deprecated, p.hidden = deprecated, hidden
		p.agentText = opts.GetAgentText()
		p.scope, p.attribution = opts.GetScope(), opts.GetAttribution()
		p.repoPath = opts.GetRepoPath()
		if p.repoPath && (f.Desc.Kind() != protoreflect.StringKind || f.Desc.IsMap() || f.Desc.HasPresence() || p.wkt != wkNone) {
			o.problems.add(f.Desc, nil, "repo_path is set on %s, which is not a plain string (or list of strings)", f.Desc.FullName())
		}
		p.gitRef = opts.GetGitRef()
		if p.gitRef && (f.Desc.Kind() != protoreflect.StringKind || f.Desc.IsMap() || p.wkt != wkNone) {
			o.problems.add(f.Desc, nil, "git_ref is set on %s, which is not a string (or optional string, or list of strings)", f.Desc.FullName())
		}
		if p.agentText && !textKind(p) {
			o.problems.add(f.Desc, nil, "agent_text is set on %s, which is not a string (or a list, oneof member or StringValue of strings)", f.Desc.FullName())
		}
		if p.attribution != optionsv1.Attribution_ATTRIBUTION_UNSPECIFIED && (!p.agentText || f.Desc.IsList() || p.wkt != wkNone) {
			o.problems.add(f.Desc, nil, "attribution is set on %s, which is not a singular agent_text string", f.Desc.FullName())
		}
		obj.params = append(obj.params, p)
	}
	if len(*o.problems) > before {
		o.failed[name] = true
		return nil
	}
	required, ok := o.required(m)
	if !ok {
		o.failed[name] = true
		return nil
	}
	for _, p := range obj.params {
		p.required = required[p.field.Desc.Number()] && !isOptionalScalar(p.field) && p.oneof == nil
		if p.hidden && p.required {
			o.problems.add(p.field.Desc, nil, "%s is deprecated and left out of the tool, but its rules require it; set (forgetools.options.v1.param).expose_deprecated or drop the rule", p.field.Desc.FullName())
		}
	}
	for _, f := range obj.hidden {
		if required[f.Desc.Number()] {
			o.problems.add(f.Desc, nil, "%s is deprecated and left out of the tool, but its rules require it; set (forgetools.options.v1.param).expose_deprecated or drop the rule", f.Desc.FullName())
		}
	}
	o.built[name] = obj
	return obj
}

// textKind: a field the text policy can read and rewrite in place.
func textKind(p *param) bool {
	switch {
	case p.wkt == wkWrapper:
		return p.field.Message.Fields[0].Desc.Kind() == protoreflect.StringKind && !p.field.Desc.IsList()
	case p.field.Desc.IsMap():
		return false // a map value cannot be rewritten in place
	}
	return p.field.Desc.Kind() == protoreflect.StringKind
}

// selector builds the object of the selector message: only the fields the
// params map names, under their flat names, never required (the selector
// as a whole is optional).
func (o *objects) selector(m *protogen.Message, names, descriptions map[string]string) *object {
	if !o.checkMessage(m) {
		return nil
	}
	obj := &object{msg: m}
	for _, f := range m.Fields {
		pname, ok := names[string(f.Desc.Name())]
		if !ok {
			continue
		}
		if p := o.param(f, pname, descriptions[string(f.Desc.Name())]); p != nil {
			if p.obj != nil || f.Desc.IsList() {
				o.problems.add(f.Desc, nil, "selector field %s must be a scalar or an enum", f.Desc.FullName())
				continue
			}
			obj.params = append(obj.params, p)
		}
	}
	return obj
}

func (o *objects) checkMessage(m *protogen.Message) bool {
	if m.APILevel == gofeaturespb.GoFeatures_API_OPAQUE {
		o.problems.add(m.Desc, nil, "%s uses the opaque Go API; tool messages need the open or hybrid API", m.Desc.FullName())
		return false
	}
	return true
}

func (o *objects) param(f *protogen.Field, name, description string) *param {
	if !paramNameShape.MatchString(name) {
		o.problems.add(f.Desc, nil, "parameter name %q of %s must match %s", name, f.Desc.FullName(), paramNameShape)
		return nil
	}
	p := &param{name: name, description: description, field: f}
	if f.Oneof != nil && !f.Oneof.Desc.IsSynthetic() {
		p.oneof = f.Oneof
	}
	if rules, ok := proto.GetExtension(f.Desc.Options(), validate.E_Field).(*validate.FieldRules); ok &&
		rules.GetIgnore() != validate.Ignore_IGNORE_ALWAYS {
		p.rules = rules
	}
	if !o.checkRules(f.Desc, p.rules) {
		return nil
	}
	switch {
	case f.Desc.IsMap():
		entry := f.Message
		p.key, p.val = o.element(f, entry.Fields[0]), o.element(f, entry.Fields[1])
		if p.key == nil || p.val == nil {
			return nil
		}
	case f.Desc.Kind() == protoreflect.GroupKind:
		o.problems.add(f.Desc, nil, "%s is a group; tool parameters cannot be", f.Desc.FullName())
		return nil
	case f.Message != nil:
		if f.Message.Desc.ParentFile().Package() == "google.protobuf" {
			p.wkt = o.wellKnown(f)
			if p.wkt == wkNone {
				return nil
			}
			break
		}
		if p.obj = o.request(f.Message); p.obj == nil {
			return nil
		}
	case f.Enum != nil:
		p.enum = o.enumValues(f, p.rules)
		if len(p.enum) == 0 {
			o.problems.add(f.Desc, nil, "enum %s offers the model no value: give values a (forgetools.options.v1.value).name", f.Enum.Desc.FullName())
			return nil
		}
	}
	return p
}

// element is the key or value of a map field f, as a parameter of its own
// (its rules are the map's keys or values rules).
func (o *objects) element(f, entry *protogen.Field) *param {
	e := &param{name: string(entry.Desc.Name()), field: entry}
	switch {
	case entry.Message != nil && entry.Message.Desc.ParentFile().Package() == "google.protobuf":
		e.wkt = o.wellKnown(entry)
		if e.wkt == wkWrapper {
			o.problems.add(f.Desc, nil, "%s is a map of wrappers; a map value cannot be null, so use the plain scalar", f.Desc.FullName())
			return nil
		}
		if e.wkt == wkNone {
			return nil
		}
	case entry.Message != nil:
		if e.obj = o.request(entry.Message); e.obj == nil {
			return nil
		}
	case entry.Enum != nil:
		rules := &validate.FieldRules{}
		if m := fieldRules(f).GetMap(); m != nil {
			rules = m.GetValues()
		}
		if e.enum = o.enumValues(entry, rules); len(e.enum) == 0 {
			o.problems.add(f.Desc, nil, "enum %s offers the model no value: give values a (forgetools.options.v1.value).name", entry.Enum.Desc.FullName())
			return nil
		}
	}
	return e
}

func fieldRules(f *protogen.Field) *validate.FieldRules {
	rules, _ := proto.GetExtension(f.Desc.Options(), validate.E_Field).(*validate.FieldRules)
	return rules
}

// enumValues lists the values the model may name: those with a model name,
// narrowed by the enum's const/in/not_in rules.
func (o *objects) enumValues(f *protogen.Field, rules *validate.FieldRules) []enumValue {
	o.checkEnum(f.Enum)
	er := rules.GetEnum()
	if f.Desc.IsList() {
		er = rules.GetRepeated().GetItems().GetEnum()
	}
	if rules.GetRequired() && !f.Desc.IsList() {
		// Required means not the zero value.
		er = proto.CloneOf(er)
		if er == nil {
			er = &validate.EnumRules{}
		}
		er.NotIn = append(er.NotIn, 0)
	}
	var out []enumValue
	for _, v := range f.Enum.Values {
		opts, _ := proto.GetExtension(v.Desc.Options(), optionsv1.E_Value).(*optionsv1.EnumValueOptions)
		n := int32(v.Desc.Number())
		switch {
		case opts.GetName() == "",
			er.HasConst() && er.GetConst() != n,
			len(er.GetIn()) > 0 && !containsInt(er.GetIn(), n),
			containsInt(er.GetNotIn(), n):
			continue
		}
		out = append(out, enumValue{name: opts.GetName(), value: v})
	}
	return out
}

// checkEnum refuses, once per enum, two values with the same model name:
// the decoder could not tell them apart (and its name table would not
// compile).
func (o *objects) checkEnum(en *protogen.Enum) {
	if o.enumChecked[en.Desc.FullName()] {
		return
	}
	o.enumChecked[en.Desc.FullName()] = true
	first := map[string]*protogen.EnumValue{}
	for _, v := range en.Values {
		name := modelName(v)
		if name == "" {
			continue
		}
		if other, dup := first[name]; dup {
			o.problems.add(v.Desc, optionPath(enumValueProto, optionsv1.E_Value, "name"), "%s has the model name %q of %s too; each value needs its own", v.Desc.Name(), name, other.Desc.Name())
			continue
		}
		first[name] = v
	}
}

func containsInt(list []int32, n int32) bool {
	for _, v := range list {
		if v == n {
			return true
		}
	}
	return false
}

// isOptionalScalar: a proto3 optional (or explicit-presence) scalar is
// never required; leaving it out is how the model says "not set". A member
// of a real oneof is not one: the oneof says which member is set.
func isOptionalScalar(f *protogen.Field) bool {
	return f.Desc.HasPresence() && f.Message == nil && !f.Desc.IsList() &&
		(f.Oneof == nil || f.Oneof.Desc.IsSynthetic())
}

// eachParam calls fn on every parameter of obj and of the objects nested
// in it (map values included), visiting each object once (seen is shared
// across calls).
func eachParam(obj *object, seen map[*object]bool, fn func(p *param)) {
	if obj == nil || seen[obj] {
		return
	}
	seen[obj] = true
	for _, p := range obj.params {
		fn(p)
		eachParam(p.obj, seen, fn)
		if p.val != nil {
			fn(p.val)
			eachParam(p.val.obj, seen, fn)
		}
	}
}
