package forgemodel

import (
	"cmp"
	"maps"
	"slices"
	"strings"
)

// The git side of a repository: the files on each branch, and branches
// whose heads are commits of them (history.go).

// AddRepo creates the repository at path with its default branch holding
// files, and further branches (copies of it) at the same initial commit;
// the credential owns it.
func (s *State) AddRepo(path, defaultBranch string, files map[string]string, branches ...string) *Repo {
	r := &Repo{
		ID: s.ID(), Path: path, DefaultBranch: defaultBranch, Access: 50,
		Branches: map[string]string{}, Files: map[string]map[string]string{}, LastCommit: map[string]map[string]string{},
	}
	s.Repos[strings.ToLower(path)] = r
	r.Files[defaultBranch] = maps.Clone(files)
	root := s.root(r, r.tree(defaultBranch)).SHA
	for _, b := range append([]string{defaultBranch}, branches...) {
		r.Files[b] = maps.Clone(files)
		r.Branches[b] = root
		r.LastCommit[b] = map[string]string{}
		for f := range files {
			r.LastCommit[b][f] = root
		}
	}
	return r
}

// TreeID is the id of directory dir ("" the root) on a branch: like a
// git tree id it digests the files under it, so it changes when one of
// them does and is the same wherever they are the same; it is the sha
// Commit.Dir gives the directory.
func (r *Repo) TreeID(branch, dir string) string {
	prefix := strings.Trim(dir, "/")
	if prefix != "" {
		prefix += "/"
	}
	files := r.Files[branch]
	id := ""
	for _, p := range slices.Sorted(maps.Keys(files)) {
		if rest, under := strings.CutPrefix(p, prefix); under {
			id = HashOf(id, rest, BlobSHA(files[p]))
		}
	}
	return cmp.Or(id, emptyTree)
}

// emptyTree is git's id of the empty tree.
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// Branch makes name a copy of branch from (head, files and their last
// commits).
func (r *Repo) Branch(name, from string) {
	r.Branches[name] = r.Branches[from]
	r.Files[name] = maps.Clone(r.Files[from])
	r.LastCommit[name] = maps.Clone(r.LastCommit[from])
	if r.LastCommit[name] == nil {
		r.LastCommit[name] = map[string]string{}
	}
}

// Merge copies from's files onto to and reports the paths it changed;
// the caller commits.
func (r *Repo) Merge(from, to string) []string {
	var changed []string
	for _, k := range slices.Sorted(maps.Keys(r.Files[from])) {
		if v := r.Files[from][k]; r.Files[to][k] != v {
			r.Files[to][k] = v
			changed = append(changed, k)
		}
	}
	return changed
}

// BranchAt is the branch whose files a ref shows: the branch itself, or
// the branch whose head is that commit (or a prefix of seven or more
// digits of it); "" for neither.
func (r *Repo) BranchAt(ref string) string {
	if _, found := r.Branches[ref]; found {
		return ref
	}
	if len(ref) < 7 {
		return ""
	}
	for _, b := range slices.Sorted(maps.Keys(r.Branches)) {
		if strings.HasPrefix(r.Branches[b], strings.ToLower(ref)) {
			return b
		}
	}
	return ""
}

// Entry is one entry of a directory listing.
type Entry struct {
	Name, Path string
	Dir        bool
	Content    string // a file's
}

// List is the directory dir ("" for the root) on a branch: files and
// subdirectories, sorted by path; nil when there is nothing under it.
func (r *Repo) List(branch, dir string) []Entry {
	prefix := strings.Trim(dir, "/")
	if prefix != "" {
		prefix += "/"
	}
	var out []Entry
	seen := map[string]bool{}
	files := r.Files[branch]
	for _, k := range slices.Sorted(maps.Keys(files)) {
		rest, under := strings.CutPrefix(k, prefix)
		if !under {
			continue
		}
		if sub, _, nested := strings.Cut(rest, "/"); nested {
			if !seen[sub] {
				seen[sub] = true
				out = append(out, Entry{Name: sub, Path: prefix + sub, Dir: true})
			}
			continue
		}
		out = append(out, Entry{Name: rest, Path: k, Content: files[k]})
	}
	return out
}
