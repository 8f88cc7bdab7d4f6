package args

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
)

// explain says why Parse refused data, in the words the model has always
// read: encoding/json's for a syntax error ("invalid character '}' looking
// for beginning of value"), ours for the rest. It reads data again with
// encoding/json's streaming decoder, which builds an error per token: a
// price paid only by a call that is failing anyway, never on the happy path.
func explain(data []byte, names []string) string {
	_, keys, msg := readObject(data)
	if msg != "" {
		return "arguments " + msg
	}
	if msg := unknown(keys, names); msg != "" {
		return msg
	}
	// Left: nesting past encoding/json's depth limit inside a value, which
	// the streaming decoder counts from each value and Parse (like
	// json.Valid) from the document.
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return "arguments are not valid JSON: " + jsonProblem(err)
	}
	return "arguments are not valid JSON" // unreachable: FuzzParseAgrees
}

// readObject splits one JSON object into its values the slow way, rejecting
// repeated keys and anything after the object. It returns every key, and
// the values without the nulls: null means absent. It stays the reference
// Parse is fuzzed against.
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
