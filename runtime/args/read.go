package args

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// This file is the one JSON reader of the package: jsontext's tokenizer,
// over the caller's bytes without a copy (a bytes.Buffer input is parsed in
// place, so every key and value handed out is a slice of the input). It
// checks RFC 8259 as encoding/json does: nesting limited to 10,000 levels
// over the document, bytes that are not UTF-8 and lone surrogate escapes
// let through, for parseString to refuse by name (text.go), and repeated
// names let through, for the callers to refuse with the parameter's path
// (jsontext would refuse the whole document at the first repeat anywhere,
// even inside a value that is wrong for other reasons). FuzzScan holds it
// to encoding/json's verdict on every input.

// readOptions are the options every decoder of the package reads with.
var readOptions = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}

// reader is a decoder with the buffer it reads from, pooled: a call decodes
// an object per nested message and array.
type reader struct {
	in  bytes.Buffer
	dec jsontext.Decoder
}

var readers = sync.Pool{New: func() any { return new(reader) }}

// open starts reading data; close returns the reader to the pool.
func open(data []byte) *reader {
	r := readers.Get().(*reader)
	r.in = *bytes.NewBuffer(data)
	r.dec.Reset(&r.in, readOptions...)
	return r
}

func (r *reader) close() {
	r.in = bytes.Buffer{}
	readers.Put(r)
}

// members reads the object at the decoder's position, calling member with
// each key's and value's text in order; member returning false stops the
// read. It returns the first syntax error, if any.
func (r *reader) members(member func(key, val []byte) bool) error {
	if _, err := r.dec.ReadToken(); err != nil { // '{'
		return err
	}
	for r.dec.PeekKind() != '}' {
		key, err := r.dec.ReadValue()
		if err != nil {
			return err
		}
		val, err := r.dec.ReadValue()
		if err != nil {
			return err
		}
		if !member(key, val) {
			return nil
		}
	}
	_, err := r.dec.ReadToken() // '}'
	return err
}

// eachMember calls member with each key and value of data in order, and
// reports whether data was exactly one JSON object, read to its end.
func eachMember(data []byte, member func(key, val []byte) bool) bool {
	r := open(data)
	defer r.close()
	return r.dec.PeekKind() == '{' && r.members(member) == nil && !r.rest(data)
}

// object calls member with each key and value of raw, a valid JSON object.
func object(raw []byte, member func(key, val []byte) bool) {
	r := open(raw)
	defer r.close()
	_ = r.members(member) // raw was read once already: no syntax error
}

// elements appends the text of each element of arr, a valid JSON array, to
// buf: one pass, so the caller knows the length before decoding any.
func elements(arr []byte, buf [][]byte) [][]byte {
	r := open(arr)
	defer r.close()
	if _, err := r.dec.ReadToken(); err != nil { // '['
		return buf
	}
	for r.dec.PeekKind() != ']' {
		v, err := r.dec.ReadValue()
		if err != nil {
			return buf
		}
		buf = append(buf, v)
	}
	return buf
}

// rest reports whether anything but white space follows the value the
// decoder has read.
func (r *reader) rest(data []byte) bool {
	return len(trimSpace(data[r.dec.InputOffset():])) != 0
}

// trimSpace drops JSON white space from the start of b (bytes.TrimLeft
// would build its set of bytes on every value).
func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r') {
		b = b[1:]
	}
	return b
}

// syntaxProblem phrases a syntax error for the model: jsontext's words
// without its package prefix, which say what was wrong and where ("invalid
// character '}' at start of value within \"/repo\" after offset 9").
func syntaxProblem(err error) string {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return "unexpected end of input"
	}
	return strings.TrimPrefix(err.Error(), "jsontext: ")
}

// unquote decodes the text of a valid JSON string literal exactly as
// encoding/json does: escapes resolved, a UTF-16 surrogate that is not
// half of a pair and every byte that is not UTF-8 read as U+FFFD. A
// string without escapes or stray bytes costs one copy.
func unquote(lit []byte) string {
	s := lit[1 : len(lit)-1]
	if bytes.IndexByte(s, '\\') < 0 && utf8.Valid(s) {
		return string(s)
	}
	b, _ := jsontext.AppendUnquote(make([]byte, 0, len(s)), lit) // the error says U+FFFD was put in
	return string(b)
}
