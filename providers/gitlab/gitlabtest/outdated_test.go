package gitlabtest

import (
	"encoding/json"
	"testing"

	gl "gitlab.com/gitlab-org/api/client-go"
)

// TestPositionTracking: a diff note's position follows the merge request
// as GitLab's position tracer does: a line added above it moves it to the
// new diff refs and its new line number; a push that changes its line
// leaves it at its old position and diff refs, which the merge request's
// diff_refs no longer are.
func TestPositionTracking(t *testing.T) {
	s := seeded(t)
	refs := func() *gl.MergeRequestDiffRefs {
		_, _, mr := do(t, s, "GET", deployPath+"/merge_requests/1", "", token)
		var m gl.MergeRequest
		json.Unmarshal(mr, &m)
		return &m.DiffRefs
	}
	write := func(content string) {
		t.Helper()
		if code, _, body := do(t, s, "PUT", deployPath+"/repository/files/charts%2Fapp%2Fvalues.yaml",
			`{"branch":"canary","content":"`+content+`","commit_message":"Values"}`, token); code != 200 {
			t.Fatalf("write: %d %s", code, body)
		}
	}
	write(`a: 1\nb: 2\n`)
	first := refs()
	do(t, s, "POST", deployPath+"/merge_requests/1/discussions",
		`{"body":"b?","position":{"base_sha":"`+first.BaseSha+`","start_sha":"`+first.StartSha+`","head_sha":"`+first.HeadSha+`","position_type":"text","new_path":"charts/app/values.yaml","old_path":"charts/app/values.yaml","new_line":2}}`, reviewer)
	position := func() *gl.NotePosition {
		t.Helper()
		_, _, body := do(t, s, "GET", deployPath+"/merge_requests/1/discussions", "", token)
		var list []gl.Discussion
		if err := json.Unmarshal(body, &list); err != nil || len(list) != 1 || list[0].Notes[0].Position == nil {
			t.Fatalf("discussions %s", body)
		}
		return list[0].Notes[0].Position
	}
	write(`top: 0\na: 1\nb: 2\n`)
	moved := refs()
	if pos := position(); pos.HeadSHA != moved.HeadSha || pos.BaseSHA != moved.BaseSha || pos.NewLine != 3 {
		t.Errorf("after a line added above: %+v, want line 3 at head %s", pos, moved.HeadSha)
	}
	write(`top: 0\na: 1\nb: 3\n`)
	if pos := position(); pos.HeadSHA != first.HeadSha || pos.NewLine != 2 || refs().HeadSha == first.HeadSha {
		t.Errorf("after its line changed: %+v, want line 2 at the first head %s", pos, first.HeadSha)
	}
}
