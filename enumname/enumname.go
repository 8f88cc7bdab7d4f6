// Package enumname spells enum values as the model sees them: a value's
// (forgetools.options.v1.value).name, else its proto name. The runtime,
// the gateway and generated code all ask here, so a code the gateway logs,
// a choice the runtime lists and a value a tool renders are spelled alike.
package enumname

import (
	"strconv"
	"sync"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
)

// names caches each enum's model names by value number: reading an option
// allocates, and an enum never changes while the process runs.
var names sync.Map // protoreflect.EnumDescriptor -> map[protoreflect.EnumNumber]string

// Number is the model-facing spelling of an enum value: its
// (forgetools.options.v1.value).name ("not_found", "github"), else its proto
// name, else (a number outside the enum) the number itself.
func Number(ed protoreflect.EnumDescriptor, n protoreflect.EnumNumber) string {
	m, ok := names.Load(ed)
	if !ok {
		built := map[protoreflect.EnumNumber]string{}
		values := ed.Values()
		for i := range values.Len() {
			ev := values.Get(i)
			built[ev.Number()] = string(ev.Name())
			if o, ok := proto.GetExtension(ev.Options(), optionsv1.E_Value).(*optionsv1.EnumValueOptions); ok && o.GetName() != "" {
				built[ev.Number()] = o.GetName()
			}
		}
		m, _ = names.LoadOrStore(ed, built)
	}
	if name, ok := m.(map[protoreflect.EnumNumber]string)[n]; ok {
		return name
	}
	return strconv.Itoa(int(n))
}

// Of is Number for a generated enum value.
func Of(e protoreflect.Enum) string { return Number(e.Descriptor(), e.Number()) }
