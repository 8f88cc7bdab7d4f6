package generator

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"github.com/forgetools/forgetools/runtime/schema"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// How buf.validate standard rules become JSON Schema keywords, and how the
// ones without a keyword become sentences. Every rule JSON Schema can
// express is in the schema (a pattern in the portable dialect, see
// portable); a rule it can only approximate is in both.

// stringRules maps the string rules and states the rest. nonZero: a
// required rule demands a non-empty string.
func stringRules(s *schema.Schema, path string, r *validate.StringRules, nonZero bool) []string {
	var rest []string
	if nonZero && !r.HasMinLen() && !r.HasLen() {
		s.MinLength = schema.Uint(1)
	}
	eachSet(r.ProtoReflect(), func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch name := fd.Name(); name {
		case "min_len":
			s.MinLength = schema.Uint(v.Uint())
		case "max_len":
			s.MaxLength = schema.Uint(v.Uint())
		case "len":
			s.MinLength, s.MaxLength = schema.Uint(v.Uint()), schema.Uint(v.Uint())
		case "min_bytes", "max_bytes", "len_bytes":
			// A character is 1 to 4 bytes of UTF-8: the length in characters
			// is bounded by the byte bounds, not fixed by them.
			n := v.Uint()
			if name != "max_bytes" {
				s.MinLength = maxPtr(s.MinLength, (n+3)/4)
			}
			if name != "min_bytes" {
				s.MaxLength = minPtr(s.MaxLength, n)
			}
			rest = append(rest, prefixed(path, byteWords[name]+" "+strconv.FormatUint(n, 10)+" bytes in UTF-8"))
		case "pattern":
			if p, err := portable(v.String()); err == nil { // else refused in checkRules
				addPattern(s, p)
			}
		case "prefix":
			addPattern(s, "^"+literalPattern(v.String()))
		case "suffix":
			addPattern(s, literalPattern(v.String())+"$")
		case "contains":
			addPattern(s, literalPattern(v.String()))
		case "not_contains":
			addNot(s, &schema.Schema{Pattern: literalPattern(v.String())})
		case "const":
			s.Const = v.String()
		case "in":
			s.Enum = strs(v.List())
		case "not_in":
			addNot(s, &schema.Schema{Enum: strs(v.List())})
		case "example":
			s.Examples = strs(v.List())
		case "strict": // modifies well_known_regex
		case "well_known_regex":
			strict := !r.HasStrict() || r.GetStrict()
			if p, err := portable(knownRegex(validate.KnownRegex(v.Enum()), strict)); err == nil {
				addPattern(s, p)
			}
		default:
			if v.Bool() {
				rest = append(rest, stringFormat(s, path, name)...)
			}
		}
		return true
	})
	// A pattern that cannot match "" (such as the non-blank rule) already
	// says minLength 1; the schema is sent every turn, so say it once.
	if s.MinLength != nil && *s.MinLength == 1 && s.Pattern != "" {
		if re, err := regexp.Compile(s.Pattern); err == nil && !re.MatchString("") {
			s.MinLength = nil
		}
	}
	return rest
}

var byteWords = map[protoreflect.Name]string{
	"min_bytes": "must be at least",
	"max_bytes": "must be at most",
	"len_bytes": "must be exactly",
}

