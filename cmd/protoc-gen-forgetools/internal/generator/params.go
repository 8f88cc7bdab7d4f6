package generator

import (
	"errors"
	"regexp"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/gofeaturespb"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
)

// object is a message the model writes as a JSON object: a tool's request,
// a nested message in it, or the forge selector.
type object struct {
	msg    *protogen.Message
	params []*param
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
	rules       *validate.FieldRules // nil when the field has none
	obj         *object              // for message fields
	enum        []enumValue          // for enum fields: the values the model may name
}

type enumValue struct {
	name  string // model name, from (forgetools.options.v1.value).name
	value *protogen.EnumValue
}

// objects builds (and caches) objects, refusing field shapes a tool cannot
// take.
type objects struct {
	validator protovalidate.Validator
	built     map[protoreflect.FullName]*object
	building  map[protoreflect.FullName]bool
	problems  *problems
}

func newObjects() (*objects, error) {
	v, err := protovalidate.New()
	if err != nil {
		return nil, err
	}
	return &objects{validator: v, built: map[protoreflect.FullName]*object{}, building: map[protoreflect.FullName]bool{}}, nil
}

var paramNameShape = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// request builds the object of a request message: every field is a
// parameter, named by (param).name or the field name.
func (o *objects) request(m *protogen.Message) *object {
	name := m.Desc.FullName()
	if obj, ok := o.built[name]; ok {
		return obj
	}
	if o.building[name] {
		o.problems.add(m.Desc, nil, "%s is recursive; a tool parameter cannot nest it in itself", name)
		return nil
	}
	o.building[name] = true
	defer delete(o.building, name)
	if !o.checkMessage(m) {
		return nil
	}
	required, ok := o.required(m)
	if !ok {
		return nil
	}
	obj := &object{msg: m}
	seen := map[string]bool{}
	for _, f := range m.Fields {
		opts, _ := proto.GetExtension(f.Desc.Options(), optionsv1.E_Param).(*optionsv1.ParamOptions)
		pname := string(f.Desc.Name())
		if opts.GetName() != "" {
			pname = opts.GetName()
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
		p.required = required[f.Desc.Number()] && !isOptionalScalar(f)
		p.agentText = opts.GetAgentText()
		p.scope, p.attribution = opts.GetScope(), opts.GetAttribution()
		if p.agentText && f.Desc.Kind() != protoreflect.StringKind {
			o.problems.add(f.Desc, nil, "agent_text is set on %s, which is not a string", f.Desc.FullName())
		}
		if p.attribution != optionsv1.Attribution_ATTRIBUTION_UNSPECIFIED && (!p.agentText || f.Desc.IsList()) {
			o.problems.add(f.Desc, nil, "attribution is set on %s, which is not a singular agent_text string", f.Desc.FullName())
		}
		obj.params = append(obj.params, p)
	}
	o.built[name] = obj
	return obj
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
	for _, oneof := range m.Oneofs {
		if !oneof.Desc.IsSynthetic() {
			o.problems.add(oneof.Desc, nil, "oneof %s in %s: a tool parameter cannot be a oneof", oneof.Desc.Name(), m.Desc.FullName())
			return false
		}
	}
	return true
}

func (o *objects) param(f *protogen.Field, name, description string) *param {
	if !paramNameShape.MatchString(name) {
		o.problems.add(f.Desc, nil, "parameter name %q of %s must match %s", name, f.Desc.FullName(), paramNameShape)
		return nil
	}
	p := &param{name: name, description: description, field: f}
	if rules, ok := proto.GetExtension(f.Desc.Options(), validate.E_Field).(*validate.FieldRules); ok &&
		rules.GetIgnore() != validate.Ignore_IGNORE_ALWAYS {
		p.rules = rules
	}
	switch {
	case f.Desc.IsMap():
		o.problems.add(f.Desc, nil, "%s is a map; tool parameters cannot be maps", f.Desc.FullName())
		return nil
	case f.Desc.Kind() == protoreflect.BytesKind || f.Desc.Kind() == protoreflect.GroupKind:
		o.problems.add(f.Desc, nil, "%s is %s; tool parameters cannot be", f.Desc.FullName(), f.Desc.Kind())
		return nil
	case f.Message != nil:
		if f.Message.Desc.ParentFile().Package() == "google.protobuf" {
			o.problems.add(f.Desc, nil, "%s is a well-known type (%s); tool parameters cannot be", f.Desc.FullName(), f.Message.Desc.FullName())
			return nil
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

// enumValues lists the values the model may name: those with a model name,
// narrowed by the enum's const/in/not_in rules.
func (o *objects) enumValues(f *protogen.Field, rules *validate.FieldRules) []enumValue {
	er := rules.GetEnum()
	if f.Desc.IsList() {
		er = rules.GetRepeated().GetItems().GetEnum()
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

func containsInt(list []int32, n int32) bool {
	for _, v := range list {
		if v == n {
			return true
		}
	}
	return false
}

// required reports the fields of m whose proto default fails validation:
// exactly the fields the model must give. It runs protovalidate on an
// empty message, so it agrees with the runtime by construction.
func (o *objects) required(m *protogen.Message) (map[protoreflect.FieldNumber]bool, bool) {
	out := map[protoreflect.FieldNumber]bool{}
	err := o.validator.Validate(dynamicpb.NewMessage(m.Desc))
	var verr *protovalidate.ValidationError
	switch {
	case err == nil:
	case errors.As(err, &verr):
		for _, v := range verr.Violations {
			if path := v.Proto.GetField().GetElements(); len(path) > 0 {
				out[protoreflect.FieldNumber(path[0].GetFieldNumber())] = true
			}
		}
	default:
		o.problems.add(m.Desc, nil, "the buf.validate rules of %s do not compile: %v", m.Desc.FullName(), err)
		return nil, false
	}
	return out, true
}

// isOptionalScalar: a proto3 optional (or explicit-presence) scalar is
// never required; leaving it out is how the model says "not set".
func isOptionalScalar(f *protogen.Field) bool {
	return f.Desc.HasPresence() && f.Message == nil && !f.Desc.IsList()
}
