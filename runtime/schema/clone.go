package schema

import "slices"

// Clone is a deep copy of s, for a rewrite (strict mode, a narrowed or
// grouped tool) that must leave the generated table's schema as it is.
func (s *Schema) Clone() *Schema {
	if s == nil || s.boolean {
		return s
	}
	c := *s
	c.Enum, c.Examples, c.Required = slices.Clone(s.Enum), slices.Clone(s.Examples), slices.Clone(s.Required)
	c.MinLength, c.MaxLength = cloneUint(s.MinLength), cloneUint(s.MaxLength)
	c.MinItems, c.MaxItems = cloneUint(s.MinItems), cloneUint(s.MaxItems)
	c.MinProperties, c.MaxProperties = cloneUint(s.MinProperties), cloneUint(s.MaxProperties)
	c.Type, c.last = slices.Clone(s.Type), slices.Clone(s.last)
	c.Not, c.Items, c.PropertyNames, c.AdditionalProperties = s.Not.Clone(), s.Items.Clone(), s.PropertyNames.Clone(), s.AdditionalProperties.Clone()
	if s.Properties != nil {
		c.Properties = make(Properties, len(s.Properties))
		for i, p := range s.Properties {
			c.Properties[i] = Property{Name: p.Name, Schema: p.Schema.Clone()}
		}
	}
	c.AllOf, c.AnyOf, c.OneOf = cloneAll(s.AllOf), cloneAll(s.AnyOf), cloneAll(s.OneOf)
	return &c
}

func cloneUint(p *uint64) *uint64 {
	if p == nil {
		return nil
	}
	return Uint(*p)
}

func cloneAll(list []*Schema) []*Schema {
	if list == nil {
		return nil
	}
	out := make([]*Schema, len(list))
	for i, s := range list {
		out[i] = s.Clone()
	}
	return out
}

// Walk calls f on s and on every schema inside it, parents first.
func (s *Schema) Walk(f func(*Schema)) {
	if s == nil || s.boolean {
		return
	}
	f(s)
	for _, sub := range []*Schema{s.Not, s.Items, s.PropertyNames, s.AdditionalProperties} {
		sub.Walk(f)
	}
	for _, p := range s.Properties {
		p.Schema.Walk(f)
	}
	for _, sub := range slices.Concat(s.AllOf, s.AnyOf, s.OneOf) {
		sub.Walk(f)
	}
}
