package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/forgetools/forgetools/runtime"
	"github.com/forgetools/forgetools/runtime/export"
	"github.com/forgetools/forgetools/runtime/export/breaking"
)

// breakingFlags are `tools --breaking-against` and its companions: compare
// the tools the command would print with a baseline surface.
type breakingFlags struct {
	against, declared, snapshots string
}

func (b *breakingFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&b.against, "breaking-against", "", "check the tools against a baseline: a directory of tool snapshots or a git revision; fails on an undeclared breaking change")
	cmd.Flags().StringVar(&b.declared, "declared", "", "with --breaking-against: a file of declared (accepted) breaking changes, one key per line")
	cmd.Flags().StringVar(&b.snapshots, "snapshots", "tests/toolsnaps", "with --breaking-against a git revision: the snapshot directory, relative to the repository root (with --shape grouped, default tests/toolsnaps/grouped)")
	// A check is asked for on the command line, never by a stray variable.
	skipEnv(cmd, "breaking-against", "declared", "snapshots")
}

// active is whether the command checks instead of printing.
func (b *breakingFlags) active(cmd *cobra.Command) bool {
	f := cmd.Flags()
	return f.Changed("breaking-against") || f.Changed("declared") || f.Changed("snapshots")
}

// check compares ts with the baseline, prints one line per change and a
// summary, and fails on an undeclared break or a stale declaration.
func (b *breakingFlags) check(cmd *cobra.Command, ts *runtime.Toolset) error {
	w := cmd.OutOrStdout()
	if b.against == "" {
		return usageError{errors.New("--declared and --snapshots need --breaking-against")}
	}
	dir := b.snapshots
	if !cmd.Flags().Changed("snapshots") && ts.Shape() == runtime.ShapeGrouped {
		dir = path.Join(dir, "grouped") // where the grouped shape's snapshots live
	}
	files, where, err := b.baseline(dir)
	if err != nil {
		return err
	}
	old, err := breaking.ParseSnapshots(files)
	if err != nil {
		return err
	}
	var keys []string
	if b.declared != "" {
		data, err := os.ReadFile(b.declared)
		if err != nil {
			return fmt.Errorf("--declared: %w", err)
		}
		if keys, err = breaking.ParseDeclared(b.declared, data); err != nil {
			return err
		}
	}
	changes, stale := breaking.Declare(breaking.Compare(old, export.Definitions(ts)), keys)
	var undeclared, declared int
	for _, c := range changes {
		fmt.Fprintln(w, c)
		switch {
		case c.Declared:
			declared++
		case c.Breaking:
			undeclared++
		}
	}
	for _, k := range stale {
		fmt.Fprintf(w, "stale: %s (%s) matches no breaking change\n", k, b.declared)
	}
	fmt.Fprintf(w, "%d breaking (%d declared), %d compatible, %d stale declarations, against %s\n",
		undeclared+declared, declared, len(changes)-undeclared-declared, len(stale), where)
	var errs []error
	if undeclared > 0 {
		errs = append(errs, fmt.Errorf("%d undeclared breaking changes against %s: keep the old surface (an alias keeps a renamed tool), or declare each key (in brackets above) in the file --declared names", undeclared, where))
	}
	if len(stale) > 0 {
		errs = append(errs, fmt.Errorf("%s: %d stale declarations match no breaking change (remove them): %s", b.declared, len(stale), strings.Join(stale, ", ")))
	}
	return errors.Join(errs...)
}

// baseline reads the baseline's snapshot files, keyed by the name errors
// should give them, and says where they came from.
func (b *breakingFlags) baseline(snapshots string) (map[string][]byte, string, error) {
	info, err := os.Stat(b.against)
	switch {
	case err == nil && info.IsDir():
		return snapshotDir(b.against)
	case err == nil:
		return nil, "", usageError{fmt.Errorf("--breaking-against %s: a file; want a directory of tool snapshots or a git revision", b.against)}
	}
	return snapshotRev(b.against, snapshots)
}

// snapshotDir reads the *.json files of dir (not its subdirectories).
func snapshotDir(dir string) (map[string][]byte, string, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, "", err
	}
	files := map[string][]byte{}
	for _, n := range names {
		if files[n], err = os.ReadFile(n); err != nil {
			return nil, "", err
		}
	}
	if len(files) == 0 {
		return nil, "", fmt.Errorf("--breaking-against %s: no snapshots found (no *.json files)", dir)
	}
	return files, dir, nil
}

// snapshotRev reads the *.json files of dir, relative to the repository
// root, as they are at the git revision rev.
func snapshotRev(rev, dir string) (map[string][]byte, string, error) {
	if strings.HasPrefix(rev, "-") { // never an option to git
		return nil, "", usageError{fmt.Errorf("--breaking-against %s: not a directory or a git revision", rev)}
	}
	commit, err := git("rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		return nil, "", fmt.Errorf("--breaking-against %s: not a directory, and not a git revision here (%v)", rev, err)
	}
	dir = path.Clean(filepath.ToSlash(dir))
	where, treePath := rev+":"+dir, dir
	if dir == "." {
		treePath = "" // <commit>: is the root tree
	}
	tree, err := git("ls-tree", "-z", strings.TrimSpace(string(commit))+":"+treePath)
	if err != nil {
		return nil, "", fmt.Errorf("--breaking-against %s: no directory %s at that revision (--snapshots names it): %v", rev, dir, err)
	}
	files := map[string][]byte{}
	for _, entry := range bytes.Split(tree, []byte{0}) {
		// "<mode> <type> <object>\t<name>"
		meta, name, _ := strings.Cut(string(entry), "\t")
		fields := strings.Fields(meta)
		if len(fields) != 3 || fields[1] != "blob" || !strings.HasSuffix(name, ".json") {
			continue
		}
		data, err := git("cat-file", "blob", fields[2])
		if err != nil {
			return nil, "", fmt.Errorf("%s/%s: %v", where, name, err)
		}
		files[where+"/"+name] = data
	}
	if len(files) == 0 {
		return nil, "", fmt.Errorf("--breaking-against %s: no snapshots found (no *.json files in %s)", rev, where)
	}
	return files, where, nil
}

// git runs git in the working directory and returns its output; an error
// carries git's own message.
func git(args ...string) ([]byte, error) {
	var stderr bytes.Buffer
	cmd := exec.Command("git", args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("git %s: %s", args[0], msg)
		}
		return nil, fmt.Errorf("git %s: %w", args[0], err)
	}
	return out, nil
}
