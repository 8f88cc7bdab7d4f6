package gitlabtest

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// The routes answer as GitLab does for the quirks of its paths: a project
// is its URL-encoded full path (one segment, any case) or its numeric id,
// a file path is URL-encoded too, and a method a path lacks is 404, never
// a ServeMux 405; a write needs reporter access.
func TestRoutingEdges(t *testing.T) {
	s := seeded(t)
	var id string
	for _, path := range []string{deployPath, "/projects/PLATFORM%2Finfra%2FDeploy"} {
		status, _, b := do(t, s, "GET", path, "", token)
		if status != 200 || !strings.Contains(string(b), `"path_with_namespace":"platform/infra/deploy"`) {
			t.Fatalf("GET %s: %d %s", path, status, b)
		}
		var p struct{ ID int64 }
		json.Unmarshal(b, &p)
		id = strconv.FormatInt(p.ID, 10)
	}
	if status, _, b := do(t, s, "GET", "/projects/"+id+"/issues/1", "", token); status != 200 || !strings.Contains(string(b), "Rollout stalls") {
		t.Errorf("by numeric id: %d %s", status, b)
	}
	if status, _, b := do(t, s, "GET", deployPath+"/repository/files/charts%2Fapp%2Fvalues.yaml?ref=canary", "", token); status != 200 || !strings.Contains(string(b), `"file_path":"charts/app/values.yaml"`) {
		t.Errorf("encoded file path: %d %s", status, b)
	}
	if status, h, _ := do(t, s, "HEAD", deployPath+"/repository/files/charts%2Fapp%2Fvalues.yaml?ref=main", "", token); status != 200 || h.Get("X-Gitlab-Size") != "12" {
		t.Errorf("HEAD file: %d %v", status, h)
	}
	if status, _, b := do(t, s, "DELETE", deployPath+"/issues/1", "", token); status != 404 || !strings.Contains(string(b), `"message":"404`) {
		t.Errorf("DELETE issue: %d %s", status, b)
	}
	if status, _, b := do(t, s, "GET", "/projects/platform%2Fnone/issues", "", token); status != 404 || !strings.Contains(string(b), "404 Project Not Found") {
		t.Errorf("unknown project: %d %s", status, b)
	}
	s.SetAccess("platform/infra/deploy", 10)
	if status, _, b := do(t, s, "POST", deployPath+"/issues", `{"title":"x"}`, token); status != 403 {
		t.Errorf("guest write: %d %s", status, b)
	}
}
