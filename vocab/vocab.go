// Package vocab is the model-facing vocabulary that the agent runtime and
// the gateway share: the names enum values take for the model, and
// protovalidate violations phrased in the model's terms. Each fact is
// computed here once, so a code the gateway logs, a choice the runtime
// lists and a value a tool renders are always spelled alike.
package vocab

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

// EnumName is the model-facing spelling of an enum value: its
// (forgetools.options.v1.value).name ("not_found", "github"), else its proto
// name, else (a number outside the enum) the number itself.
func EnumName(ed protoreflect.EnumDescriptor, n protoreflect.EnumNumber) string {
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

// Name is EnumName for a generated enum value.
func Name(e protoreflect.Enum) string { return EnumName(e.Descriptor(), e.Number()) }

// NonBlank is the project's non-blank rule as a buf.validate pattern: at
// least one character that is not Unicode White_Space (U+0009 to U+000D,
// U+0085 and the separators, \p{Z}), so a string of no-break or other
// Unicode spaces is blank. RE2 (the runtime, the gateway, Go clients) and
// ECMA-262 with the u flag (JavaScript clients) read it alike; \S would
// not (RE2's is ASCII-only).
const NonBlank = `[^\t-\r\x85\p{Z}]`

// IsNonBlank reports whether a pattern is a non-blank rule: NonBlank, or
// the ASCII-only \S of tables written before it.
func IsNonBlank(pattern string) bool { return pattern == NonBlank || pattern == `\S` }
