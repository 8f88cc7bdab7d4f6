package generator

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// How buf.validate standard rules become JSON Schema keywords, and how the
// ones without a keyword become sentences.

// stringRules maps the string rules JSON Schema can express and states the
// others.
func stringRules(s *schema, path string, r *validate.StringRules) []string {
	var rest []string
	r.ProtoReflect().Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch name := fd.Name(); name {
		case "min_len":
			s.MinLength = ptr(v.Uint())
		case "max_len":
			s.MaxLength = ptr(v.Uint())
		case "len":
			s.MinLength, s.MaxLength = ptr(v.Uint()), ptr(v.Uint())
		case "pattern":
			s.Pattern = v.String()
		case "const":
			s.Const = v.String()
		case "in":
			s.Enum = strs(v.List())
		case "not_in":
			s.Not = &schema{Enum: strs(v.List())}
		case "email", "hostname", "uri", "uuid", "ipv4", "ipv6":
			if v.Bool() {
				s.Format = string(name)
			}
		default:
			rest = append(rest, ruleSentence(path, fd, v))
		}
		return true
	})
	// A pattern that cannot match "" (such as the non-blank "\S") already
	// says minLength 1; the schema is sent every turn, so say it once.
	if s.MinLength != nil && *s.MinLength == 1 && s.Pattern != "" {
		if re, err := regexp.Compile(s.Pattern); err == nil && !re.MatchString("") {
			s.MinLength = nil
		}
	}
	return rest
}

// numberRules maps bounds, const and in/not_in; a gt above lt (an
// exclusive range: "outside lt..gt") has no single-schema form and is
// stated instead.
func numberRules(s *schema, path string, r protoreflect.Message) []string {
	if r == nil {
		return nil
	}
	var rest []string
	lower, upper := r.Descriptor().Oneofs().ByName("greater_than"), r.Descriptor().Oneofs().ByName("less_than")
	if lower != nil && upper != nil {
		lo, hi := r.WhichOneof(lower), r.WhichOneof(upper)
		if lo != nil && hi != nil && compare(r.Get(lo), r.Get(hi)) >= 0 {
			return []string{fmt.Sprintf("%s: must be %s %s or %s %s.", path, words[hi.Name()], number(r.Get(hi)), words[lo.Name()], number(r.Get(lo)))}
		}
	}
	r.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch fd.Name() {
		case "gte":
			s.Minimum = number(v)
		case "gt":
			s.ExclusiveMinimum = number(v)
		case "lte":
			s.Maximum = number(v)
		case "lt":
			s.ExclusiveMaximum = number(v)
		case "const":
			s.Const = json.Number(number(v))
		case "in":
			s.Enum = nums(v.List())
		case "not_in":
			s.Not = &schema{Enum: nums(v.List())}
		case "finite": // JSON has no NaN or infinity: always true of a decoded value
		default:
			rest = append(rest, ruleSentence(path, fd, v))
		}
		return true
	})
	return rest
}

var words = map[protoreflect.Name]string{"lt": "below", "lte": "at most", "gt": "above", "gte": "at least"}

// ruleSentence states a standard rule the generator does not map, in the
// rule's own terms, so nothing the runtime enforces goes unsaid.
func ruleSentence(path string, fd protoreflect.FieldDescriptor, v protoreflect.Value) string {
	var value string
	switch {
	case fd.IsList():
		value = "[" + strings.Join(anyStrings(v.List()), ", ") + "]"
	case fd.Kind() == protoreflect.StringKind:
		value = strconv.Quote(v.String())
	default:
		value = fmt.Sprint(v.Interface())
	}
	verb, ok := ruleWords[fd.Name()]
	if !ok {
		verb = string(fd.Name())
	}
	return fmt.Sprintf("%s: %s %s.", path, verb, value)
}

var ruleWords = map[protoreflect.Name]string{
	"prefix":       "must start with",
	"suffix":       "must end with",
	"contains":     "must contain",
	"not_contains": "must not contain",
	"min_bytes":    "must have at least this many bytes:",
	"max_bytes":    "must have at most this many bytes:",
}

// numericRules returns the rules message for a numeric field kind.
func numericRules(k protoreflect.Kind, r *validate.FieldRules) protoreflect.Message {
	var m proto.Message
	switch k {
	case protoreflect.Int32Kind:
		m = r.GetInt32()
	case protoreflect.Int64Kind:
		m = r.GetInt64()
	case protoreflect.Uint32Kind:
		m = r.GetUint32()
	case protoreflect.Uint64Kind:
		m = r.GetUint64()
	case protoreflect.Sint32Kind:
		m = r.GetSint32()
	case protoreflect.Sint64Kind:
		m = r.GetSint64()
	case protoreflect.Fixed32Kind:
		m = r.GetFixed32()
	case protoreflect.Fixed64Kind:
		m = r.GetFixed64()
	case protoreflect.Sfixed32Kind:
		m = r.GetSfixed32()
	case protoreflect.Sfixed64Kind:
		m = r.GetSfixed64()
	case protoreflect.FloatKind:
		m = r.GetFloat()
	case protoreflect.DoubleKind:
		m = r.GetDouble()
	}
	if m == nil || !m.ProtoReflect().IsValid() {
		return nil
	}
	return m.ProtoReflect()
}

func isUnsigned(k protoreflect.Kind) bool {
	return k == protoreflect.Uint32Kind || k == protoreflect.Uint64Kind ||
		k == protoreflect.Fixed32Kind || k == protoreflect.Fixed64Kind
}

// number formats a rule value as a JSON number.
func number(v protoreflect.Value) json.Number {
	switch x := v.Interface().(type) {
	case float32:
		return json.Number(strconv.FormatFloat(float64(x), 'g', -1, 32))
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return ""
		}
		return json.Number(strconv.FormatFloat(x, 'g', -1, 64))
	default:
		return json.Number(fmt.Sprint(x))
	}
}

func compare(a, b protoreflect.Value) int {
	fa, _ := strconv.ParseFloat(string(number(a)), 64)
	fb, _ := strconv.ParseFloat(string(number(b)), 64)
	switch {
	case fa < fb:
		return -1
	case fa > fb:
		return 1
	}
	return 0
}

func strs(l protoreflect.List) []any {
	out := make([]any, l.Len())
	for i := range out {
		out[i] = l.Get(i).String()
	}
	return out
}

func nums(l protoreflect.List) []any {
	out := make([]any, l.Len())
	for i := range out {
		out[i] = number(l.Get(i))
	}
	return out
}

func anyStrings(l protoreflect.List) []string {
	out := make([]string, l.Len())
	for i := range out {
		out[i] = fmt.Sprint(l.Get(i).Interface())
	}
	return out
}

func ptr[T any](v T) *T { return &v }
