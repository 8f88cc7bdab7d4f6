package args

import "bytes"

// Without returns the JSON object data with its members named name left
// out, every other member kept as the caller wrote it (spelling, order,
// repeats), so a decoder reading the result sees the model's own text. A
// grouped tool uses it to hand its action's arguments, less "action", to
// the action's decoder. Input that is not one JSON object comes back
// unchanged, for that decoder to refuse in its own words.
func Without(data []byte, name string) []byte {
	if len(bytes.TrimSpace(data)) == 0 {
		return data
	}
	r := open(data)
	defer r.close()
	if r.dec.PeekKind() != '{' {
		return data
	}
	var out bytes.Buffer
	out.WriteByte('{')
	names := []string{name}
	err := r.members(func(key, val []byte) bool {
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
	if err != nil || r.rest(data) {
		return data
	}
	out.WriteByte('}')
	return out.Bytes()
}
