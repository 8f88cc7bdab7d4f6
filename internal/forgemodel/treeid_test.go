package forgemodel

import "testing"

// A directory's id digests what it holds, as a git tree id: a change to
// a file under it changes it, one elsewhere does not, two branches with
// the same files under it share it, and it is the sha Commit.Dir lists
// the directory with.
func TestTreeID(t *testing.T) {
	s := NewState()
	r := s.AddRepo("a/b", "main", map[string]string{"README": "r\n", "src/a.go": "a\n", "src/lib/b.go": "b\n"}, "feature")
	src, root := r.TreeID("main", "src"), r.TreeID("main", "")
	if r.TreeID("feature", "src") != src {
		t.Errorf("the same files on two branches have two ids")
	}
	entries, _ := r.Commits[r.Branches["main"]].Dir("")
	if entries[1].Path != "src" || entries[1].SHA != src {
		t.Errorf("Dir lists %+v, TreeID says %s", entries[1], src)
	}
	r.Files["feature"]["README"] = "changed\n"
	if r.TreeID("feature", "src") != src || r.TreeID("feature", "") == root {
		t.Errorf("a change outside src changed its id, or the root's did not change")
	}
	r.Files["feature"]["src/lib/b.go"] = "changed\n"
	if r.TreeID("feature", "src") == src || r.TreeID("feature", "src/") != r.TreeID("feature", "src") {
		t.Errorf("a change under src left its id")
	}
	if r.TreeID("main", "nowhere") != emptyTree {
		t.Errorf("a directory with nothing under it is not the empty tree")
	}
}
