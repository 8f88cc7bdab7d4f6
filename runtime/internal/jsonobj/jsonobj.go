// Package jsonobj reads and writes JSON objects that keep their key order.
// Schemas are rewritten (strict mode, a toolset narrowed to the forges a
// gateway serves) and read for the docs; a map would list properties
// alphabetically, and property order is the order a model fills them in.
package jsonobj

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
)

// Object is a JSON object that keeps its key order. Values are *Object,
// []any, string, json.Number, bool or nil.
type Object struct {
	Keys []string
	Vals map[string]any
}

// New returns an empty object.
func New() *Object { return &Object{Vals: map[string]any{}} }

func (o *Object) Get(k string) (any, bool) {
	v, ok := o.Vals[k]
	return v, ok
}

func (o *Object) Set(k string, v any) {
	if _, ok := o.Vals[k]; !ok {
		o.Keys = append(o.Keys, k)
	}
	o.Vals[k] = v
}

func (o *Object) Del(k string) {
	if _, ok := o.Vals[k]; ok {
		delete(o.Vals, k)
		o.Keys = slices.DeleteFunc(o.Keys, func(s string) bool { return s == k })
	}
}

func (o *Object) Str(k string) string {
	s, _ := o.Vals[k].(string)
	return s
}

func (o *Object) Obj(k string) *Object {
	v, _ := o.Vals[k].(*Object)
	return v
}

// strings returns k's value as a list of strings (e.g. "required").
func (o *Object) Strings(k string) []string {
	var out []string
	list, _ := o.Vals[k].([]any)
	for _, v := range list {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func (o *Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.Keys {
		if i > 0 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(k)
		b.Write(key)
		b.WriteByte(':')
		val, err := json.Marshal(o.Vals[k])
		if err != nil {
			return nil, err
		}
		b.Write(val)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Parse decodes one JSON value with objects as *Object and numbers as
// json.Number, so nothing is reordered or rounded on the way back out.
func Parse(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

func parseValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := New()
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := parseValue(dec)
			if err != nil {
				return nil, err
			}
			o.Set(k.(string), v)
		}
		_, err := dec.Token()
		return o, err
	case json.Delim('['):
		list := []any{}
		for dec.More() {
			v, err := parseValue(dec)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		_, err := dec.Token()
		return list, err
	case json.Delim('}'), json.Delim(']'):
		return nil, fmt.Errorf("unexpected %v", tok)
	}
	return tok, nil
}
