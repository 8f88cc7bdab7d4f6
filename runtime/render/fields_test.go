package render

import (
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// A record is headed by its message name in snake case; an acronym such as
// CI stays one word, so CIRunList reads ci_run_list, not c_i_run_list.
func TestSnake(t *testing.T) {
	for name, want := range map[string]string{
		"Issue": "issue", "PullRequest": "pull_request", "PullRequestList": "pull_request_list",
		"CIRun": "ci_run", "CIRunList": "ci_run_list", "CIJob": "ci_job", "CITriggered": "ci_triggered",
		"FileContent": "file_content", "HTTPSURL": "httpsurl", "DirEntry": "dir_entry", "X": "x",
	} {
		if got := snake(protoreflect.Name(name)); got != want {
			t.Errorf("snake(%s) = %s, want %s", name, got, want)
		}
	}
}
