package localgit

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Grep bounds: a file larger than maxGrepFile is not searched (generated
// or vendored data, as forges' code search skips it too), and a matching
// line is cut at maxGrepLine bytes.
const (
	maxGrepFile = 1 << 20
	maxGrepLine = 500
)

// Match is one line Grep found.
type Match struct {
	Path string
	Line int // 1-based
	Text string
}

// errEnough stops the tree walk once a page is full.
var errEnough = errors.New("enough matches")

// Grep finds the lines of commit's text files that contain query, ignoring
// case, in path order then line order. It skips the first skip matches and
// returns at most limit; more says whether another match follows them, so
// it reads only as far as the page it returns (and one line past).
// Binary files, files over maxGrepFile and submodules are not searched.
func (r *Repo) Grep(commit plumbing.Hash, query string, skip, limit int) (matches []Match, more bool, err error) {
	if query == "" {
		return nil, false, ErrInvalid
	}
	tree, err := r.rootTree(commit)
	if err != nil {
		return nil, false, err
	}
	needle := []byte(strings.ToLower(query))
	seen := 0
	err = tree.Files().ForEach(func(f *object.File) error {
		if f.Mode == filemode.Submodule || f.Size > maxGrepFile {
			return nil
		}
		return grepFile(f, needle, func(line int, text []byte) error {
			seen++
			if seen <= skip {
				return nil
			}
			if len(matches) == limit {
				more = true
				return errEnough
			}
			matches = append(matches, Match{Path: f.Name, Line: line, Text: cutLine(text)})
			return nil
		})
	})
	if errors.Is(err, errEnough) {
		err = nil
	}
	return matches, more, err
}

// grepFile calls found for each line of f that contains needle (lower
// case), unless f is binary.
func grepFile(f *object.File, needle []byte, found func(line int, text []byte) error) error {
	rd, err := f.Reader()
	if err != nil {
		return err
	}
	defer rd.Close()
	data, err := io.ReadAll(io.LimitReader(rd, maxGrepFile+1))
	if err != nil {
		return err
	}
	if bytes.IndexByte(data[:min(len(data), binarySniff)], 0) >= 0 || !utf8.Valid(data) {
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, maxGrepFile+1)
	for n := 1; sc.Scan(); n++ {
		if bytes.Contains(bytes.ToLower(sc.Bytes()), needle) {
			if err := found(n, sc.Bytes()); err != nil {
				return err
			}
		}
	}
	return sc.Err()
}

// cutLine keeps at most maxGrepLine bytes of a line, never ending inside a
// character.
func cutLine(b []byte) string {
	if len(b) <= maxGrepLine {
		return string(b)
	}
	b = b[:maxGrepLine]
	for len(b) > 0 && !utf8.Valid(b) {
		b = b[:len(b)-1]
	}
	return string(b) + "…"
}
