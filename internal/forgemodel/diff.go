package forgemodel

import (
	"maps"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	fdiff "github.com/go-git/go-git/v5/plumbing/format/diff"
	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// FileDiff is one file that differs between two branches, as the fakes'
// diff endpoints serve it.
type FileDiff struct {
	Path           string
	Added, Deleted bool
	// Patch is the file's hunks ("@@" sections only), as GitLab serves a
	// file's diff; Git is the whole "diff --git" section, as Gitea's
	// .diff serves it.
	Patch, Git string
}

// Diff is what head's files change from base, by path, as every forge
// diffs a pull request (git diff base...head): from the merge base's
// tree, so a change base made after head left it is not shown reversed.
// Branches with no common commit diff from base's files.
func (r *Repo) Diff(base, head string) []FileDiff {
	from := r.Files[base]
	if mb := r.Commits[r.MergeBase(r.Branches[base], r.Branches[head])]; mb != nil {
		from = Contents(mb.Tree)
	}
	return DiffFiles(from, r.Files[head])
}

// DiffFiles is what the files to change from the files from, by path
// (a fake that keeps commits diffs two commits' trees through it).
func DiffFiles(from, to map[string]string) []FileDiff {
	paths := map[string]bool{}
	for p := range from {
		paths[p] = true
	}
	for p := range to {
		paths[p] = true
	}
	var out []FileDiff
	for _, p := range slices.Sorted(maps.Keys(paths)) {
		a, inA := from[p]
		b, inB := to[p]
		if inA && inB && a == b {
			continue
		}
		fp := filePatch{path: p, chunks: chunks(a, b)}
		if inA {
			fp.from = &file{p, a}
		}
		if inB {
			fp.to = &file{p, b}
		}
		var sb strings.Builder
		_ = fdiff.NewUnifiedEncoder(&sb, fdiff.DefaultContextLines).Encode(patch{fp})
		git := sb.String()
		hunks := ""
		if i := strings.Index(git, "\n@@ "); i >= 0 {
			hunks = git[i+1:]
		}
		out = append(out, FileDiff{Path: p, Added: !inA, Deleted: !inB, Patch: hunks, Git: git})
	}
	return out
}

// GitDiff is the diffs as one git diff.
func GitDiff(ds []FileDiff) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Git)
	}
	return b.String()
}

func chunks(a, b string) []fdiff.Chunk {
	var out []fdiff.Chunk
	for _, d := range diff.Do(a, b) {
		op := fdiff.Equal
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			op = fdiff.Add
		case diffmatchpatch.DiffDelete:
			op = fdiff.Delete
		}
		out = append(out, chunk{d.Text, op})
	}
	return out
}

type patch struct{ fp fdiff.FilePatch }

func (p patch) FilePatches() []fdiff.FilePatch { return []fdiff.FilePatch{p.fp} }
func (p patch) Message() string                { return "" }

type filePatch struct {
	path     string
	from, to *file
	chunks   []fdiff.Chunk
}

func (f filePatch) IsBinary() bool { return false }
func (f filePatch) Files() (fdiff.File, fdiff.File) {
	var a, b fdiff.File
	if f.from != nil {
		a = f.from
	}
	if f.to != nil {
		b = f.to
	}
	return a, b
}
func (f filePatch) Chunks() []fdiff.Chunk { return f.chunks }

type file struct{ path, content string }

func (f *file) Hash() plumbing.Hash     { return plumbing.NewHash(BlobSHA(f.content)) }
func (f *file) Mode() filemode.FileMode { return filemode.Regular }
func (f *file) Path() string            { return f.path }

type chunk struct {
	content string
	op      fdiff.Operation
}

func (c chunk) Content() string       { return c.content }
func (c chunk) Type() fdiff.Operation { return c.op }