// stringFormat maps a well-known string format: to a JSON Schema format
// where the two agree, to a pattern where protovalidate's definition is
// one, else to a sentence.
func stringFormat(s *schema.Schema, path string, name protoreflect.Name) []string {
	formats := func(names ...string) []*schema.Schema {
		out := make([]*schema.Schema, len(names))
		for i, n := range names {
			out[i] = &schema.Schema{Format: n}
		}
		return out
	}
	switch name {
	case "email", "hostname", "ipv4", "ipv6", "uri":
		s.Format = string(name)
	case "uri_ref":
		s.Format = "uri-reference"
	case "ip":
		s.AnyOf = formats("ipv4", "ipv6")
	case "address":
		s.AnyOf = formats("hostname", "ipv4", "ipv6")
	case "uuid":
		addPattern(s, `^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	case "tuuid":
		addPattern(s, `^[0-9a-fA-F]{32}$`)
	case "ulid":
		addPattern(s, `^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$`)
	default:
		if words, ok := formatWords[name]; ok {
			return []string{prefixed(path, words)}
		}
		return []string{prefixed(path, "must be a valid "+strings.ReplaceAll(string(name), "_", " "))}
	}
	return nil
}

var formatWords = map[protoreflect.Name]string{
	"ip_with_prefixlen":   "must be an IP address with a prefix length, e.g. 192.168.0.1/24",
	"ipv4_with_prefixlen": "must be an IPv4 address with a prefix length, e.g. 192.168.0.1/24",
	"ipv6_with_prefixlen": "must be an IPv6 address with a prefix length, e.g. 2001:db8::1/64",
	"ip_prefix":           "must be an IP network, e.g. 192.168.0.0/24",
	"ipv4_prefix":         "must be an IPv4 network, e.g. 192.168.0.0/24",
	"ipv6_prefix":         "must be an IPv6 network, e.g. 2001:db8::/32",
	"host_and_port":       "must be a host and port, e.g. example.com:8080 or [::1]:443",
	"protobuf_fqn":        "must be a fully-qualified protobuf name, e.g. acme.v1.Thing",
	"protobuf_dot_fqn":    "must be a fully-qualified protobuf name with a leading dot, e.g. .acme.v1.Thing",
}

// knownRegex is protovalidate's pattern for a well_known_regex (RE2).
func knownRegex(k validate.KnownRegex, strict bool) string {
	switch {
	case !strict:
		return `^[^\x00\x0A\x0D]+$`
	case k == validate.KnownRegex_KNOWN_REGEX_HTTP_HEADER_NAME:
		return `^:?[0-9a-zA-Z!#$%&'*+.\-^_|~\x60]+$`
	}
	return `^[^\x00-\x08\x0A-\x1F\x7F]*$`
}

// literalPattern matches s literally, in the portable dialect.
func literalPattern(s string) string {
	t := &translator{}
	for _, r := range s {
		t.literal(r)
	}
	return t.out.String()
}

// base64Pattern is standard base64 with padding (RFC 4648 section 4), the
// form the decoder takes bytes in.
const base64Pattern = `^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$`

// bytesRules maps the bytes rules onto the base64 text: lengths as the
// lengths of their encodings (stated in bytes too), values encoded, and
// what only the decoded bytes can show as sentences.
func bytesRules(s *schema.Schema, path string, r *validate.BytesRules, nonZero bool) []string {
	var rest []string
	encoded := func(n uint64) uint64 { return (n + 2) / 3 * 4 }
	if nonZero && !r.HasMinLen() && !r.HasLen() {
		s.MinLength = schema.Uint(1)
	}
	eachSet(r.ProtoReflect(), func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch name := fd.Name(); name {
		case "min_len", "max_len", "len":
			n := v.Uint()
			if name != "max_len" {
				s.MinLength = schema.Uint(encoded(n))
			}
			if name != "min_len" {
				s.MaxLength = schema.Uint(encoded(n))
			}
			rest = append(rest, prefixed(path, byteWords[map[protoreflect.Name]protoreflect.Name{"min_len": "min_bytes", "max_len": "max_bytes", "len": "len_bytes"}[name]]+" "+strconv.FormatUint(n, 10)+" bytes once decoded"))
		case "const":
			s.Const = base64.StdEncoding.EncodeToString(v.Bytes())
		case "in":
			s.Enum = base64s(v.List())
		case "not_in":
			addNot(s, &schema.Schema{Enum: base64s(v.List())})
		case "example":
			s.Examples = base64s(v.List())
		case "pattern":
			rest = append(rest, prefixed(path, "its decoded bytes must match the pattern "+v.String()))
		case "prefix", "suffix", "contains":
			rest = append(rest, prefixed(path, "its decoded bytes must "+map[protoreflect.Name]string{"prefix": "start with", "suffix": "end with", "contains": "contain"}[name]+" 0x"+hex.EncodeToString(v.Bytes())))
		case "ip", "ipv4", "ipv6", "uuid":
			if v.Bool() {
				rest = append(rest, prefixed(path, map[protoreflect.Name]string{
					"ip": "must be an IP address (4 or 16 bytes)", "ipv4": "must be an IPv4 address (4 bytes)",
					"ipv6": "must be an IPv6 address (16 bytes)", "uuid": "must be a UUID (16 bytes)",
				}[name]))
			}
		}
		return true
	})
	return rest
}

func base64s(l protoreflect.List) []any {
	out := make([]any, l.Len())
	for i := range out {
		out[i] = base64.StdEncoding.EncodeToString(l.Get(i).Bytes())
	}
	return out
}

// numberRules maps bounds, const, in/not_in and examples. A gt above lt
// (an exclusive range: "outside lt..gt") is the range it excludes, under
// not.
func numberRules(s *schema.Schema, path string, r protoreflect.Message) []string {
	if r == nil {
		return nil
	}
	lower, upper := r.Descriptor().Oneofs().ByName("greater_than"), r.Descriptor().Oneofs().ByName("less_than")
	lo, hi := r.WhichOneof(lower), r.WhichOneof(upper)
	outside := lo != nil && hi != nil && compare(r.Get(hi), r.Get(lo)) < 0
	eachSet(r, func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		n := number(v)
		switch fd.Name() {
		case "gte":
			s.Minimum = n
		case "gt":
			s.ExclusiveMinimum = n
		case "lte":
			s.Maximum = n
		case "lt":
			s.ExclusiveMaximum = n
		case "const":
			s.Const = n
		case "in":
			s.Enum = nums(v.List())
		case "not_in":
			addNot(s, &schema.Schema{Enum: nums(v.List())})
		case "example":
			s.Examples = nums(v.List())
		}
		return true
	})
	if outside {
		// x < lt or x > gt is "not lt <= x <= gt" (inclusive ends flip).
		excluded := &schema.Schema{}
		if hi.Name() == "lt" {
			excluded.Minimum = s.ExclusiveMaximum
		} else {
			excluded.ExclusiveMinimum = s.Maximum
		}
		if lo.Name() == "gt" {
			excluded.Maximum = s.ExclusiveMinimum
		} else {
			excluded.ExclusiveMaximum = s.Minimum
		}
		s.Minimum, s.ExclusiveMinimum, s.Maximum, s.ExclusiveMaximum = "", "", "", ""
		addNot(s, excluded)
	}
	return nil
}

