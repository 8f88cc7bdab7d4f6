// Package openapi holds an HTTP exchange to GitHub's published REST API
// description (the OpenAPI 3.0 documents npm's @octokit/openapi ships):
// the request is matched to one operation by method and path template,
// its path and query parameters and JSON body are validated against that
// operation, and the response against the operation's schema for its
// status. A mismatch names the operation and the JSON path.
//
// It exists so githubtest, a fake written alongside the provider it tests,
// is not the only witness of what GitHub accepts and answers: the fake's
// answers and the provider's requests are both held to GitHub's own words.
//
// A description is ~11-13 MB: it is decoded once, and the schemas of an
// operation are compiled the first time an exchange uses them and then
// reused, so a test binary pays for the operations it touches only.
package openapi

import (
	"fmt"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Description is one loaded OpenAPI description.
type Description struct {
	// Name is what the description calls itself (info.x-github-plan and
	// the file name, e.g. "ghes-3.19").
	Name string

	doc   map[string]any
	base  string // the resource URL schemas are compiled against
	paths []*template
	// byLen indexes paths by segment count; spans holds those whose last
	// parameter may take several segments. Match looks at these only.
	byLen map[int][]*template
	spans []*template

	mu       sync.Mutex
	compiler *jsonschema.Compiler
	schemas  map[string]*jsonschema.Schema // pointer -> compiled schema
}

// template is one path of the description, split into segments.
type template struct {
	raw   string
	segs  []string // "{name}" for a parameter
	item  map[string]any
	lits  int // literal segments, for preferring /issues/comments over /issues/{n}
	point string
}

// Load reads and prepares the description at path.
func Load(path string) (*Description, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	raw, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	doc, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: not an OpenAPI document", path)
	}
	if v, _ := doc["openapi"].(string); !strings.HasPrefix(v, "3.0") {
		return nil, fmt.Errorf("%s: OpenAPI version %q, want 3.0.x", path, v)
	}
	nullable(doc)
	relax(doc)
	name := strings.TrimSuffix(path[strings.LastIndex(path, "/")+1:], ".json")
	d := &Description{
		Name:    name,
		doc:     doc,
		base:    "https://description.invalid/" + url.PathEscape(name) + ".json",
		schemas: map[string]*jsonschema.Schema{},
	}
	d.compiler = jsonschema.NewCompiler()
	// OpenAPI 3.0's Schema Object is JSON Schema draft 4 (wright-00) with
	// additions; nullable is rewritten above, the rest are annotations.
	d.compiler.DefaultDraft(jsonschema.Draft4)
	if err := d.compiler.AddResource(d.base, doc); err != nil {
		return nil, err
	}
	paths, _ := doc["paths"].(map[string]any)
	for raw, item := range paths {
		m, _ := item.(map[string]any)
		t := &template{raw: raw, segs: strings.Split(strings.TrimPrefix(raw, "/"), "/"), item: m,
			point: "/paths/" + escapePointer(raw)}
		for _, s := range t.segs {
			if !strings.HasPrefix(s, "{") {
				t.lits++
			}
		}
		d.paths = append(d.paths, t)
	}
	sort.Slice(d.paths, func(i, j int) bool { return d.paths[i].raw < d.paths[j].raw })
	d.byLen = map[int][]*template{}
	for _, t := range d.paths {
		d.byLen[len(t.segs)] = append(d.byLen[len(t.segs)], t)
		if last := t.segs[len(t.segs)-1]; strings.HasPrefix(last, "{") && spans[strings.Trim(last, "{}")] {
			d.spans = append(d.spans, t)
		}
	}
	return d, nil
}

// nullable rewrites OpenAPI 3.0's `nullable: true` into JSON Schema: the
// value may also be null. Anything else in the schema still applies to a
// value that is not null (so an enum need not list null).
func nullable(v any) any {
	switch n := v.(type) {
	case map[string]any:
		for k, c := range n {
			n[k] = nullable(c)
		}
		// oneOf is read as anyOf: GitHub's branches overlap (a body of
		// basic-error's optional fields is also a rule-violation error),
		// so "exactly one" fails GitHub's own answers.
		if one, ok := n["oneOf"]; ok {
			delete(n, "oneOf")
			n["anyOf"] = one
		}
		if b, _ := n["nullable"].(bool); b {
			delete(n, "nullable")
			return map[string]any{"anyOf": []any{map[string]any{"type": "null"}, n}}
		}
		delete(n, "nullable")
		return n
	case []any:
		for i, c := range n {
			n[i] = nullable(c)
		}
	}
	return v
}

// Unrequired says which required properties the check lets an answer
// leave out: GitHub's hypermedia links (every "*_url" of a user,
// repository, issue or pull request, and "_links"), which no forgetools
// code reads and the fake does not model; docs/trust.md lists this. Their
// type and format still hold where an answer sends them.
func Unrequired(name string) bool {
	return name == "_links" || strings.HasSuffix(name, "_url")
}

// relax drops the Unrequired names from every "required" list.
func relax(v any) {
	switch n := v.(type) {
	case map[string]any:
		if req, ok := n["required"].([]any); ok {
			keep := req[:0]
			for _, r := range req {
				if s, ok := r.(string); !ok || !Unrequired(s) {
					keep = append(keep, r)
				}
			}
			n["required"] = keep
		}
		for _, c := range n {
			relax(c)
		}
	case []any:
		for _, c := range n {
			relax(c)
		}
	}
}

