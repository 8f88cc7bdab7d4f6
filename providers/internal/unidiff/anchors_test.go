package unidiff

import (
	"slices"
	"testing"
)

func anchored(m map[int]bool) []int {
	var out []int
	for n, ok := range m {
		if ok {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// Two hunks of a change to a Go file: the old file's lines 3-6 and 20-22,
// the new file's 3-7 and 21-22.
const anchorPatch = `@@ -3,4 +3,5 @@ func main() {
 	x := 1
-	y := 2
+	y := 3
+	z := 4
 	fmt.Println(x, y)
 }
@@ -20,3 +21,2 @@ func helper() {
 	a()
-	b()
 	c()
\ No newline at end of file`

func TestAnchorsOf(t *testing.T) {
	a := AnchorsOf(anchorPatch)
	if got, want := anchored(a.Left), []int{3, 4, 5, 6, 20, 21, 22}; !slices.Equal(got, want) {
		t.Errorf("LEFT = %v, want %v", got, want)
	}
	if got, want := anchored(a.Right), []int{3, 4, 5, 6, 7, 21, 22}; !slices.Equal(got, want) {
		t.Errorf("RIGHT = %v, want %v", got, want)
	}
	for _, c := range []struct {
		side string
		line int
		want bool
	}{{"RIGHT", 5, true}, {"LEFT", 5, true}, {"RIGHT", 8, false}, {"LEFT", 7, false}, {"RIGHT", 20, false}, {"", 4, true}} {
		if got := a.Shows(c.side, c.line); got != c.want {
			t.Errorf("Shows(%q, %d) = %v, want %v", c.side, c.line, got, c.want)
		}
	}
}

// A new file is one hunk of additions; a hunk header without counts means
// one line; garbage, and a hunk whose lines its header does not count,
// show nothing.
func TestAnchorsOfEdges(t *testing.T) {
	if got := anchored(AnchorsOf("@@ -0,0 +1,2 @@\n+package x\n+").Right); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("new file RIGHT = %v", got)
	}
	if got := anchored(AnchorsOf("@@ -7 +7 @@\n-a\n+b").Left); !slices.Equal(got, []int{7}) {
		t.Errorf("one-line hunk LEFT = %v", got)
	}
	for _, p := range []string{" context before any hunk\n+x\n@@ broken @@\n+y", "@@ -1 +1 @@\n-a\n+b\n+c"} {
		if a := AnchorsOf(p); len(a.Left)+len(a.Right) != 0 {
			t.Errorf("%q shows %v %v", p, a.Left, a.Right)
		}
	}
}

func FuzzAnchorsOf(f *testing.F) {
	f.Add(anchorPatch)
	f.Fuzz(func(t *testing.T, p string) {
		a := AnchorsOf(p)
		for n := range a.Left {
			if n < 0 || n > maxLine {
				t.Fatalf("line %d out of range", n)
			}
		}
		for n := range a.Right {
			if n < 0 || n > maxLine {
				t.Fatalf("line %d out of range", n)
			}
		}
	})
}
