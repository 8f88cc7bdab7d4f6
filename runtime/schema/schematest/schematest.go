// Package schematest reads a hand-written JSON Schema into a schema.Schema,
// for tests whose fixtures are easier to read as JSON. The runtime itself
// never parses a schema: the generator writes them as values.
package schematest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/forgetools/forgetools/runtime/schema"
)

// Parse reads text into a Schema; an error for anything Schema cannot hold.
func Parse(text string) (*schema.Schema, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	s, err := read(dec)
	if err == nil {
		_, err = dec.Token()
		if err == io.EOF {
			return s, nil
		}
		err = errors.New("trailing data after the schema")
	}
	return nil, err
}

// Must is Parse for a fixture: one that does not read is the test's bug.
func Must(text string) *schema.Schema {
	s, err := Parse(text)
	if err != nil {
		panic(fmt.Sprintf("schematest: %v in %s", err, text))
	}
	return s
}

func read(dec *json.Decoder) (*schema.Schema, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok == false {
		return schema.False, nil
	}
	if tok != json.Delim('{') {
		return nil, fmt.Errorf("a schema is an object or false, not %v", tok)
	}
	s := &schema.Schema{}
	v, typ := reflect.ValueOf(s).Elem(), reflect.TypeFor[schema.Schema]()
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		field := -1
		for i := range typ.NumField() {
			if name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ","); name == k {
				field = i
			}
		}
		if field < 0 {
			return nil, fmt.Errorf("keyword %q", k)
		}
		if err := readField(dec, v.Field(field)); err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
	}
	_, err = dec.Token()
	return s, err
}

func readField(dec *json.Decoder, f reflect.Value) error {
	switch f.Interface().(type) {
	case *schema.Schema:
		s, err := read(dec)
		f.Set(reflect.ValueOf(s))
		return err
	case []*schema.Schema:
		var list []*schema.Schema
		if _, err := dec.Token(); err != nil {
			return err
		}
		for dec.More() {
			s, err := read(dec)
			if err != nil {
				return err
			}
			list = append(list, s)
		}
		f.Set(reflect.ValueOf(list))
		_, err := dec.Token()
		return err
	case schema.Properties:
		props := schema.Properties{}
		if _, err := dec.Token(); err != nil {
			return err
		}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return err
			}
			s, err := read(dec)
			if err != nil {
				return err
			}
			props = append(props, schema.Property{Name: k.(string), Schema: s})
		}
		f.Set(reflect.ValueOf(props))
		_, err := dec.Token()
		return err
	case schema.Types:
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		var one string
		if json.Unmarshal(raw, &one) == nil {
			f.Set(reflect.ValueOf(schema.Types{one}))
			return nil
		}
		var many []string
		err := json.Unmarshal(raw, &many)
		f.Set(reflect.ValueOf(schema.Types(many)))
		return err
	}
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return err
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	return d.Decode(f.Addr().Interface())
}

// Func is a Tool.InputSchema for a fixture: a new value on every call.
func Func(text string) func() *schema.Schema {
	Must(text) // a fixture that does not read fails where it is written
	return func() *schema.Schema { return Must(text) }
}
