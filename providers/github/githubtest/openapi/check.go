package openapi

import (
	"bytes"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

var printer = message.NewPrinter(language.English)

// Exchange is one request and the answer it got, as the server saw them.
type Exchange struct {
	Method string
	// Path is the escaped request path without the API root's prefix
	// (r.URL.EscapedPath() less "/api/v3").
	Path        string
	Query       url.Values
	ContentType string // the request's Content-Type
	Body        []byte

	Status       int
	ResponseType string // the response's Content-Type
	Response     []byte
}

// Check matches the exchange to an operation and validates both halves.
// The operation is nil when none matched; every mismatch is one error
// naming the operation and, for a body, the JSON path.
func (d *Description) Check(ex Exchange) (*Operation, []error) {
	op, err := d.Match(ex.Method, ex.Path)
	if err != nil {
		return nil, []error{err}
	}
	errs := d.CheckRequest(op, ex)
	errs = append(errs, d.CheckResponse(op, ex)...)
	return op, errs
}

// Documents says whether the operation documents the status (or a
// default answer).
func (d *Description) Documents(op *Operation, status int) bool {
	responses, _ := op.obj["responses"].(map[string]any)
	_, ok := responses[strconv.Itoa(status)]
	_, def := responses["default"]
	return ok || def
}

// param is one resolved parameter of an operation.
type param struct {
	name, in string
	required bool
	schema   map[string]any
	point    string // of its schema
}

func (d *Description) params(op *Operation) []param {
	var out []param
	seen := map[string]bool{}
	add := func(list any, at string) {
		items, _ := list.([]any)
		for i, it := range items {
			m, p := d.deref(it, at+"/"+strconv.Itoa(i))
			if m == nil {
				continue
			}
			name, _ := m["name"].(string)
			in, _ := m["in"].(string)
			if seen[in+" "+name] {
				continue // an operation's own parameter overrides its path's
			}
			seen[in+" "+name] = true
			req, _ := m["required"].(bool)
			sch, sp := d.deref(m["schema"], p+"/schema")
			out = append(out, param{name: name, in: in, required: req, schema: sch, point: sp})
		}
	}
	add(op.obj["parameters"], op.point+"/parameters")
	add(d.at(strings.TrimSuffix(op.point, "/"+strings.ToLower(op.Method))+"/parameters"),
		strings.TrimSuffix(op.point, "/"+strings.ToLower(op.Method))+"/parameters")
	return out
}

// CheckRequest validates the request half of an exchange against op.
func (d *Description) CheckRequest(op *Operation, ex Exchange) []error {
	var errs []error
	fail := func(format string, a ...any) {
		errs = append(errs, fmt.Errorf("%s: request: %s", op, fmt.Sprintf(format, a...)))
	}
	byName := map[string]param{}
	for _, p := range d.params(op) {
		switch p.in {
		case "query":
			byName[p.name] = p
			if p.required && !ex.Query.Has(p.name) {
				fail("required query parameter %q missing", p.name)
			}
		case "path":
			v, ok := op.params[p.name]
			if !ok {
				fail("path parameter %q missing", p.name)
				continue
			}
			errs = append(errs, d.checkValue(op, "path parameter "+p.name, p, v)...)
		}
	}
	keys := make([]string, 0, len(ex.Query))
	for k := range ex.Query {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p, ok := byName[k]
		if !ok {
			fail("query parameter %q is not one of the operation's", k)
			continue
		}
		for _, v := range ex.Query[k] {
			errs = append(errs, d.checkValue(op, "query parameter "+k, p, v)...)
		}
	}

	rb, rbPoint := d.deref(op.obj["requestBody"], op.point+"/requestBody")
	if len(bytes.TrimSpace(ex.Body)) == 0 {
		if req, _ := rb["required"].(bool); req {
			fail("the operation requires a body; none was sent")
		}
		return errs
	}
	if rb == nil {
		fail("sent a body; the operation takes none")
		return errs
	}
	content, _ := rb["content"].(map[string]any)
	mt, _, _ := mime.ParseMediaType(ex.ContentType)
	if mt == "" {
		mt = "application/json"
	}
	if _, ok := content[mt]; !ok {
		fail("body of type %q; the operation takes %s", mt, mediaTypes(content))
		return errs
	}
	if !isJSON(mt) {
		return errs
	}
	return append(errs, d.checkJSON(op, "request body", rbPoint+"/content/"+escapePointer(mt)+"/schema", ex.Body)...)
}

// CheckResponse validates the response half of an exchange against op.
func (d *Description) CheckResponse(op *Operation, ex Exchange) []error {
	code := strconv.Itoa(ex.Status)
	responses, _ := op.obj["responses"].(map[string]any)
	at := op.point + "/responses/" + code
	r, ok := responses[code]
	if !ok {
		if generic, ok := anywhere[ex.Status]; ok {
			return d.checkGeneric(op, ex, generic)
		}
		if r, ok = responses["default"]; !ok {
			return []error{fmt.Errorf("%s: response: status %d is not documented (documented: %s)", op, ex.Status, mediaTypes(responses))}
		}
		at = op.point + "/responses/default"
	}
	resp, rp := d.deref(r, at)
	content, _ := resp["content"].(map[string]any)
	body := bytes.TrimSpace(ex.Response)
	if len(content) == 0 {
		if len(body) > 0 && (ex.Status < 300 || ex.Status >= 400) {
			return []error{fmt.Errorf("%s: response %d: has a body; the description documents none", op, ex.Status)}
		}
		return nil
	}
	mt, _, _ := mime.ParseMediaType(ex.ResponseType)
	if _, ok := content[mt]; !ok {
		if custom(mt) {
			return nil // what the client's Accept asked for (raw, sha)
		}
		return []error{fmt.Errorf("%s: response %d: Content-Type %q; documented: %s", op, ex.Status, mt, mediaTypes(content))}
	}
	if !isJSON(mt) {
		return nil
	}
	return d.checkJSON(op, "response "+code+" body", rp+"/content/"+escapePointer(mt)+"/schema", body)
}

// anywhere are the answers GitHub gives on any operation, whether or not
// the description lists them there: 304 to a conditional request, the
// redirects of a renamed or transferred repository, 400 to an unsupported
// X-GitHub-Api-Version, 401 to a bad credential, 403 and 429 from the
// rate limit, 404 for what the credential cannot see and 422 for a
// refused write (a workflow without workflow_dispatch). The body is held
// to basic-error ("" = no body to check); a status the operation
// documents is held to the operation's own schema instead.
var anywhere = map[int]string{
	http.StatusNotModified: "", http.StatusMovedPermanently: "", http.StatusFound: "",
	http.StatusTemporaryRedirect: "", http.StatusBadRequest: "basic-error",
	http.StatusUnauthorized: "basic-error", http.StatusForbidden: "basic-error",
	http.StatusNotFound: "basic-error", http.StatusUnprocessableEntity: "basic-error",
	http.StatusTooManyRequests: "basic-error",
}

func (d *Description) checkGeneric(op *Operation, ex Exchange, schema string) []error {
	body := bytes.TrimSpace(ex.Response)
	if schema == "" || len(body) == 0 {
		if ex.Status == http.StatusNotModified && len(body) > 0 {
			return []error{fmt.Errorf("%s: response 304: has a body", op)}
		}
		return nil
	}
	return d.checkJSON(op, "response "+strconv.Itoa(ex.Status)+" body", "/components/schemas/"+schema, body)
}

// checkValue validates one path or query parameter's string value, read
// as each type its schema allows (workflow_id is an integer or a file
// name): it passes when one reading does.
func (d *Description) checkValue(op *Operation, what string, p param, raw string) []error {
	if p.schema == nil {
		return nil
	}
	s, err := d.schema(p.point)
	if err != nil {
		return []error{fmt.Errorf("%s: %s: compiling its schema: %v", op, what, err)}
	}
	var first error
	for _, t := range typesOf(p.schema) {
		v, err := read(t, raw)
		if err == nil {
			if err = s.Validate(v); err != nil {
				err = errors.New(leaves(err))
			}
		}
		if err == nil {
			return nil
		}
		if first == nil {
			first = err
		}
	}
	return []error{fmt.Errorf("%s: request: %s = %q: %v", op, what, raw, first)}
}

// read is a parameter's string as JSON type t.
func read(t, raw string) (any, error) {
	switch t {
	case "integer", "number":
		n, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			return nil, errors.New("not a number")
		}
		return n, nil
	case "boolean":
		if raw != "true" && raw != "false" {
			return nil, errors.New("not true or false")
		}
		return raw == "true", nil
	case "array":
		parts := []any{}
		for _, s := range strings.Split(raw, ",") {
			parts = append(parts, s)
		}
		return parts, nil
	}
	return raw, nil
}

