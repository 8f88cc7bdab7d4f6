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
	"encoding/json"
	"errors"
	"io"
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
	path   string // parameter path of this object; "" at the top
	fields map[string]json.RawMessage
	errs   *Errors
	// keyed: the object is a map, whose entries are named path["key"].
	keyed bool
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
	errs := &Errors{}
	if len(bytes.TrimSpace(data)) == 0 {
		return &Object{errs: errs}, nil
	}
	fields, keys, msg := readObject(data)
	if msg != "" {
		return nil, Errors{{Message: "arguments " + msg}}
	}
	if msg := unknown(keys, names); msg != "" {
		return nil, Errors{{Message: msg}}
	}
	return &Object{fields: fields, errs: errs}, nil
}

// Has reports whether any of the named parameters is given (not null).
func (o *Object) Has(names ...string) bool {
	for _, name := range names {
		if _, ok := o.fields[name]; ok {
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
	*o.errs = append(*o.errs, &Error{Param: param, Message: msg})
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

// nested parses raw as an object of the given parameter names, sharing o's
// problems. It returns nil (after recording why) when raw is not usable.
func (o *Object) nested(path string, raw json.RawMessage, names []string) *Object {
	if k := kind(raw); k != "object" {
		o.fail(path, "expected an object, got "+k)
		return nil
	}
	fields, keys, msg := readObject(raw)
	if msg != "" { // unreachable: raw came out of a valid document
		o.fail(path, msg)
		return nil
	}
	if msg := unknown(keys, names); msg != "" {
		o.fail(path, msg)
	}
	return &Object{path: path, fields: fields, errs: o.errs}
}

// readObject splits one JSON object into its values, rejecting repeated keys
// and anything after the object. It returns every key, and the values without
// the nulls: null means absent.
func readObject(data []byte) (fields map[string]json.RawMessage, keys []string, problem string) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, "are not valid JSON: " + jsonProblem(err)
	}
	if tok != json.Delim('{') {
		return nil, nil, "must be a JSON object, got " + kind(data)
	}
	fields = map[string]json.RawMessage{}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, "are not valid JSON: " + jsonProblem(err)
		}
		key := tok.(string) // inside an object, Token yields keys as strings
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, "are not valid JSON: " + jsonProblem(err)
		}
		if seen[key] {
			return nil, nil, "repeat the key " + strconv.Quote(key)
		}
		seen[key] = true
		keys = append(keys, key)
		if kind(raw) != "null" {
			fields[key] = raw
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, nil, "are not valid JSON: " + jsonProblem(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, "must be one JSON object, with nothing after it"
	}
	return fields, keys, ""
}

func jsonProblem(err error) string {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "unexpected end of input"
	}
	return err.Error()
}

// unknown names the keys of fields that are not in names, listing the valid
// ones so the model can correct itself in one step.
func unknown(keys, names []string) string {
	var bad []string
	for _, key := range keys {
		if !slices.Contains(names, key) {
			bad = append(bad, strconv.Quote(key))
		}
	}
	if len(bad) == 0 {
		return ""
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
	raw = bytes.TrimLeft(raw, " \t\r\n")
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
