package githubtest

import (
	"fmt"
	"slices"

	"github.com/vektah/gqlparser/v2/ast"
)

// A small GraphQL executor over the fake's state: enough of the spec
// (fields, aliases, arguments and variables, __typename, inline fragments
// and fragment spreads, nulls and lists) to answer the queries the
// provider sends. It is not a GraphQL server: it has no introspection,
// directives (@include, @skip) or mutations, and a field the fake does not
// model is an error in the answer (type "FAKE_UNMODELLED"), so a query
// reaching past what the fake holds fails loudly instead of reading null.

// gqlObject is one object of the answer: its GraphQL type, the interfaces
// it implements (for fragments on them), and how its fields resolve.
type gqlObject struct {
	typename   string
	interfaces []string
	fields     map[string]gqlField
}

// gqlField resolves a field from its arguments, to a scalar, nil, a
// *gqlObject or a []any of those, or fails with a GraphQL error.
type gqlField func(args map[string]any) (any, *gqlError)

// gqlError is one entry of the answer's errors list, in GitHub's shape.
type gqlError struct {
	Type      string        `json:"type,omitempty"`
	Path      []any         `json:"path,omitempty"`
	Locations []gqlLocation `json:"locations,omitempty"`
	Message   string        `json:"message"`
}

type gqlLocation struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// gqlExec runs one operation.
type gqlExec struct {
	doc  *ast.QueryDocument
	vars map[string]any
	errs []*gqlError
}

func (e *gqlExec) object(o *gqlObject, set ast.SelectionSet, path []any) map[string]any {
	out := map[string]any{}
	e.collect(o, set, path, out)
	return out
}

// collect resolves the selections of set on o into out, fragments merged.
func (e *gqlExec) collect(o *gqlObject, set ast.SelectionSet, path []any, out map[string]any) {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			key := s.Alias
			if key == "" {
				key = s.Name
			}
			if s.Name == "__typename" {
				out[key] = o.typename
				continue
			}
			at := append(slices.Clone(path), key)
			f, ok := o.fields[s.Name]
			if !ok {
				e.fail(&gqlError{Type: "FAKE_UNMODELLED", Message: fmt.Sprintf("the fake does not model field '%s' of %s", s.Name, o.typename)}, s, at)
				out[key] = nil
				continue
			}
			args := map[string]any{}
			for _, a := range s.Arguments {
				v, err := a.Value.Value(e.vars)
				if err != nil {
					e.fail(&gqlError{Message: err.Error()}, s, at)
					continue
				}
				args[a.Name] = v
			}
			v, gerr := f(args)
			if gerr != nil {
				e.fail(gerr, s, at)
				out[key] = nil
				continue
			}
			out[key] = e.value(v, s.SelectionSet, at)
		case *ast.InlineFragment:
			if e.applies(o, s.TypeCondition) {
				e.collect(o, s.SelectionSet, path, out)
			}
		case *ast.FragmentSpread:
			if d := e.doc.Fragments.ForName(s.Name); d != nil && e.applies(o, d.TypeCondition) {
				e.collect(o, d.SelectionSet, path, out)
			}
		}
	}
}

func (e *gqlExec) value(v any, set ast.SelectionSet, path []any) any {
	switch x := v.(type) {
	case *gqlObject:
		if x == nil {
			return nil
		}
		return e.object(x, set, path)
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = e.value(item, set, append(slices.Clone(path), i))
		}
		return out
	default:
		return v
	}
}

func (e *gqlExec) applies(o *gqlObject, cond string) bool {
	return cond == "" || cond == o.typename || slices.Contains(o.interfaces, cond)
}

func (e *gqlExec) fail(err *gqlError, f *ast.Field, path []any) {
	err.Path = path
	if f.Position != nil {
		err.Locations = []gqlLocation{{Line: f.Position.Line, Column: f.Position.Column}}
	}
	e.errs = append(e.errs, err)
}

// connection is a GraphQL connection over items: first or last (at most
// 100, GitHub's rule), after or before an opaque cursor, totalCount and
// pageInfo. extra adds fields a connection type has beyond those.
func connection(typename string, items []any, args map[string]any, extra map[string]gqlField) (*gqlObject, *gqlError) {
	first, hasFirst := intArg(args, "first")
	last, hasLast := intArg(args, "last")
	switch {
	case !hasFirst && !hasLast:
		return nil, &gqlError{Type: "MISSING_PAGINATION_BOUNDARIES", Message: "You must provide a `first` or `last` value to properly paginate the connection."}
	case first > 100 || last > 100:
		return nil, &gqlError{Type: "EXCESSIVE_PAGINATION", Message: "Requesting more than 100 records on the connection is not allowed."}
	case first < 0 || last < 0:
		return nil, &gqlError{Message: "`first` and `last` must be non-negative."}
	}
	lo, hi := 0, len(items)
	if c, ok := args["after"].(string); ok {
		lo = min(cursorIndex(c)+1, hi)
	}
	if c, ok := args["before"].(string); ok {
		hi = max(min(cursorIndex(c), hi), lo)
	}
	if hasFirst {
		hi = min(hi, lo+first)
	}
	if hasLast {
		lo = max(lo, hi-last)
	}
	page := items[lo:hi]
	fields := map[string]gqlField{
		"totalCount": func(map[string]any) (any, *gqlError) { return len(items), nil },
		"nodes":      func(map[string]any) (any, *gqlError) { return page, nil },
		"pageInfo": func(map[string]any) (any, *gqlError) {
			return &gqlObject{typename: "PageInfo", fields: map[string]gqlField{
				"hasNextPage":     constant(hi < len(items)),
				"hasPreviousPage": constant(lo > 0),
				"startCursor":     constant(cursorOrNil(lo, hi, lo)),
				"endCursor":       constant(cursorOrNil(lo, hi, hi-1)),
			}}, nil
		},
	}
	for k, f := range extra {
		fields[k] = f
	}
	return &gqlObject{typename: typename, fields: fields}, nil
}

func constant(v any) gqlField { return func(map[string]any) (any, *gqlError) { return v, nil } }

func intArg(args map[string]any, name string) (int, bool) {
	switch v := args[name].(type) {
	case int64:
		return int(v), true
	case int:
		return v, true
	case float64: // a variable decoded from JSON
		return int(v), true
	}
	return 0, false
}

func cursorOrNil(lo, hi, i int) any {
	if lo >= hi {
		return nil
	}
	return fmt.Sprintf("Y3Vyc29yOnYyOpK%d", i)
}

func cursorIndex(c string) int {
	var i int
	if _, err := fmt.Sscanf(c, "Y3Vyc29yOnYyOpK%d", &i); err != nil {
		return -1
	}
	return i
}
