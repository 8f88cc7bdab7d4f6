// Package args holds the strict JSON decoding mechanics that code generated
// by protoc-gen-forgetools calls to turn a model's tool arguments into a
// typed request message.
//
// A generated decoder is a short list of typed calls:
//
//	o, err := args.Parse(data, "repo", "issue_number")
//	if err != nil {
//		return runtime.Args{}, err
//	}
//	req := &GetIssueRequest{
//		Repo:        args.String(o, "repo", args.Required),
//		IssueNumber: args.Uint64(o, "issue_number", args.Required),
//	}
//	if err := o.Err(); err != nil { ... }
//
// Each call records its problem on the Object instead of returning it, so a
// decoder reads as a struct literal and the model gets every problem of a
// call at once, each naming its parameter ("issue_number: expected an
// integer, got string"). Bounds are not checked here: the runtime validates
// the decoded message with protovalidate, against the same buf.validate
// rules the JSON Schema was built from. This package only makes sure the
// message can be built: the JSON types fit the proto field types, integers
// are integral and in range, enums are spelled as the model knows them.
package args

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// SupportPackageIsVersion1 is referenced by generated code, so that code
// generated for a newer version of this package fails to compile against an
// older one instead of misbehaving.
const SupportPackageIsVersion1 = true

// Presence says whether a parameter must be given.
type Presence bool

const (
	Optional Presence = false
	Required Presence = true
)

// Error is one problem with one parameter.
type Error struct {
	// Param is the parameter path, e.g. "comments[2].body"; empty for a
	// problem with the arguments as a whole.
	Param   string
	Message string
	// OutOfRange marks a number the parameter's type cannot hold; Got is
	// the number as the model wrote it (clipped). Message states the
	// type's range, which the runtime replaces with the tool's own bounds.
	OutOfRange bool
	Got        string
}

func (e *Error) Error() string {
	if e.Param == "" {
		return e.Message
	}
	return e.Param + ": " + e.Message
}

// Errors is every problem found in one set of arguments, in parameter order.
type Errors []*Error

func (e Errors) Error() string {
	msgs := make([]string, len(e))
	for i, err := range e {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "; ")
}

// Object is a decoded JSON object whose keys are known parameter names. It
// collects the problems of every value read from it (and from the objects
// nested in it).
type Object struct {
	path    string   // parameter path of this object; "" at the top
	members []member // the given parameters, nulls left out
	inline  [8]member
	errs    *Errors
	own     Errors // the problems, on the top Object
	// keyed: the object is a map, whose entries are named path["key"].
	keyed bool
}

// member is one given parameter: its name (the caller's string, so reading
// a key allocates nothing) and its value's JSON text, a slice of the input.
type member struct {
	name string
	val  []byte
}

// Parse reads the arguments of one tool call: exactly one JSON object with
// distinct keys, each one of names. Empty input counts as {}, which is what
// some clients send for a call without arguments. A JSON null value means the
// parameter is absent.
//
// Problems with the object itself (not JSON, not an object, an unknown or
// repeated key) are returned at once; problems with values are collected on
// the Object and reported by Err.
func Parse(data []byte, names ...string) (*Object, error) {
	o := &Object{}
	o.errs = &o.own
	o.members = o.inline[:0]
	if len(bytes.TrimSpace(data)) == 0 {
		return o, nil
	}
	if msg := o.read(data, names); msg != "" {
		return nil, Errors{{Message: msg}}
	}
	return o, nil
}

// read reads data, the arguments, into o, or says why it cannot: the first
// problem with the object in reading order (a syntax error, a repeated key,
// anything after the object), else the unknown keys, all of them.
func (o *Object) read(data []byte, names []string) string {
	r := open(data)
	defer r.close()
	if k := r.dec.PeekKind(); k != '{' {
		// As a token reader sees it: "[" is the start of an array, a
		// scalar must be whole to be named.
		if _, err := r.dec.ReadToken(); k != '[' && err != nil {
			return "arguments are not valid JSON: " + syntaxProblem(err)
		}
		return "arguments must be a JSON object, got " + kind(data)
	}
	m := memberSet{o: o}
	err := r.members(func(key, val []byte) bool { return m.add(names, key, val) })
	switch {
	case err != nil:
		return "arguments are not valid JSON: " + syntaxProblem(err)
	case m.repeat != "":
		return "arguments repeat the key " + m.repeat
	case r.rest(data):
		return "arguments must be one JSON object, with nothing after it"
	}
	return unknownProblem(m.unknown, names)
}

