package lineartest

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

// A GraphQL reader just large enough for a fake: it parses an operation
// (query or mutation, variable definitions, fields with arguments and
// aliases, fragment spreads and inline fragments, named fragments) and
// projects resolved data onto the selection, so the fake answers exactly
// the fields a client asked for, as a GraphQL server does. It does not
// type-check against Linear's schema; a field the data does not have is
// reported the way Linear reports an unknown field.

// selection is one field (or fragment use) of a selection set.
type selection struct {
	alias, name string         // alias is "" when none
	args        map[string]any // literal values; variables are varRef
	sub         []selection    // nil for a leaf
	spread      string         // "...Name": the fragment's name
	inline      []selection    // "... on T { }": its selections
}

func (s selection) key() string {
	if s.alias != "" {
		return s.alias
	}
	return s.name
}

type varRef string

// operation is a parsed document's one operation and its fragments.
type operation struct {
	kind, name string // "query" or "mutation", and the operation name
	root       []selection
	fragments  map[string][]selection
	// vars are the request's variables, which a field's arguments below
	// the root may name (an issue's comments(first: $n, after: $cursor)).
	vars map[string]any
}

type parser struct {
	src string
	pos int
}

// parseOperation reads a document with one operation.
func parseOperation(src string) (op *operation, err error) {
	defer func() {
		if r := recover(); r != nil {
			op, err = nil, fmt.Errorf("Syntax Error: %v", r)
		}
	}()
	p := &parser{src: src}
	op = &operation{fragments: map[string][]selection{}}
	for p.skip(); p.pos < len(p.src); p.skip() {
		switch word := p.name(); word {
		case "query", "mutation":
			if op.kind != "" {
				panic("more than one operation")
			}
			op.kind = word
			if p.skip(); p.peek() != '(' && p.peek() != '{' {
				op.name = p.name()
			}
			if p.skip(); p.peek() == '(' {
				p.balanced('(', ')') // variable definitions: the values come with the request
			}
			op.root = p.selectionSet()
		case "fragment":
			name := p.name()
			if p.name() != "on" {
				panic("fragment " + name + " without a type condition")
			}
			p.name()
			op.fragments[name] = p.selectionSet()
		default:
			panic(fmt.Sprintf("unexpected %q", word))
		}
	}
	if op.kind == "" {
		panic("no operation")
	}
	return op, nil
}

func (p *parser) selectionSet() []selection {
	p.expect('{')
	var out []selection
	for p.skip(); p.peek() != '}'; p.skip() {
		if strings.HasPrefix(p.src[p.pos:], "...") {
			p.pos += 3
			if name := p.name(); name == "on" {
				p.name()
				out = append(out, selection{inline: p.selectionSet()})
			} else {
				out = append(out, selection{spread: name})
			}
			continue
		}
		s := selection{name: p.name()}
		if p.skip(); p.peek() == ':' {
			p.pos++
			s.alias, s.name = s.name, p.name()
		}
		if p.skip(); p.peek() == '(' {
			s.args = p.arguments()
		}
		if p.skip(); p.peek() == '{' {
			s.sub = p.selectionSet()
		}
		out = append(out, s)
	}
	p.pos++
	return out
}

func (p *parser) arguments() map[string]any {
	p.expect('(')
	args := map[string]any{}
	for p.skip(); p.peek() != ')'; p.skip() {
		name := p.name()
		p.expect(':')
		args[name] = p.value()
	}
	p.pos++
	return args
}

func (p *parser) value() any {
	p.skip()
	switch c := p.peek(); {
	case c == '$':
		p.pos++
		return varRef(p.name())
	case c == '{':
		p.pos++
		obj := map[string]any{}
		for p.skip(); p.peek() != '}'; p.skip() {
			k := p.name()
			p.expect(':')
			obj[k] = p.value()
		}
		p.pos++
		return obj
	case c == '[':
		p.pos++
		list := []any{}
		for p.skip(); p.peek() != ']'; p.skip() {
			list = append(list, p.value())
		}
		p.pos++
		return list
	case c == '"':
		end := p.pos + 1
		for end < len(p.src) && p.src[end] != '"' {
			if p.src[end] == '\\' {
				end++
			}
			end++
		}
		var s string
		if err := json.Unmarshal([]byte(p.src[p.pos:end+1]), &s); err != nil {
			panic("bad string")
		}
		p.pos = end + 1
		return s
	case c == '-' || unicode.IsDigit(rune(c)):
		start := p.pos
		for p.pos < len(p.src) && strings.ContainsRune("-+.eE0123456789", rune(p.src[p.pos])) {
			p.pos++
		}
		var n float64
		if err := json.Unmarshal([]byte(p.src[start:p.pos]), &n); err != nil {
			panic("bad number")
		}
		return n
	}
	switch word := p.name(); word {
	case "true", "false":
		return word == "true"
	case "null":
		return nil
	default:
		return word // an enum value
	}
}

