package schema

import "slices"

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
