package breaking

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/forgetools/forgetools/runtime/export"
)

// ParseDeclared reads a declared-breaks file: one change Key per line,
// blank lines and "#" comments (whole-line or after a key) ignored. name is
// the file's name for errors.
func ParseDeclared(name string, data []byte) ([]string, error) {
	var keys []string
	for i, line := range strings.Split(string(data), "\n") {
		key, _, _ := strings.Cut(line, "#")
		key = strings.TrimSpace(key)
		switch {
		case key == "":
		case strings.ContainsAny(key, " \t"):
			return nil, fmt.Errorf("%s:%d: %q is not one key (a key has no spaces; put a reason after #)", name, i+1, key)
		case slices.Contains(keys, key):
			return nil, fmt.Errorf("%s:%d: %s declared twice", name, i+1, key)
		default:
			keys = append(keys, key)
		}
	}
	return keys, nil
}

// Declare marks the breaking changes whose Key is in keys as declared. It
// returns the changes and the stale keys, those matching no breaking
// change: a declaration outliving its break would excuse a later one.
func Declare(changes []Change, keys []string) ([]Change, []string) {
	out := slices.Clone(changes)
	used := map[string]bool{}
	for i, c := range out {
		if c.Breaking && slices.Contains(keys, c.Key()) {
			out[i].Declared = true
			used[c.Key()] = true
		}
	}
	var stale []string
	for _, k := range keys {
		if !used[k] {
			stale = append(stale, k)
		}
	}
	return out, stale
}

// ParseSnapshot decodes one snapshot file (the export.Definition JSON
// `forgetools tools --format json` prints per tool). Unknown fields, a
// missing name or an input schema that is not an object are refused, each
// error naming the file: a misread snapshot would hide breaks.
func ParseSnapshot(name string, data []byte) (export.Definition, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var d export.Definition
	if err := dec.Decode(&d); err != nil {
		return d, fmt.Errorf("%s: not a tool definition: %w", name, err)
	}
	if dec.More() {
		return d, fmt.Errorf("%s: not a tool definition: more than one JSON value", name)
	}
	if d.Name == "" {
		return d, fmt.Errorf("%s: not a tool definition: no name", name)
	}
	if _, err := decodeSchema(d.InputSchema); err != nil {
		return d, fmt.Errorf("%s: tool %s: input_schema is not a JSON object: %v", name, d.Name, err)
	}
	return d, nil
}

// ParseSnapshots decodes snapshot files by file name, in file-name order,
// refusing two files that define one tool.
func ParseSnapshots(files map[string][]byte) ([]export.Definition, error) {
	names := slices.Sorted(maps.Keys(files))
	var defs []export.Definition
	from := map[string]string{}
	for _, name := range names {
		d, err := ParseSnapshot(name, files[name])
		if err != nil {
			return nil, err
		}
		if prev, ok := from[d.Name]; ok {
			return nil, fmt.Errorf("%s: tool %s is already defined by %s", name, d.Name, prev)
		}
		from[d.Name] = name
		defs = append(defs, d)
	}
	return defs, nil
}