// typesOf lists a schema's types, looking through anyOf (the nullable
// rewrite, and oneOf read as anyOf); "" when it names none.
func typesOf(s map[string]any) []string {
	if t, ok := s["type"].(string); ok {
		return []string{t}
	}
	var out []string
	if branches, ok := s["anyOf"].([]any); ok {
		for _, b := range branches {
			if m, ok := b.(map[string]any); ok && m["type"] != "null" {
				out = append(out, typesOf(m)...)
			}
		}
	}
	if len(out) == 0 {
		return []string{""}
	}
	return out
}

func (d *Description) checkJSON(op *Operation, what, pointer string, body []byte) []error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return []error{fmt.Errorf("%s: %s: not JSON: %v", op, what, err)}
	}
	s, err := d.schema(pointer)
	if err != nil {
		return []error{fmt.Errorf("%s: %s: compiling #%s: %v", op, what, pointer, err)}
	}
	if err := s.Validate(v); err != nil {
		return []error{fmt.Errorf("%s: %s: %s", op, what, leaves(err))}
	}
	return nil
}

// leaves renders a validation error as its innermost causes, each "at
// /json/path: what", leaving out the "want null" half of every nullable
// value (the other half says what was wrong).
func leaves(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err.Error()
	}
	var out []string
	seen := map[string]bool{}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		if t, ok := e.ErrorKind.(*kind.Type); ok && len(t.Want) == 1 && t.Want[0] == "null" {
			return
		}
		line := fmt.Sprintf("at %q: %s", "/"+strings.Join(e.InstanceLocation, "/"), e.ErrorKind.LocalizedString(printer))
		if !seen[line] {
			seen[line] = true
			out = append(out, line)
		}
	}
	walk(ve)
	if len(out) == 0 {
		return ve.Error()
	}
	if len(out) > 4 {
		out = append(out[:4], fmt.Sprintf("(and %d more)", len(out)-4))
	}
	return strings.Join(out, "; ")
}

// custom says a media type is one of GitHub's own non-JSON ones, which
// it answers when a request's Accept asks for it: application/vnd.github.raw,
// .sha, .diff; the description lists them for some operations only.
func custom(mt string) bool {
	return strings.HasPrefix(mt, "application/vnd.github.") && !isJSON(mt) && !strings.HasSuffix(mt, ".object")
}

func isJSON(mt string) bool { return mt == "application/json" || strings.HasSuffix(mt, "+json") }

func mediaTypes(m map[string]any) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		return "none"
	}
	return strings.Join(keys, ", ")
}
