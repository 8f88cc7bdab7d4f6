package runtime

import (
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/violation"
)

// dispatchOf finds a table's dispatch message: the input of the table's
// procedure, in the registry the generated code registered its files in.
// It returns nil for a table without a procedure or whose service is not
// linked into the program.
func dispatchOf(table *Table) protoreflect.MessageDescriptor {
	service, method, ok := strings.Cut(strings.TrimPrefix(table.Procedure, "/"), "/")
	if !ok {
		return nil
	}
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(service))
	if err != nil {
		return nil
	}
	sd, ok := d.(protoreflect.ServiceDescriptor)
	if !ok {
		return nil
	}
	md := sd.Methods().ByName(protoreflect.Name(method))
	if md == nil {
		return nil
	}
	return md.Input()
}

// requestOf is the request message of the dispatch arm whose tool option
// names tool; nil when there is none.
func requestOf(dispatch protoreflect.MessageDescriptor, tool string) protoreflect.MessageDescriptor {
	if dispatch == nil {
		return nil
	}
	fields := dispatch.Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if o, ok := proto.GetExtension(fd.Options(), optionsv1.E_Tool).(*optionsv1.ToolOptions); ok && o.GetName() == tool {
			return fd.Message()
		}
	}
	return nil
}

// selectorOf returns the dispatch message's forge selector field and the
// flat parameter name of each of its fields, keyed by field name; nil when
// the message has no selector.
func selectorOf(dispatch protoreflect.MessageDescriptor) (protoreflect.FieldDescriptor, map[string]string) {
	if dispatch == nil {
		return nil, nil
	}
	fields := dispatch.Fields()
	for i := range fields.Len() {
		o, ok := proto.GetExtension(fields.Get(i).Options(), optionsv1.E_Envelope).(*optionsv1.EnvelopeOptions)
		if ok && o.GetRole() == optionsv1.EnvelopeRole_ENVELOPE_ROLE_FORGE_SELECTOR {
			return fields.Get(i), o.GetParams()
		}
	}
	return nil, nil
}

// paramField walks a parameter path ("comments[2].line") through md by
// parameter names and returns the last field; nil when a step names no
// field.
func paramField(md protoreflect.MessageDescriptor, path string, name violation.Namer) protoreflect.FieldDescriptor {
	var fd protoreflect.FieldDescriptor
	for step := range strings.SplitSeq(path, ".") {
		if i := strings.IndexByte(step, '['); i >= 0 {
			step = step[:i]
		}
		if md == nil {
			return nil
		}
		fd = nil
		fields := md.Fields()
		for i := range fields.Len() {
			if name(fields.Get(i), false) == step {
				fd = fields.Get(i)
				break
			}
		}
		if fd == nil {
			return nil
		}
		md = fd.Message()
	}
	return fd
}
