package local

import (
	"slices"
	"testing"
)

// TestReadOrderIsTheDecoders: the read statement aggregates lists and
// comments in no particular order (keyed), so the decoder alone puts them in
// their stored order, whatever order SQLite or PostgreSQL returned.
func TestReadOrderIsTheDecoders(t *testing.T) {
	l := &listed{
		labels:    `[{"p":2,"n":"ui"},{"p":0,"n":"bug"},{"p":1,"n":"Bug"}]`,
		assignees: `[]`,
	}
	lists, err := l.lists()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"bug", "Bug", "ui"}; !slices.Equal(lists.labels, want) {
		t.Errorf("labels = %q, want %q", lists.labels, want)
	}
	if lists.assignees != nil {
		t.Errorf("assignees = %q, want nil for an empty list", lists.assignees)
	}

	f := &Forge{baseURL: "https://forge.test"}
	it := &item{repo: "acme/app", number: 3, kind: kindIssue}
	comments, total, err := f.decodeComments(it, `[{"i":9,"a":"bob","b":"second"},{"i":4,"a":"ann","b":"first"}]`, 5)
	if err != nil {
		t.Fatal(err)
	}
	var bodies []string
	for _, c := range comments {
		bodies = append(bodies, c.GetBody())
	}
	if want := []string{"first", "second"}; !slices.Equal(bodies, want) {
		t.Errorf("comments = %q, want %q (oldest first)", bodies, want)
	}
	if comments[0].GetUrl() != "https://forge.test/acme/app/issues/3#issuecomment-4" {
		t.Errorf("first comment url = %q", comments[0].GetUrl())
	}
	if total != 5 {
		t.Errorf("total = %d, want 5", total)
	}
}