// numberSentences states numeric rules in words, for integer map keys
// (property names are strings; JSON Schema cannot bound their value).
func numberSentences(path string, r protoreflect.Message) []string {
	if r == nil {
		return nil
	}
	var out []string
	eachSet(r, func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if words, ok := boundWords[fd.Name()]; ok {
			out = append(out, prefixed(path, "must be "+words+" "+string(number(v))))
		}
		return true
	})
	return out
}

var boundWords = map[protoreflect.Name]string{"lt": "below", "lte": "at most", "gt": "above", "gte": "at least", "const": "exactly"}

// typeRange bounds a number by what its proto kind can hold, where the
// rules leave a side open: the decoder refuses anything beyond it.
func typeRange(s *schema.Schema, k protoreflect.Kind) {
	if s.Const != nil || s.Enum != nil {
		return
	}
	var lo, hi json.Number
	switch k {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		lo, hi = json.Number(strconv.Itoa(math.MinInt32)), json.Number(strconv.Itoa(math.MaxInt32))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		lo, hi = json.Number(strconv.FormatInt(math.MinInt64, 10)), json.Number(strconv.FormatInt(math.MaxInt64, 10))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		lo, hi = "0", json.Number(strconv.FormatUint(math.MaxUint32, 10))
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		lo, hi = "0", json.Number(strconv.FormatUint(math.MaxUint64, 10))
	case protoreflect.FloatKind:
		lo, hi = json.Number("-3.4028234663852886e38"), json.Number("3.4028234663852886e38")
	case protoreflect.DoubleKind:
		lo, hi = json.Number("-1.7976931348623157e308"), json.Number("1.7976931348623157e308")
	}
	if s.Minimum == "" && s.ExclusiveMinimum == "" {
		s.Minimum = lo
	}
	if s.Maximum == "" && s.ExclusiveMaximum == "" {
		s.Maximum = hi
	}
}

// excludesZero: the bounds already keep 0 out.
func excludesZero(s *schema.Schema) bool {
	f := func(n json.Number) float64 { v, _ := strconv.ParseFloat(string(n), 64); return v }
	return s.Minimum != "" && f(s.Minimum) > 0 || s.ExclusiveMinimum != "" && f(s.ExclusiveMinimum) >= 0 ||
		s.Maximum != "" && f(s.Maximum) < 0 || s.ExclusiveMaximum != "" && f(s.ExclusiveMaximum) <= 0 ||
		s.Const != nil && s.Const != json.Number("0")
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

func maxPtr(p *uint64, n uint64) *uint64 {
	if p != nil && *p >= n {
		return p
	}
	return &n
}

func minPtr(p *uint64, n uint64) *uint64 {
	if p != nil && *p <= n {
		return p
	}
	return &n
}

// eachSet calls fn on every populated field of m in field order (Range's
// order is undefined, and the generated schema must not change between
// runs); fn returns false to stop.
func eachSet(m protoreflect.Message, fn func(protoreflect.FieldDescriptor, protoreflect.Value) bool) {
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		if fd := fields.Get(i); m.Has(fd) && !fn(fd, m.Get(fd)) {
			return
		}
	}
}
