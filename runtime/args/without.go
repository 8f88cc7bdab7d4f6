package args

import "bytes"

// Without returns the JSON object data with its members named name left
// out, every other member kept as the caller wrote it (spelling, order,
// repeats), so a decoder reading the result sees the model's own text. A
// grouped tool uses it to hand its action's arguments, less "action", to
// the action's decoder. Input that is not one JSON object comes back
// unchanged, for that decoder to refuse in its own words.
func Without(data []byte, name string) []byte {
	var out bytes.Buffer
	out.WriteByte('{')
	names := []string{name}
	whole := eachMember(data, func(key, val []byte) bool {
		if index(names, key) == 0 {
			return true
		}
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		out.Write(key)
		out.WriteByte(':')
		out.Write(val)
		return true
	})
	if !whole {
		return data
	}
	out.WriteByte('}')
	return out.Bytes()
}

// StringOf is the string value of the member of data named name, the key
// read as Parse reads keys (exactly, escapes resolved): a grouped tool
// reads the action of arguments the union refused, to say why that action
// is not offered. ok is false when data is not one JSON object or the
// member is absent, given more than once or not a string.
func StringOf(data []byte, name string) (s string, ok bool) {
	names := []string{name}
	var val []byte
	n := 0
	if !eachMember(data, func(key, v []byte) bool {
		if index(names, key) == 0 {
			val, n = v, n+1
		}
		return true
	}) || n != 1 {
		return "", false
	}
	s, msg := parseString(val)
	return s, msg == ""
}