// memberSet sorts the members of one object into o: the value of one of
// names is added, an unknown name is collected, and a repeat of either
// stops the read. names is add's parameter, not a field, so that the
// caller's slice stays on its stack.
type memberSet struct {
	o       *Object
	seen    keySet
	unknown []string
	repeat  string // the repeated key, quoted: "" is a key too
}

func (m *memberSet) add(names []string, key, val []byte) bool {
	if i := index(names, key); i >= 0 {
		if !m.seen.add(i) {
			m.repeat = strconv.Quote(names[i])
			return false
		}
		m.o.add(names[i], val)
		return true
	}
	k := unquote(key)
	if slices.Contains(m.unknown, k) {
		m.repeat = strconv.Quote(k)
		return false
	}
	m.unknown = append(m.unknown, k)
	return true
}

func (o *Object) add(name string, val []byte) {
	if val[0] != 'n' { // null: absent
		o.members = append(o.members, member{name, val})
	}
}

// get is the named parameter's JSON text, if given (and not null).
func (o *Object) get(name string) ([]byte, bool) {
	for _, m := range o.members {
		if m.name == name {
			return m.val, true
		}
	}
	return nil, false
}

// Has reports whether any of the named parameters is given (not null).
func (o *Object) Has(names ...string) bool {
	for _, name := range names {
		if _, ok := o.get(name); ok {
			return true
		}
	}
	return false
}

// Err returns the problems found so far, or nil.
func (o *Object) Err() error {
	if len(*o.errs) == 0 {
		return nil
	}
	return *o.errs
}

func (o *Object) fail(param, msg string) {
	got, isRange := rangeProblem(msg)
	*o.errs = append(*o.errs, &Error{Param: param, Message: msg, OutOfRange: isRange, Got: got})
}

func (o *Object) param(name string) string {
	switch {
	case o.keyed:
		return o.path + "[" + strconv.Quote(name) + "]"
	case o.path == "":
		return name
	}
	return o.path + "." + name
}

// nested reads raw, a value of a valid document, as an object of the given
// parameter names, sharing o's problems. It returns nil (after recording
// why) when raw is not an object or repeats a key; unknown keys are recorded
// and the known ones still read.
func (o *Object) nested(path string, raw []byte, names []string) *Object {
	if k := kind(raw); k != "object" {
		o.fail(path, "expected an object, got "+k)
		return nil
	}
	n := &Object{path: path, errs: o.errs}
	n.members = n.inline[:0]
	m := memberSet{o: n}
	object(raw, func(key, val []byte) bool { return m.add(names, key, val) })
	if m.repeat != "" {
		o.fail(path, "repeat the key "+m.repeat)
		return nil
	}
	if msg := unknownProblem(m.unknown, names); msg != "" {
		o.fail(path, msg)
	}
	return n
}

// index is the position in names of the key whose literal (quotes
// included) is lit, or -1.
func index(names []string, lit []byte) int {
	key := lit[1 : len(lit)-1]
	if bytes.IndexByte(key, '\\') >= 0 {
		return slices.Index(names, unquote(lit))
	}
	for i, name := range names {
		if string(key) == name {
			return i
		}
	}
	return -1
}

// keySet records which names were seen, by position: a bit each for the
// first 64, which is every generated tool, and a map past them.
type keySet struct {
	bits uint64
	more map[int]bool
}

// add marks name i seen and reports whether it was new.
func (k *keySet) add(i int) bool {
	if i < 64 {
		was := k.bits&(1<<i) != 0
		k.bits |= 1 << i
		return !was
	}
	if k.more == nil {
		k.more = map[int]bool{}
	}
	was := k.more[i]
	k.more[i] = true
	return !was
}

// unknownProblem names keys, the keys that are not in names, listing the
// valid ones so the model can correct itself in one step.
func unknownProblem(keys, names []string) string {
	if len(keys) == 0 {
		return ""
	}
	bad := make([]string, len(keys))
	for i, key := range keys {
		bad[i] = strconv.Quote(key)
	}
	slices.Sort(bad)
	msg := "unknown parameter " + bad[0]
	if len(bad) > 1 {
		msg = "unknown parameters " + strings.Join(bad, ", ")
	}
	if len(names) == 0 {
		return msg + "; this tool takes no parameters"
	}
	return msg + "; valid parameters: " + strings.Join(names, ", ")
}

// kind names the JSON type of raw as the model would say it.
func kind(raw []byte) string {
	raw = trimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}
