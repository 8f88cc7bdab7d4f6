package generator

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

// The buf.validate rules of each field are checked where they are written:
// a rule for another type, a pattern that does not compile or has no
// portable form, and (through protovalidate) a CEL expression that does
// not compile are each reported at the field's line, all of them in one
// run. protovalidate itself stops at the first problem of a message and
// names no line.

// checkRules reports the problems of one field's rules; false when there
// are any.
func (o *objects) checkRules(fd protoreflect.FieldDescriptor, rules *validate.FieldRules) bool {
	var msgs []string
	o.ruleProblems(&msgs, "", fd, rules)
	for _, m := range msgs {
		o.problems.add(fd, nil, "%s: %s", fd.FullName(), m)
	}
	return len(msgs) == 0
}

// ruleProblems checks rules against the values of fd they apply to: the
// field itself, or (at) its items, keys or values.
func (o *objects) ruleProblems(out *[]string, at string, fd protoreflect.FieldDescriptor, rules *validate.FieldRules) {
	if rules == nil {
		return
	}
	want := ruleKind(fd)
	switch {
	case at == "" && fd.IsList():
		want = "repeated"
	case at == "" && fd.IsMap():
		want = "map"
	}
	got := ""
	if f := rules.ProtoReflect().WhichOneof(rules.ProtoReflect().Descriptor().Oneofs().ByName("type")); f != nil {
		got = string(f.Name())
	}
	if got != "" && got != want {
		what := "a " + strings.TrimPrefix(want, "message ") + " field"
		if want == "" || strings.HasPrefix(want, "message ") {
			what = "a message field, which takes only required and CEL rules"
		}
		*out = append(*out, fmt.Sprintf("%s(buf.validate.field).%s rules on %s", at, got, what))
		return
	}
	switch got {
	case "repeated":
		o.ruleProblems(out, at+"items: ", fd, rules.GetRepeated().GetItems())
		return
	case "map":
		o.ruleProblems(out, at+"keys: ", fd.MapKey(), rules.GetMap().GetKeys())
		o.ruleProblems(out, at+"values: ", fd.MapValue(), rules.GetMap().GetValues())
		return
	case "string":
		if p := rules.GetString(); p.HasPattern() {
			if _, err := portable(p.GetPattern()); err != nil {
				*out = append(*out, at+err.Error())
			}
		}
	case "bytes":
		if p := rules.GetBytes(); p.HasPattern() {
			if _, err := regexp.Compile(p.GetPattern()); err != nil {
				*out = append(*out, fmt.Sprintf("%sbytes pattern %q does not compile: %v", at, p.GetPattern(), err))
			}
		}
	}
}

// ruleKind is the (buf.validate.field) rules type a value of fd takes:
// its kind's name ("string", "sint32", "enum"), the wrapped scalar's for a
// wrapper, "duration" or "timestamp", else "message <name>".
func ruleKind(fd protoreflect.FieldDescriptor) string {
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		name := fd.Message().FullName()
		if k, ok := wrapped[name]; ok {
			return k.String()
		}
		switch name {
		case "google.protobuf.Duration":
			return "duration"
		case "google.protobuf.Timestamp":
			return "timestamp"
		case "google.protobuf.Any":
			return "any"
		case "google.protobuf.FieldMask":
			return "field_mask"
		}
		return "message " + string(name)
	}
	return fd.Kind().String()
}

// required reports the fields of m whose proto default fails validation:
// exactly the fields the model must give. It runs protovalidate on an
// empty message, so it agrees with the runtime by construction. Rules that
// do not compile are reported at the field they are on (or at the
// message's own rules).
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
		o.uncompiled(m, err)
		return nil, false
	}
	return out, true
}

// uncompiled reports rules of m that protovalidate could not compile: at
// each field whose rules fail alone, else at the message's rules.
func (o *objects) uncompiled(m *protogen.Message, err error) {
	found := false
	for _, f := range m.Fields {
		if f.Message != nil && !f.Desc.IsMap() && f.Message.Desc.ParentFile().Package() != "google.protobuf" {
			continue // a nested message's rules are checked with it
		}
		if ferr := o.compileField(f); ferr != nil {
			o.problems.add(f.Desc, nil, "%s: the buf.validate rules do not compile: %v", f.Desc.FullName(), cause(ferr))
			found = true
		}
	}
	if !found {
		o.problems.add(m.Desc, messageRulesPath, "the buf.validate rules of %s do not compile: %v", m.Desc.FullName(), cause(err))
	}
}

// messageRulesPath is the source path of (buf.validate.message) in a
// message's options.
var messageRulesPath = []int32{7, int32(validate.E_Message.TypeDescriptor().Number())}

// cause is the first line of a compile error (CEL adds a caret drawing on
// the lines after), so each refusal stays one "file:line: message" line.
func cause(err error) string {
	first, _, _ := strings.Cut(err.Error(), "\n")
	return strings.TrimPrefix(first, "compilation error: ")
}

// compileField compiles the rules of f alone, on a copy of f in a message
// of its own, so a failure is f's.
func (o *objects) compileField(f *protogen.Field) error {
	fdp := protodesc.ToFieldDescriptorProto(f.Desc)
	fdp.OneofIndex, fdp.Proto3Optional = nil, nil
	msg := &descriptorpb.DescriptorProto{Name: proto.String("Probe"), Field: []*descriptorpb.FieldDescriptorProto{fdp}}
	deps := []string{f.Desc.ParentFile().Path()}
	if f.Desc.IsMap() {
		entry := protodesc.ToDescriptorProto(f.Message.Desc)
		msg.NestedType = append(msg.NestedType, entry)
		fdp.TypeName = proto.String(".forgetools.probe.Probe." + entry.GetName())
		for _, e := range []*protogen.Field{f.Message.Fields[0], f.Message.Fields[1]} {
			deps = appendTypeFile(deps, e)
		}
	} else {
		deps = appendTypeFile(deps, f)
	}
	src := protodesc.ToFileDescriptorProto(f.Desc.ParentFile())
	file := &descriptorpb.FileDescriptorProto{
		Name:        proto.String("forgetools/probe/" + string(f.Desc.FullName()) + ".proto"),
		Package:     proto.String("forgetools.probe"),
		Syntax:      src.Syntax,
		Edition:     src.Edition,
		Dependency:  deps,
		MessageType: []*descriptorpb.DescriptorProto{msg},
	}
	fd, err := protodesc.NewFile(file, o.files)
	if err != nil {
		return fmt.Errorf("internal: probing the field: %w", err)
	}
	err = o.validator.Validate(dynamicpb.NewMessage(fd.Messages().Get(0)))
	var verr *protovalidate.ValidationError
	if errors.As(err, &verr) {
		return nil // compiled; an empty value may well be invalid
	}
	return err
}

func appendTypeFile(deps []string, f *protogen.Field) []string {
	var file string
	switch {
	case f.Message != nil:
		file = f.Message.Desc.ParentFile().Path()
	case f.Enum != nil:
		file = f.Enum.Desc.ParentFile().Path()
	default:
		return deps
	}
	if !slices.Contains(deps, file) {
		deps = append(deps, file)
	}
	return deps
}

// filesOf registers every file of the plugin run, for compileField.
func filesOf(plugin *protogen.Plugin) *protoregistry.Files {
	files := new(protoregistry.Files)
	for _, f := range plugin.Files {
		_ = files.RegisterFile(f.Desc) // a file registered twice is the same file
	}
	return files
}
