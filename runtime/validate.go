package runtime

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/runtime/render"
)

// validator is shared by every Toolset in the process: it compiles each
// message type's rules once and caches them.
var validator = sync.OnceValues(func() (protovalidate.Validator, error) {
	return protovalidate.New()
})

// paramNamer spells a field path the way the model wrote it: parameter
// names, list indexes, and the flat selector names.
type paramNamer func(fd protoreflect.FieldDescriptor, top bool) string

// validateArgs checks a decoded request (and the selector, when given) with
// the same buf.validate rules the gateway enforces, and phrases every
// violation for the model ("repo: must not be blank").
func validateArgs(args Args, selector map[string]string) error {
	v, err := validator()
	if err != nil {
		return fmt.Errorf("validator unavailable: %w", err)
	}
	var lines []string
	for _, part := range []struct {
		msg   proto.Message
		namer paramNamer
	}{
		{args.Request, paramName},
		{args.Forge, selectorName(selector)},
	} {
		if part.msg == nil {
			continue
		}
		var ve *protovalidate.ValidationError
		if err := v.Validate(part.msg); errors.As(err, &ve) {
			for _, vi := range ve.Violations {
				lines = append(lines, phrase(part.msg.ProtoReflect().Descriptor(), vi, part.namer))
			}
		} else if err != nil {
			return err
		}
	}
	if len(lines) == 0 {
		return nil
	}
	// An empty string breaks min_len and the non-blank pattern alike; say it
	// once.
	return errors.New(strings.Join(slices.Compact(lines), "; "))
}

// paramName is a request field's parameter name: its (param).name, else the
// field name.
func paramName(fd protoreflect.FieldDescriptor, _ bool) string {
	if o, ok := proto.GetExtension(fd.Options(), optionsv1.E_Param).(*optionsv1.ParamOptions); ok && o.GetName() != "" {
		return o.GetName()
	}
	return string(fd.Name())
}

// selectorName maps the selector message's top-level fields to their flat
// parameter names (provider -> forge_provider).
func selectorName(params map[string]string) paramNamer {
	return func(fd protoreflect.FieldDescriptor, top bool) string {
		if p, ok := params[string(fd.Name())]; ok && top {
			return p
		}
		return paramName(fd, top)
	}
}

// phrase turns one violation into "path: rule in plain words".
func phrase(md protoreflect.MessageDescriptor, vi *protovalidate.Violation, name paramNamer) string {
	path, fd := fieldPath(md, vi.Proto.GetField(), name)
	text := ruleText(vi, fd)
	if path == "" {
		return text
	}
	return path + ": " + text
}

// fieldPath walks a violation's field path through md, returning it spelled
// with parameter names ("comments[0].body") and the last field's descriptor.
func fieldPath(md protoreflect.MessageDescriptor, fp *validate.FieldPath, name paramNamer) (string, protoreflect.FieldDescriptor) {
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
		id == "string.pattern" && val("pattern") == `\S`:
		return "must not be blank"
	case id == "string.min_len" && val("min_len") != "":
		return "must be at least " + val("min_len") + " characters"
	case id == "string.max_len" && val("max_len") != "":
		return "must be at most " + val("max_len") + " characters"
	case id == "string.pattern" && val("pattern") != "":
		return "must match the pattern " + val("pattern")
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

// boundsText states a numeric field's buf.validate bounds in the words a
// violation of them gets ("must be between 1 and 2147483647"); "" when the
// field has none. A number outside its proto type's range is out of the
// tool's bounds too, and the model needs the tool's, not the type's.
func boundsText(fd protoreflect.FieldDescriptor) string {
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
	var names []string
	for i := range ed.Values().Len() {
		if ev := ed.Values().Get(i); ev.Number() != 0 {
			names = append(names, render.EnumName(ed, ev.Number()))
		}
	}
	return strings.Join(names, ", ")
}
