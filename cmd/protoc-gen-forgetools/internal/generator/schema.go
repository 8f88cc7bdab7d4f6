package generator

import (
	"encoding/json"
	"strings"
	"unicode"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"github.com/forgetools/forgetools/runtime/schema"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// addPattern adds a pattern the value must match: JSON Schema has one
// pattern keyword per schema, so further ones go into allOf.
func addPattern(s *schema.Schema, p string) {
	if s.Pattern == "" {
		s.Pattern = p
		return
	}
	s.AllOf = append(s.AllOf, &schema.Schema{Pattern: p})
}

// addNot adds a schema the value must not match.
func addNot(s *schema.Schema, n *schema.Schema) {
	if s.Not == nil {
		s.Not = n
		return
	}
	s.AllOf = append(s.AllOf, &schema.Schema{Not: n})
}

// inputSchema is the tool's argument schema: the request's parameters, then
// the selector's, as one flat object. It also returns a sentence for each
// rule JSON Schema cannot express, for the description.
func inputSchema(req, sel *object) (*schema.Schema, []string) {
	s, sentences := req.schema("")
	if sel != nil {
		ss, more := sel.schema("")
		s.Properties = append(s.Properties, ss.Properties...)
		sentences = append(sentences, more...)
	}
	return s, sentences
}

// schema is the object schema of o; path prefixes the parameter names in
// sentences ("comments[]." for the items of a list).
func (o *object) schema(path string) (*schema.Schema, []string) {
	s := &schema.Schema{Type: schema.Types{"object"}, Properties: schema.Properties{}, AdditionalProperties: schema.False}
	var sentences []string
	where := strings.TrimSuffix(path, ".")
	if rules, ok := proto.GetExtension(o.msg.Desc.Options(), validate.E_Message).(*validate.MessageRules); ok {
		for _, r := range rules.GetCel() {
			sentences = append(sentences, sentence(where, r))
		}
		for _, expr := range rules.GetCelExpression() {
			sentences = append(sentences, sentence(where, &validate.Rule{Expression: &expr}))
		}
		for _, oneof := range rules.GetOneof() {
			sentences = append(sentences, oneofSentence(where, oneof.GetFields(), oneof.GetRequired()))
		}
	}
	for _, p := range o.params {
		if p.hidden {
			continue
		}
		ps, more := p.schema(path + p.name)
		ps.Description = p.description
		if p.deprecated {
			ps.Deprecated = true
			ps.Description = strings.TrimSpace("Deprecated. " + p.description)
		}
		s.Properties = append(s.Properties, schema.Property{Name: p.name, Schema: ps})
		sentences = append(sentences, more...)
		if p.required {
			s.Required = append(s.Required, p.name)
		}
	}
	sentences = append(sentences, o.oneofs(s, where)...)
	return s, sentences
}

// oneofs says in s which parameters a real oneof lets the model give
// together: exactly one (oneOf of required) for a required oneof, else at
// most one (not two at once). A target that cannot take these keywords
// still has the sentence.
func (o *object) oneofs(s *schema.Schema, where string) []string {
	var sentences []string
	for _, oneof := range o.msg.Oneofs {
		if oneof.Desc.IsSynthetic() {
			continue
		}
		var names []string
		for _, p := range o.params {
			if p.oneof == oneof && !p.hidden {
				names = append(names, p.name)
			}
		}
		rules, _ := proto.GetExtension(oneof.Desc.Options(), validate.E_Oneof).(*validate.OneofRules)
		required := rules.GetRequired()
		switch {
		case required:
			var one []*schema.Schema
			for _, n := range names {
				one = append(one, &schema.Schema{Required: []string{n}})
			}
			if s.OneOf == nil {
				s.OneOf = one
			} else {
				s.AllOf = append(s.AllOf, &schema.Schema{OneOf: one})
			}
		case len(names) == 2:
			addNot(s, &schema.Schema{Required: names})
		case len(names) > 2:
			var pairs []*schema.Schema
			for i := range names {
				for j := i + 1; j < len(names); j++ {
					pairs = append(pairs, &schema.Schema{Required: []string{names[i], names[j]}})
				}
			}
			addNot(s, &schema.Schema{AnyOf: pairs})
		default:
			continue
		}
		sentences = append(sentences, oneofSentence(where, names, required))
	}
	return sentences
}

func oneofSentence(where string, names []string, required bool) string {
	if required {
		return prefixed(where, "exactly one of "+strings.Join(names, ", ")+" must be given.")
	}
	return prefixed(where, "at most one of "+strings.Join(names, ", ")+" may be given.")
}

func (p *param) schema(path string) (*schema.Schema, []string) {
	f := p.field.Desc
	rules := p.rules
	switch {
	case f.IsMap():
		s, sentences := p.mapSchema(path, rules)
		return s, append(cel(path, rules), sentences...)
	case f.IsList():
		s := &schema.Schema{Type: schema.Types{"array"}}
		r := rules.GetRepeated()
		if r.HasMinItems() {
			s.MinItems = schema.Uint(r.GetMinItems())
		}
		if rules.GetRequired() && s.MinItems == nil {
			s.MinItems = schema.Uint(1)
		}
		if r.HasMaxItems() {
			s.MaxItems = schema.Uint(r.GetMaxItems())
		}
		s.UniqueItems = r.GetUnique()
		items, sentences := p.value(path+"[]", r.GetItems(), false)
		s.Items = items
		sentences = append(cel(path+"[]", r.GetItems()), sentences...)
		ignoreIfZero(s, rules, &schema.Schema{MaxItems: schema.Uint(0)})
		return s, append(cel(path, rules), sentences...)
	}
	nonZero := rules.GetRequired() && !f.HasPresence()
	s, sentences := p.value(path, rules, nonZero)
	return s, append(cel(path, rules), sentences...)
}

// mapSchema is an object whose property names follow the key rules and
// whose values follow the value rules.
func (p *param) mapSchema(path string, rules *validate.FieldRules) (*schema.Schema, []string) {
	r := rules.GetMap()
	s := &schema.Schema{Type: schema.Types{"object"}}
	if r.HasMinPairs() {
		s.MinProperties = schema.Uint(r.GetMinPairs())
	}
	if rules.GetRequired() && s.MinProperties == nil {
		s.MinProperties = schema.Uint(1)
	}
	if r.HasMaxPairs() {
		s.MaxProperties = schema.Uint(r.GetMaxPairs())
	}
	keys, sentences := p.key.keySchema(path+"[key]", r.GetKeys())
	s.PropertyNames = keys
	values, more := p.val.value(path+"[key]", r.GetValues(), false)
	s.AdditionalProperties = values
	sentences = append(sentences, cel(path+"[key]", r.GetValues())...)
	ignoreIfZero(s, rules, &schema.Schema{MaxProperties: schema.Uint(0)})
	return s, append(sentences, more...)
}

// keySchema is the propertyNames schema of a map's keys: JSON object keys
// are strings, so integer and bool keys are spelled as their decimal or
// true/false text, and their bounds are stated.
func (p *param) keySchema(path string, rules *validate.FieldRules) (*schema.Schema, []string) {
	k := p.field.Desc.Kind()
	switch {
	case k == protoreflect.StringKind:
		s, sentences := p.value(path, rules, false)
		s.Type = nil // a property name is always a string
		return s, sentences
	case k == protoreflect.BoolKind:
		return &schema.Schema{Enum: []any{"true", "false"}}, nil
	case isUnsigned(k):
		return &schema.Schema{Pattern: `^[0-9]+$`}, numberSentences(path, numericRules(k, rules))
	}
	return &schema.Schema{Pattern: `^-?[0-9]+$`}, numberSentences(path, numericRules(k, rules))
}

// value is the schema of one value of p's field under rules (the field's
// rules, or the items rules of a list); nonZero when a required rule
// demands a value other than the zero value.
func (p *param) value(path string, rules *validate.FieldRules, nonZero bool) (*schema.Schema, []string) {
	var s *schema.Schema
	var sentences []string
	switch {
	case p.obj != nil:
		return p.obj.schema(path + ".")
	case p.enum != nil:
		s = &schema.Schema{Type: schema.Types{"string"}}
		for _, v := range p.enum {
			s.Enum = append(s.Enum, v.name)
		}
		if zero := p.enumZero(); zero != "" {
			ignoreIfZero(s, rules, &schema.Schema{Const: zero})
		}
		return s, nil
	case p.wkt == wkTimestamp:
		s = &schema.Schema{Type: schema.Types{"string"}, Format: "date-time"}
		sentences = timestampRules(s, path, rules.GetTimestamp())
		return s, sentences
	case p.wkt == wkDuration:
		s = &schema.Schema{Type: schema.Types{"string"}, Pattern: durationPattern}
		sentences = durationRules(s, path, rules.GetDuration())
		return s, sentences
	}
	k := p.valueKind()
	switch {
	case k == protoreflect.BoolKind:
		s = &schema.Schema{Type: schema.Types{"boolean"}}
		if r := rules.GetBool(); r.HasConst() {
			s.Const = r.GetConst()
		} else if nonZero {
			s.Const = true
		}
		ignoreIfZero(s, rules, &schema.Schema{Const: false})
	case k == protoreflect.StringKind:
		s = &schema.Schema{Type: schema.Types{"string"}}
		sentences = stringRules(s, path, rules.GetString(), nonZero)
		ignoreIfZero(s, rules, &schema.Schema{MaxLength: schema.Uint(0)})
	case k == protoreflect.BytesKind:
		s = &schema.Schema{Type: schema.Types{"string"}, ContentEncoding: "base64", Pattern: base64Pattern}
		sentences = bytesRules(s, path, rules.GetBytes(), nonZero)
		ignoreIfZero(s, rules, &schema.Schema{MaxLength: schema.Uint(0)})
	default:
		s = &schema.Schema{Type: schema.Types{"integer"}}
		if k == protoreflect.FloatKind || k == protoreflect.DoubleKind {
			s.Type = schema.Types{"number"}
		}
		sentences = numberRules(s, path, numericRules(k, rules))
		typeRange(s, k)
		if nonZero && !excludesZero(s) {
			addNot(s, &schema.Schema{Const: json.Number("0")})
		}
		ignoreIfZero(s, rules, &schema.Schema{Const: json.Number("0")})
	}
	if p.wkt == wkWrapper {
		nullable(s)
	}
	return s, sentences
}

// enumZero is the model name of the enum's zero value; "" when the model
// cannot name it.
func (p *param) enumZero() string {
	for _, v := range p.enum {
		if v.value.Desc.Number() == 0 {
			return v.name
		}
	}
	return ""
}

// nullable lets a wrapper's value be null: absent and null both leave the
// wrapper unset.
func nullable(s *schema.Schema) {
	s.Type = append(s.Type, "null")
	if s.Const != nil {
		s.Enum, s.Const = []any{s.Const}, nil
	}
	if s.Enum != nil {
		s.Enum = append(s.Enum, nil)
	}
}

// ignoreIfZero applies IGNORE_IF_ZERO_VALUE: the zero value (zero) passes
// whatever the other rules say, so the bounds become "empty or …".
func ignoreIfZero(s *schema.Schema, rules *validate.FieldRules, zero *schema.Schema) {
	if rules.GetIgnore() != validate.Ignore_IGNORE_IF_ZERO_VALUE {
		return
	}
	kept := &schema.Schema{Type: s.Type, Description: s.Description, Format: s.Format, ContentEncoding: s.ContentEncoding, Items: s.Items, Examples: s.Examples}
	rest := *s
	rest.Type, rest.Description, rest.Format, rest.ContentEncoding, rest.Items, rest.Examples = nil, "", "", "", nil, nil
	if rest.String() == "{}" {
		return
	}
	kept.AnyOf = []*schema.Schema{zero, &rest}
	*s = *kept
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
// else the expression with "this" read as the parameter.
func sentence(path string, r *validate.Rule) string {
	text := r.GetMessage()
	if text == "" {
		subject := path
		if subject == "" {
			subject = "the arguments"
		}
		text = "must satisfy the rule " + strings.ReplaceAll(r.GetExpression(), "this", subject)
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
