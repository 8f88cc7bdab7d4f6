package gitlabtest

import (
	"encoding/json"
	"net/http"
	"testing"

	gl "gitlab.com/gitlab-org/api/client-go"
)

// TestDiscussionStatuses: the discussion endpoints answer as GitLab's API
// does: the list groups a reply with its diff discussion and shows an
// overview note as an individual one; another merge request's discussion
// is 404; resolving needs resolved (400) and a resolvable discussion
// (403); a reply to an individual note is 400.
func TestDiscussionStatuses(t *testing.T) {
	s := seeded(t)
	s.AddMergeRequest("platform/infra/deploy", MergeRequest{Title: "Other", Source: "canary"})
	_, _, mr := do(t, s, "GET", deployPath+"/merge_requests/1", "", token)
	var m gl.MergeRequest
	json.Unmarshal(mr, &m)
	refs := m.DiffRefs
	_, _, raw := do(t, s, "POST", deployPath+"/merge_requests/1/discussions",
		`{"body":"2?","position":{"base_sha":"`+refs.BaseSha+`","start_sha":"`+refs.StartSha+`","head_sha":"`+refs.HeadSha+`","position_type":"text","new_path":"charts/app/values.yaml","old_path":"charts/app/values.yaml","new_line":1}}`, reviewer)
	var d gl.Discussion
	if err := json.Unmarshal(raw, &d); err != nil || len(d.ID) != 40 || d.IndividualNote {
		t.Fatalf("created discussion %s", raw)
	}
	do(t, s, "POST", deployPath+"/merge_requests/1/notes", `{"body":"Overview."}`, token)
	at := deployPath + "/merge_requests/1/discussions/" + d.ID
	if code, _, body := do(t, s, "POST", at+"/notes", `{"body":"Yes."}`, token); code != http.StatusCreated {
		t.Fatalf("reply: %d %s", code, body)
	}
	code, _, body := do(t, s, "GET", deployPath+"/merge_requests/1/discussions", "", token)
	var list []gl.Discussion
	if err := json.Unmarshal(body, &list); err != nil || code != http.StatusOK || len(list) != 2 ||
		len(list[0].Notes) != 2 || list[0].Notes[1].Position == nil || !list[0].Notes[1].Resolvable || !list[1].IndividualNote {
		t.Fatalf("discussions: %d %s", code, body)
	}
	for _, c := range []struct {
		method, path, body string
		want               int
	}{
		{"PUT", at, `{}`, http.StatusBadRequest},
		{"PUT", at + "?resolved=true", ``, http.StatusOK},
		{"PUT", deployPath + "/merge_requests/2/discussions/" + d.ID, `{"resolved":true}`, http.StatusNotFound},
		{"POST", deployPath + "/merge_requests/2/discussions/" + d.ID + "/notes", `{"body":"x"}`, http.StatusNotFound},
		{"PUT", deployPath + "/merge_requests/1/discussions/" + list[1].ID, `{"resolved":true}`, http.StatusForbidden},
		{"POST", deployPath + "/merge_requests/1/discussions/" + list[1].ID + "/notes", `{"body":"x"}`, http.StatusBadRequest},
	} {
		if code, _, body := do(t, s, c.method, c.path, c.body, token); code != c.want {
			t.Errorf("%s %s: %d %s, want %d", c.method, c.path, code, body, c.want)
		}
	}
	_, _, body = do(t, s, "GET", deployPath+"/merge_requests/1/discussions", "", token)
	json.Unmarshal(body, &list)
	if !list[0].Notes[0].Resolved || !list[0].Notes[1].Resolved {
		t.Errorf("resolved discussion reads %s", body)
	}
}
