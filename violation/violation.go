package violation

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/forgetools/forgetools/charset"
	"github.com/forgetools/forgetools/enumname"
)

// Namer spells one field of a violation's path; top is true for the first
// element, the field of the validated message itself.
type Namer func(fd protoreflect.FieldDescriptor, top bool) string

// FieldNames spells every field by its proto name: what a wire-level caller
// of the gateway sent ("create_issue.repo").
func FieldNames(fd protoreflect.FieldDescriptor, _ bool) string { return string(fd.Name()) }

// All phrases every violation of a validation of a message of type
// md as "path: rule in plain words", in order and without repeats (an empty
// string breaks min_len and the non-blank pattern alike; it is said once).
func All(md protoreflect.MessageDescriptor, ve *protovalidate.ValidationError, name Namer) []string {
	lines := make([]string, 0, len(ve.Violations))
	blank := map[string]bool{} // paths already said to be blank
	for _, vi := range ve.Violations {
		path, text := phrase(md, vi, name)
		if blank[path] {
			// A blank value breaks its pattern too; once is enough.
			continue
		}
		blank[path] = text == blankText
		lines = append(lines, join(path, text))
	}
	return slices.Compact(lines)
}

// One phrases one violation.
func One(md protoreflect.MessageDescriptor, vi *protovalidate.Violation, name Namer) string {
	return join(phrase(md, vi, name))
}

func phrase(md protoreflect.MessageDescriptor, vi *protovalidate.Violation, name Namer) (path, text string) {
	path, fd := fieldPath(md, vi.Proto.GetField(), name)
	return path, ruleText(vi, fd)
}

func join(path, text string) string {
	if path == "" {
		return text
	}
	return path + ": " + text
}

// fieldPath walks a violation's field path through md, returning it spelled
// by name ("comments[0].body") and the last field's descriptor.
func fieldPath(md protoreflect.MessageDescriptor, fp *validate.FieldPath, name Namer) (string, protoreflect.FieldDescriptor) {
	var b strings.Builder
	var fd protoreflect.FieldDescriptor
	for i, el := range fp.GetElements() {
		if md != nil {
			fd = md.Fields().ByNumber(protoreflect.FieldNumber(el.GetFieldNumber()))
		}
		if i > 0 {
			b.WriteByte('.')
		}
		if fd != nil {
			b.WriteString(name(fd, i == 0))
			md = fd.Message()
		} else {
			b.WriteString(el.GetFieldName())
			md = nil
		}
		switch s := el.GetSubscript().(type) {
		case *validate.FieldPathElement_Index:
			fmt.Fprintf(&b, "[%d]", s.Index)
		case *validate.FieldPathElement_StringKey:
			fmt.Fprintf(&b, "[%q]", s.StringKey)
		}
	}
	return b.String(), fd
}

// blank reports whether v is a string of only Unicode White_Space: the
// complement of NonBlank.
func blank(v protoreflect.Value) bool {
	s, ok := v.Interface().(string)
	return ok && strings.TrimFunc(s, isWhiteSpace) == ""
}

// isWhiteSpace is NonBlank's complement as a rune test: U+0009 to U+000D,
// U+0085 and \p{Z}.
func isWhiteSpace(r rune) bool {
	return r >= '\t' && r <= '\r' || r == 0x85 || unicode.Is(unicode.Z, r)
}

// blankText is what an empty or blank required string is told.
const blankText = "must not be blank"

