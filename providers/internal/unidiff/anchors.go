package unidiff

// Anchors are the lines of one file's diff an inline review comment can
// name, per side: on the RIGHT the new file's added and context lines, on
// the LEFT the old file's removed and context lines. GitHub refuses a
// review whose comment names any other line (422 "Line could not be
// resolved"); its provider explains that refusal from these, and its
// fake enforces it.
type Anchors struct {
	Left, Right map[int]bool
}

// Shows reports whether the diff shows line on side ("LEFT", else the
// RIGHT).
func (a Anchors) Shows(side string, line int) bool {
	if side == "LEFT" {
		return a.Left[line]
	}
	return a.Right[line]
}

// AnchorsOf reads one file's hunks (GitHub's "patch") as its anchors. A
// patch that is no unified diff (see ParseHunks) shows no line: nothing
// in it can be trusted to be where it says.
func AnchorsOf(patch string) Anchors {
	a := Anchors{Left: map[int]bool{}, Right: map[int]bool{}}
	hunks, _, _, err := ParseHunks(patch)
	if err != nil {
		return a
	}
	for _, h := range hunks {
		for _, l := range h.Lines {
			if l.Op != '+' {
				a.Left[l.Old] = true
			}
			if l.Op != '-' {
				a.Right[l.New] = true
			}
		}
	}
	return a
}
