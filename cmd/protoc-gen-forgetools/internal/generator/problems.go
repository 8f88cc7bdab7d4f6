package generator

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// problems collects every refusal of a bad table, each pointing at the
// proto source line that causes it, so one run reports them all.
type problems []string

// add records a refusal at d, or more precisely at the sub-path of d's
// source location given by at (for an option inside d's options), when the
// compiler recorded a location for it.
func (p *problems) add(d protoreflect.Descriptor, at []int32, format string, args ...any) {
	*p = append(*p, position(d, at)+": "+fmt.Sprintf(format, args...))
}

func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return refusal(p)
}

// refusal is the error a bad table produces: one "file:line: message" per
// line.
type refusal []string

func (r refusal) Error() string { return strings.Join(r, "\n") }

// position is "file:line" (1-based) for d, preferring the most specific
// recorded location along at.
func position(d protoreflect.Descriptor, at []int32) string {
	file := d.ParentFile()
	locs := file.SourceLocations()
	base := locs.ByDescriptor(d)
	for n := len(at); n >= 0; n-- {
		path := append(append(protoreflect.SourcePath{}, base.Path...), at[:n]...)
		if loc := locs.ByPath(path); len(loc.Path) > 0 {
			return fmt.Sprintf("%s:%d", file.Path(), loc.StartLine+1)
		}
	}
	return file.Path()
}

// optionPath is the source path from a descriptor to one field of one of
// its custom options, e.g. the ack of (forgetools.options.v1.tool) on a
// field: [8 (options), 51800 (tool), 7 (ack)].
func optionPath(owner protoreflect.Message, ext protoreflect.ExtensionType, field protoreflect.Name) []int32 {
	options := owner.Descriptor().Fields().ByName("options")
	path := []int32{int32(options.Number()), int32(ext.TypeDescriptor().Number())}
	if field != "" {
		f := ext.TypeDescriptor().Message().Fields().ByName(field)
		path = append(path, int32(f.Number()))
	}
	return path
}

// The descriptor messages whose "options" field number starts an option
// path.
var (
	fieldProto     = (&descriptorpb.FieldDescriptorProto{}).ProtoReflect()
	oneofProto     = (&descriptorpb.OneofDescriptorProto{}).ProtoReflect()
	enumValueProto = (&descriptorpb.EnumValueDescriptorProto{}).ProtoReflect()
)