// ruleText says what a standard rule demands in the model's terms; custom
// (CEL) rules speak for themselves through their message.
func ruleText(vi *protovalidate.Violation, fd protoreflect.FieldDescriptor) string {
	id := vi.Proto.GetRuleId()
	rules := ruleParent(fd, vi.Proto.GetRule())
	_, kind, _ := strings.Cut(id, ".")
	val := func(name string) string {
		if rules == nil {
			return ""
		}
		f := rules.Descriptor().Fields().ByName(protoreflect.Name(name))
		if f == nil || !rules.Has(f) {
			return ""
		}
		return rules.Get(f).String()
	}
	switch {
	case id == "string.min_len" && val("min_len") == "1",
		id == "string.pattern" && charset.IsNonBlank(val("pattern")):
		return blankText
	case id == "string.min_len" && val("min_len") != "":
		return "must be at least " + val("min_len") + " characters"
	case id == "string.max_len" && val("max_len") != "":
		return "must be at most " + val("max_len") + " characters"
	case id == "string.pattern" && blank(vi.FieldValue):
		// Whatever the pattern, a blank value is best told it is blank.
		return blankText
	case id == "string.pattern" && val("pattern") != "":
		return charset.PatternWords(val("pattern"))
	case kind == "gte_lte" && val("gte") != "" && val("lte") != "":
		return "must be between " + val("gte") + " and " + val("lte")
	case kind == "gte" && val("gte") != "":
		return "must be at least " + val("gte")
	case kind == "lte" && val("lte") != "":
		return "must be at most " + val("lte")
	case id == "enum.defined_only" && fd != nil && fd.Enum() != nil:
		return "must be one of " + enumChoices(fd.Enum())
	case id == "required":
		return "is required"
	case id == "repeated.max_items" && val("max_items") != "":
		return "must have at most " + val("max_items") + " items"
	case id == "repeated.min_items" && val("min_items") != "":
		return "must have at least " + val("min_items") + " items"
	}
	msg := vi.Proto.GetMessage()
	if msg == "" {
		msg = "breaks rule " + id
	}
	return strings.TrimPrefix(msg, "value ")
}

// Bounds states a numeric field's buf.validate bounds in the words a
// violation of them gets ("must be between 1 and 2147483647"); "" when the
// field has none. A number outside its proto type's range is out of the
// tool's bounds too, and the model needs the tool's, not the type's.
func Bounds(fd protoreflect.FieldDescriptor) string {
	rules, ok := proto.GetExtension(fd.Options(), validate.E_Field).(*validate.FieldRules)
	if !ok || rules == nil {
		return ""
	}
	typed := rules.ProtoReflect().WhichOneof(rules.ProtoReflect().Descriptor().Oneofs().ByName("type"))
	if typed == nil || typed.Message() == nil {
		return ""
	}
	m := rules.ProtoReflect().Get(typed).Message()
	val := func(name string) string {
		f := m.Descriptor().Fields().ByName(protoreflect.Name(name))
		if f == nil || !m.Has(f) {
			return ""
		}
		return m.Get(f).String()
	}
	lo, hi := val("gte"), val("lte")
	switch {
	case lo != "" && hi != "":
		return "must be between " + lo + " and " + hi
	case lo != "":
		return "must be at least " + lo
	case hi != "":
		return "must be at most " + hi
	}
	return ""
}

// ruleParent finds the rules message holding the violated rule, e.g. the
// UInt32Rules of "limit" for rule path uint32.gte, by walking the rule path
// from the field's (buf.validate.field) options. Its sibling fields give the
// other end of a range.
func ruleParent(fd protoreflect.FieldDescriptor, rule *validate.FieldPath) protoreflect.Message {
	if fd == nil {
		return nil
	}
	m := proto.GetExtension(fd.Options(), validate.E_Field).(*validate.FieldRules).ProtoReflect()
	els := rule.GetElements()
	for i, el := range els {
		if i == len(els)-1 {
			return m
		}
		f := m.Descriptor().Fields().ByNumber(protoreflect.FieldNumber(el.GetFieldNumber()))
		if f == nil || f.Message() == nil || f.IsList() || !m.Has(f) {
			return nil
		}
		m = m.Get(f).Message()
	}
	return nil
}

// enumChoices lists an enum's values as the model spells them, without the
// zero value (which means "omitted").
func enumChoices(ed protoreflect.EnumDescriptor) string {
	var out []string
	for i := range ed.Values().Len() {
		if ev := ed.Values().Get(i); ev.Number() != 0 {
			out = append(out, enumname.Number(ed, ev.Number()))
		}
	}
	return strings.Join(out, ", ")
}
