package generator

import (
	"bytes"
	"encoding/json"
	"strings"
)

// indent pretty-prints compact JSON for a reader of the generated code:
// objects one member per line, arrays of scalars (enum values, required
// names) on one line, so a schema reads like the proto it came from.
func indent(compact []byte) ([]byte, error) {
	// Decoding into maps would lose the member order, so walk the tokens.
	var b bytes.Buffer
	if err := writeValue(&b, tokens(compact), ""); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func tokens(data []byte) *json.Decoder {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // numbers as written, never through float64
	return dec
}

func writeValue(b *bytes.Buffer, dec *json.Decoder, prefix string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		b.WriteString("{")
		first := true
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return err
			}
			if !first {
				b.WriteString(",")
			}
			first = false
			b.WriteString("\n" + prefix + "  ")
			writeScalar(b, key)
			b.WriteString(": ")
			if err := writeValue(b, dec, prefix+"  "); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		if !first {
			b.WriteString("\n" + prefix)
		}
		b.WriteString("}")
	case json.Delim('['):
		var items []string
		var nested bytes.Buffer
		scalars := true
		for dec.More() {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return err
			}
			if c := raw[0]; c == '{' || c == '[' {
				scalars = false
			}
			items = append(items, string(raw))
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		if scalars {
			b.WriteString("[" + strings.Join(items, ", ") + "]")
			return nil
		}
		b.WriteString("[")
		for i, item := range items {
			if i > 0 {
				b.WriteString(",")
			}
			nested.Reset()
			if err := writeValue(&nested, tokens([]byte(item)), prefix+"  "); err != nil {
				return err
			}
			b.WriteString("\n" + prefix + "  ")
			b.Write(nested.Bytes())
		}
		b.WriteString("\n" + prefix + "]")
	default:
		writeScalar(b, tok)
	}
	return nil
}

func writeScalar(b *bytes.Buffer, tok json.Token) {
	switch v := tok.(type) {
	case string:
		s, _ := marshal(v, "")
		b.Write(s)
	case json.Number:
		b.WriteString(v.String())
	case bool:
		if v {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case nil:
		b.WriteString("null")
	}
}
