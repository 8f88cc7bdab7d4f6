package generator

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// schema is the subset of JSON Schema (draft 2020-12) the generator emits.
// Field order is output order: what a value is, then what it means, then
// its bounds. Nothing redundant: the schema is sent to the model every turn.
type schema struct {
	Type                 string      `json:"type,omitempty"`
	Description          string      `json:"description,omitempty"`
	Enum                 []any       `json:"enum,omitempty"`
	Const                any         `json:"const,omitempty"`
	Not                  *schema     `json:"not,omitempty"`
	Format               string      `json:"format,omitempty"`
	MinLength            *uint64     `json:"minLength,omitempty"`
	MaxLength            *uint64     `json:"maxLength,omitempty"`
	Pattern              string      `json:"pattern,omitempty"`
	Minimum              json.Number `json:"minimum,omitempty"`
	ExclusiveMinimum     json.Number `json:"exclusiveMinimum,omitempty"`
	Maximum              json.Number `json:"maximum,omitempty"`
	ExclusiveMaximum     json.Number `json:"exclusiveMaximum,omitempty"`
	MinItems             *uint64     `json:"minItems,omitempty"`
	MaxItems             *uint64     `json:"maxItems,omitempty"`
	UniqueItems          bool        `json:"uniqueItems,omitempty"`
	Items                *schema     `json:"items,omitempty"`
	Properties           *properties `json:"properties,omitempty"`
	Required             []string    `json:"required,omitempty"`
	AdditionalProperties *bool       `json:"additionalProperties,omitempty"`
}

// properties keeps parameters in field order (a Go map would sort them).
type properties struct {
	names   []string
	schemas []*schema
}

func (p *properties) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, name := range p.names {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := marshal(name, "")
		v, err := marshal(p.schemas[i], "")
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal is json.Marshal without HTML escaping (patterns keep their < and
// &), indented when indent is not empty.
func marshal(v any, indent string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// inputSchema is the tool's argument schema: the request's parameters, then
// the selector's, as one flat object. It also returns a sentence for each
// rule JSON Schema cannot express, for the description.
func inputSchema(req, sel *object) (*schema, []string) {
	s, sentences := req.schema("")
	if sel != nil {
		ss, more := sel.schema("")
		s.Properties.names = append(s.Properties.names, ss.Properties.names...)
		s.Properties.schemas = append(s.Properties.schemas, ss.Properties.schemas...)
		sentences = append(sentences, more...)
	}
	return s, sentences
}

// schema is the object schema of o; path prefixes the parameter names in
// sentences ("comments[]." for the items of a list).
func (o *object) schema(path string) (*schema, []string) {
	no := false
	s := &schema{Type: "object", Properties: &properties{}, AdditionalProperties: &no}
	var sentences []string
	if rules, ok := proto.GetExtension(o.msg.Desc.Options(), validate.E_Message).(*validate.MessageRules); ok {
		for _, r := range rules.GetCel() {
			sentences = append(sentences, sentence(strings.TrimSuffix(path, "."), r))
		}
		for _, expr := range rules.GetCelExpression() {
			sentences = append(sentences, sentence(strings.TrimSuffix(path, "."), &validate.Rule{Expression: &expr}))
		}
		for _, oneof := range rules.GetOneof() {
			words := "At most one of "
			if oneof.GetRequired() {
				words = "Exactly one of "
			}
			sentences = append(sentences, prefixed(strings.TrimSuffix(path, "."), words+strings.Join(oneof.GetFields(), ", ")+" may be given."))
		}
	}
	for _, p := range o.params {
		ps, more := p.schema(path + p.name)
		ps.Description = p.description
		s.Properties.names = append(s.Properties.names, p.name)
		s.Properties.schemas = append(s.Properties.schemas, ps)
		sentences = append(sentences, more...)
		if p.required {
			s.Required = append(s.Required, p.name)
		}
	}
	return s, sentences
}

func (p *param) schema(path string) (*schema, []string) {
	if !p.field.Desc.IsList() {
		s, sentences := p.value(path, p.rules)
		return s, append(cel(path, p.rules), sentences...)
	}
	s := &schema{Type: "array"}
	rules := p.rules.GetRepeated()
	if rules.HasMinItems() {
		s.MinItems = ptr(rules.GetMinItems())
	}
	if rules.HasMaxItems() {
		s.MaxItems = ptr(rules.GetMaxItems())
	}
	s.UniqueItems = rules.GetUnique()
	items, sentences := p.value(path+"[]", rules.GetItems())
	s.Items = items
	sentences = append(cel(path+"[]", rules.GetItems()), sentences...)
	return s, append(cel(path, p.rules), sentences...)
}

// value is the schema of one value of p's field under rules (the field's
// rules, or the items rules of a list).
func (p *param) value(path string, rules *validate.FieldRules) (*schema, []string) {
	f := p.field.Desc
	var s *schema
	switch {
	case p.obj != nil:
		return p.obj.schema(path + ".")
	case p.enum != nil:
		s = &schema{Type: "string"}
		for _, v := range p.enum {
			s.Enum = append(s.Enum, v.name)
		}
		return s, nil
	case f.Kind() == protoreflect.BoolKind:
		s = &schema{Type: "boolean"}
		if r := rules.GetBool(); r.HasConst() {
			s.Const = r.GetConst()
		}
		return s, nil
	case f.Kind() == protoreflect.StringKind:
		s = &schema{Type: "string"}
		return s, stringRules(s, path, rules.GetString())
	case f.Kind() == protoreflect.FloatKind || f.Kind() == protoreflect.DoubleKind:
		s = &schema{Type: "number"}
	default: // the integer kinds
		s = &schema{Type: "integer"}
	}
	sentences := numberRules(s, path, numericRules(f.Kind(), rules))
	if isUnsigned(f.Kind()) && s.Minimum == "" && s.ExclusiveMinimum == "" && s.Enum == nil && s.Const == nil {
		s.Minimum = "0" // the decoder refuses negatives; say so
	}
	return s, sentences
}

// cel states the field's CEL rules, which JSON Schema cannot express.
func cel(path string, rules *validate.FieldRules) []string {
	var out []string
	for _, r := range rules.GetCel() {
		out = append(out, sentence(path, r))
	}
	for _, expr := range rules.GetCelExpression() {
		out = append(out, sentence(path, &validate.Rule{Expression: &expr}))
	}
	return out
}

// sentence turns a CEL rule into a sentence for the model: its message,
// else its id, else the expression.
func sentence(path string, r *validate.Rule) string {
	text := r.GetMessage()
	if text == "" {
		text = "must satisfy " + r.GetExpression()
	}
	return prefixed(path, text)
}

func prefixed(path, text string) string {
	text = strings.TrimSpace(text)
	if !strings.HasSuffix(text, ".") {
		text += "."
	}
	if path == "" {
		r := []rune(text)
		r[0] = unicode.ToUpper(r[0])
		return string(r)
	}
	return path + ": " + text
}