// escapePointer escapes one JSON pointer token.
func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// at is the value at a JSON pointer ("/a/b") in the document.
func (d *Description) at(pointer string) any {
	var v any = d.doc
	for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[tok]
	}
	return v
}

// deref follows a local $ref ("#/components/...") from the object at
// pointer, returning the object and the pointer it now lives at.
func (d *Description) deref(v any, pointer string) (map[string]any, string) {
	for range 8 {
		m, _ := v.(map[string]any)
		ref, ok := m["$ref"].(string)
		if !ok {
			return m, pointer
		}
		pointer = strings.TrimPrefix(ref, "#")
		v = d.at(pointer)
	}
	return nil, pointer
}

// schema compiles (once) the schema at pointer.
func (d *Description) schema(pointer string) (*jsonschema.Schema, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if s, ok := d.schemas[pointer]; ok {
		return s, nil
	}
	s, err := d.compiler.Compile(d.base + "#" + pointer)
	if err != nil {
		return nil, err
	}
	d.schemas[pointer] = s
	return s, nil
}

// Operation is one matched operation.
type Operation struct {
	ID       string // operationId, e.g. "issues/get"
	Method   string
	Template string // e.g. "/repos/{owner}/{repo}/issues/{issue_number}"

	obj    map[string]any
	point  string
	params map[string]string // path-template name -> value
}

// String names the operation as a failure message does.
func (o *Operation) String() string { return fmt.Sprintf("%s (%s %s)", o.ID, o.Method, o.Template) }

// Match finds the operation for method and an escaped request path (the
// API root's prefix removed). Literal segments win over parameters at the
// first place they differ; a last parameter may span several segments,
// as {path} and {ref} do on GitHub.
func (d *Description) Match(method, escapedPath string) (*Operation, error) {
	segs := strings.Split(strings.TrimPrefix(escapedPath, "/"), "/")
	lm := strings.ToLower(method)
	var best *template
	var bestParams map[string]string
	try := func(ts []*template) {
		for _, t := range ts {
			if _, ok := t.item[lm]; !ok {
				continue
			}
			params, ok := t.match(segs)
			if !ok {
				continue
			}
			if best == nil || better(t, best) {
				best, bestParams = t, params
			}
		}
	}
	try(d.byLen[len(segs)])
	try(d.spans)
	if best == nil {
		// GitHub redirects a renamed repository's requests to
		// /repositories/{id}/..., which the description lists for none but
		// the repository itself: hold them to the /repos/{owner}/{repo}/...
		// operation they stand for.
		if rest, ok := byID(segs); ok {
			return d.Match(method, "/repos/{id}/{id}"+rest)
		}
		return nil, fmt.Errorf("%s %s matches no operation of %s", method, escapedPath, d.Name)
	}
	obj, _ := best.item[lm].(map[string]any)
	id, _ := obj["operationId"].(string)
	return &Operation{ID: id, Method: method, Template: best.raw, obj: obj,
		point: best.point + "/" + lm, params: bestParams}, nil
}

// byID is the rest of a /repositories/{id}/... path.
func byID(segs []string) (string, bool) {
	if len(segs) < 2 || segs[0] != "repositories" || strings.Trim(segs[1], "0123456789") != "" || segs[1] == "" {
		return "", false
	}
	if len(segs) == 2 {
		return "", true
	}
	return "/" + strings.Join(segs[2:], "/"), true
}

// better prefers the template with a literal where the other has a
// parameter, at the first segment where they differ; then the exact
// segment count.
func better(a, b *template) bool {
	for i := range min(len(a.segs), len(b.segs)) {
		ap, bp := strings.HasPrefix(a.segs[i], "{"), strings.HasPrefix(b.segs[i], "{")
		if ap != bp {
			return bp
		}
	}
	return len(a.segs) > len(b.segs)
}

// spans are the path parameters GitHub lets hold slashes when last.
var spans = map[string]bool{"path": true, "ref": true, "branch": true, "basehead": true}

func (t *template) match(segs []string) (map[string]string, bool) {
	last := t.segs[len(t.segs)-1]
	span := len(segs) > len(t.segs) && spans[strings.Trim(last, "{}")] && strings.HasPrefix(last, "{")
	if len(segs) < len(t.segs) || (len(segs) > len(t.segs) && !span) {
		return nil, false
	}
	for i, ts := range t.segs {
		if !strings.HasPrefix(ts, "{") && ts != segs[i] {
			return nil, false
		}
	}
	params := map[string]string{}
	for i, ts := range t.segs {
		if !strings.HasPrefix(ts, "{") {
			continue
		}
		seg := segs[i]
		if i == len(t.segs)-1 && span {
			seg = strings.Join(segs[i:], "/")
		}
		v, err := url.PathUnescape(seg)
		// An empty {path} is the repository's root: GitHub answers
		// contents/ with the top directory.
		if err != nil || (v == "" && ts != "{path}") {
			return nil, false
		}
		params[strings.Trim(ts, "{}")] = v
	}
	return params, true
}