// skip passes whitespace, commas and comments.
func (p *parser) skip() {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == '#':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		case c == ',' || unicode.IsSpace(rune(c)) || c == 0xEF || c == 0xBB || c == 0xBF:
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) peek() byte {
	if p.pos >= len(p.src) {
		panic("unexpected end of document")
	}
	return p.src[p.pos]
}

func (p *parser) expect(c byte) {
	if p.skip(); p.peek() != c {
		panic(fmt.Sprintf("expected %q at %d", c, p.pos))
	}
	p.pos++
}

func (p *parser) name() string {
	p.skip()
	start := p.pos
	for p.pos < len(p.src) && (p.src[p.pos] == '_' || unicode.IsLetter(rune(p.src[p.pos])) || (p.pos > start && unicode.IsDigit(rune(p.src[p.pos])))) {
		p.pos++
	}
	if p.pos == start {
		panic(fmt.Sprintf("expected a name at %d", p.pos))
	}
	return p.src[start:p.pos]
}

func (p *parser) balanced(open, close byte) {
	p.expect(open)
	for depth := 1; depth > 0; p.pos++ {
		switch p.peek() {
		case open:
			depth++
		case close:
			depth--
		}
	}
}

// bind replaces variable references in v with the request's variables.
func bind(v any, vars map[string]any) any {
	switch x := v.(type) {
	case varRef:
		return vars[string(x)]
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = bind(e, vars)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = bind(e, vars)
		}
		return out
	}
	return v
}

// object is resolved data: a map whose values may be thunks (func() any,
// or func(args) any for a field that takes arguments), evaluated only when
// selected, so objects can refer to each other (an
// issue's comments, a comment's issue) without building cycles. Each object
// names its type in "__typename".
type object = map[string]any

// project picks the selected fields out of v, recursively.
func (op *operation) project(v any, sel []selection) (any, error) {
	if f, ok := v.(func() any); ok {
		v = f()
	}
	switch x := v.(type) {
	case nil:
		return nil, nil
	case []object:
		out := make([]any, 0, len(x))
		for _, e := range x {
			p, err := op.project(e, sel)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
		return out, nil
	case object:
		out := map[string]any{}
		if err := op.fill(out, x, sel); err != nil {
			return nil, err
		}
		return out, nil
	}
	return nil, fmt.Errorf("a selection on a scalar")
}

func (op *operation) fill(out map[string]any, obj object, sel []selection) error {
	for _, s := range sel {
		switch {
		case s.spread != "":
			frag, ok := op.fragments[s.spread]
			if !ok {
				return fmt.Errorf("Unknown fragment %q.", s.spread)
			}
			if err := op.fill(out, obj, frag); err != nil {
				return err
			}
			continue
		case s.inline != nil:
			if err := op.fill(out, obj, s.inline); err != nil {
				return err
			}
			continue
		}
		v, ok := obj[s.name]
		if !ok {
			return fmt.Errorf("Cannot query field %q on type %q.", s.name, obj["__typename"])
		}
		if f, ok := v.(func(args map[string]any) any); ok {
			// A field that takes arguments (a connection's first, after).
			args, _ := bind(s.args, op.vars).(map[string]any)
			v = f(args)
		}
		if s.sub == nil {
			if f, ok := v.(func() any); ok {
				v = f()
			}
			out[s.key()] = v
			continue
		}
		p, err := op.project(v, s.sub)
		if err != nil {
			return err
		}
		out[s.key()] = p
	}
	return nil
}
