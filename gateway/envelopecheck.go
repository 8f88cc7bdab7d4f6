package gateway

import (
	"errors"
	"fmt"
	"sync"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

// Validating a request envelope whole costs a reflective presence check
// (protobuf-go's oneof Has, about 100 ns) for every arm the request leaves
// unset: some 4 µs a call at 34 arms, where the arm it sets costs well
// under 1 µs. So the gateway validates the two parts a request has apart,
// with the same rules and the same result:
//
//   - the arm it sets, as the message it is (protovalidate validates an
//     embedded message exactly so), its violations' paths prefixed with
//     the arm's field as the whole envelope's would be;
//   - every other field of the envelope (call id, forge selector, dedup
//     key), copied into a shell: a message type built once from the
//     envelope's own descriptor without its oneof, each field with its
//     number, type and buf.validate rules.
//
// The violations are put back in the order a whole validation gives them
// (by field declaration). The oneof's one rule, required, is the check
// before validation ("the request names no operation"). An envelope this
// split cannot mirror exactly (message-level rules, rules on an arm field,
// a second oneof, repeated, map or optional fields outside the oneof) is
// validated whole, as before.

// envelopeCheck is one envelope type's split validation.
type envelopeCheck struct {
	oneof protoreflect.OneofDescriptor
	shell protoreflect.MessageType // nil: validate the envelope whole
	// fields pairs each envelope field outside the oneof with the
	// shell's field of the same number.
	fields [][2]protoreflect.FieldDescriptor
	// shells are spare shells, cleared: one is filled per call.
	shells sync.Pool
}

var envelopeChecks sync.Map // protoreflect.MessageDescriptor -> *envelopeCheck

// envelopeCheckOf is md's split validation, built once per type.
func envelopeCheckOf(md protoreflect.MessageDescriptor) *envelopeCheck {
	if c, ok := envelopeChecks.Load(md); ok {
		return c.(*envelopeCheck)
	}
	c, err := newEnvelopeCheck(md)
	if err != nil {
		c = &envelopeCheck{} // validated whole
	}
	actual, _ := envelopeChecks.LoadOrStore(md, c)
	return actual.(*envelopeCheck)
}

func newEnvelopeCheck(md protoreflect.MessageDescriptor) (*envelopeCheck, error) {
	if md.Oneofs().Len() != 1 || md.Oneofs().Get(0).IsSynthetic() {
		return nil, fmt.Errorf("%s: not one oneof", md.FullName())
	}
	if hasRules(md.Options(), validate.E_Message) {
		return nil, fmt.Errorf("%s: message rules", md.FullName())
	}
	oneof := md.Oneofs().Get(0)
	dp := protodesc.ToDescriptorProto(md)
	shell := &descriptorpb.DescriptorProto{Name: proto.String(string(md.Name()) + "Shell")}
	for i, f := range dp.GetField() {
		fd := md.Fields().Get(i)
		if fd.ContainingOneof() != nil {
			if hasRules(fd.Options(), validate.E_Field) {
				return nil, fmt.Errorf("%s: rules on an arm", fd.FullName())
			}
			continue
		}
		if fd.IsList() || fd.IsMap() || fd.HasOptionalKeyword() || fd.IsExtension() {
			return nil, fmt.Errorf("%s: not a plain field", fd.FullName())
		}
		f.OneofIndex = nil
		shell.Field = append(shell.Field, f)
	}
	parent := md.ParentFile()
	file := &descriptorpb.FileDescriptorProto{
		Name:        proto.String(parent.Path() + ".envelope-shell"),
		Package:     proto.String(string(parent.Package())),
		Syntax:      proto.String(parent.Syntax().String()),
		MessageType: []*descriptorpb.DescriptorProto{shell},
	}
	// The shell's fields name their types by full name; it imports what
	// the envelope's file imports, and that file itself (for a type the
	// envelope's file declares).
	file.Dependency = append(file.Dependency, parent.Path())
	for i := range parent.Imports().Len() {
		file.Dependency = append(file.Dependency, parent.Imports().Get(i).Path())
	}
	if parent.Syntax() == protoreflect.Editions {
		return nil, fmt.Errorf("%s: editions", parent.Path())
	}
	fd, err := protodesc.NewFile(file, protoregistry.GlobalFiles)
	if err != nil {
		return nil, err
	}
	smd := fd.Messages().Get(0)
	c := &envelopeCheck{oneof: oneof, shell: dynamicpb.NewMessageType(smd)}
	for i := range smd.Fields().Len() {
		sf := smd.Fields().Get(i)
		c.fields = append(c.fields, [2]protoreflect.FieldDescriptor{md.Fields().ByNumber(sf.Number()), sf})
	}
	return c, nil
}

// hasRules reports whether options carry the buf.validate extension ext.
func hasRules(options proto.Message, ext protoreflect.ExtensionType) bool {
	return options != nil && proto.HasExtension(options, ext)
}

// validate validates req, an envelope of c's type, as v.Validate(req)
// would.
func (c *envelopeCheck) validate(v protovalidate.Validator, req proto.Message) error {
	m := req.ProtoReflect()
	var arm protoreflect.FieldDescriptor
	if c.shell != nil {
		arm = m.WhichOneof(c.oneof)
	}
	if arm == nil {
		return v.Validate(req)
	}
	shell, _ := c.shells.Get().(protoreflect.Message)
	if shell == nil {
		shell = c.shell.New()
	}
	for _, f := range c.fields {
		if m.Has(f[0]) {
			shell.Set(f[1], m.Get(f[0]))
		}
	}
	rest, err := violations(v.Validate(shell.Interface()))
	// The violations keep the values, not the shell: it can go back.
	for _, f := range c.fields {
		shell.Clear(f[1])
	}
	c.shells.Put(shell)
	if err != nil {
		return err
	}
	mine, err := violations(v.Validate(m.Get(arm).Message().Interface()))
	if err != nil {
		return err
	}
	if len(rest) == 0 && len(mine) == 0 {
		return nil
	}
	// The arm's violations as the envelope's: under the arm's field.
	el := validate.FieldPathElement_builder{
		FieldNumber: proto.Int32(int32(arm.Number())),
		FieldName:   proto.String(string(arm.Name())),
		FieldType:   descriptorpb.FieldDescriptorProto_Type(arm.Kind()).Enum(),
	}.Build()
	for _, vi := range mine {
		if vi.Proto.GetField() == nil {
			vi.Proto.SetField(&validate.FieldPath{})
		}
		vi.Proto.GetField().SetElements(append([]*validate.FieldPathElement{el}, vi.Proto.GetField().GetElements()...))
	}
	// In declaration order: the envelope's fields before the oneof, the
	// arm, the fields after it.
	out := make([]*protovalidate.Violation, 0, len(rest)+len(mine))
	first := c.oneof.Fields().Get(0).Index()
	before := func(vi *protovalidate.Violation) bool {
		els := vi.Proto.GetField().GetElements()
		if len(els) == 0 {
			return true
		}
		fd := m.Descriptor().Fields().ByNumber(protoreflect.FieldNumber(els[0].GetFieldNumber()))
		return fd != nil && fd.Index() < first
	}
	for _, vi := range rest {
		if before(vi) {
			out = append(out, vi)
		}
	}
	out = append(out, mine...)
	for _, vi := range rest {
		if !before(vi) {
			out = append(out, vi)
		}
	}
	return &protovalidate.ValidationError{Violations: out}
}

// violations splits a Validate result: a validation error's violations,
// or the error that is not one.
func violations(err error) ([]*protovalidate.Violation, error) {
	if err == nil {
		return nil, nil
	}
	var ve *protovalidate.ValidationError
	if !errors.As(err, &ve) {
		return nil, err
	}
	return ve.Violations, nil
}
