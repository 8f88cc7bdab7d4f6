//go:build live

package gitlab_test

import (
	"os"
	"testing"

	"github.com/forgetools/forgetools/providers/gitlab"
	"github.com/forgetools/forgetools/providers/internal/livetest"
	"github.com/forgetools/forgetools/providers/kit"
)

// The live suite runs the arms against a real GitLab in a scratch project:
// go test -tags live ./providers/gitlab/ -run Live -v
//
//	FORGETOOLS_LIVE_GITLAB_TOKEN           author token (scope api)                           required
//	FORGETOOLS_LIVE_GITLAB_REPO            scratch project path, nested groups allowed        required
//	FORGETOOLS_LIVE_GITLAB_HOST            instance host (default gitlab.com)
//	FORGETOOLS_LIVE_GITLAB_API_URL         API root override (https://HOST/api/v4/)
//	FORGETOOLS_LIVE_GITLAB_REVIEWER_TOKEN  a second account's token: the review approves
//	FORGETOOLS_LIVE_GITLAB_MERGE=1         also merge the merge request it opens
//	FORGETOOLS_LIVE_GITLAB_PIPELINE=1      also start a pipeline on the new branch
//
// It opens an issue (and closes it), a branch with one commit and a merge
// request from it (see livetest).
func TestLiveGitLab(t *testing.T) {
	token, repo := os.Getenv("FORGETOOLS_LIVE_GITLAB_TOKEN"), os.Getenv("FORGETOOLS_LIVE_GITLAB_REPO")
	if token == "" || repo == "" {
		t.Skip("live GitLab suite skipped: set FORGETOOLS_LIVE_GITLAB_TOKEN and FORGETOOLS_LIVE_GITLAB_REPO (a scratch project path) to run it")
	}
	reviewer := os.Getenv("FORGETOOLS_LIVE_GITLAB_REVIEWER_TOKEN")
	p, err := gitlab.New(gitlab.Options{Options: kit.Options{Host: os.Getenv("FORGETOOLS_LIVE_GITLAB_HOST"), APIURL: os.Getenv("FORGETOOLS_LIVE_GITLAB_API_URL"), Token: token, ReviewerToken: reviewer, UserAgent: "forgetools-live-test"}})
	if err != nil {
		t.Fatal(err)
	}
	o := livetest.Options{Approve: reviewer != "", Merge: os.Getenv("FORGETOOLS_LIVE_GITLAB_MERGE") == "1"}
	if os.Getenv("FORGETOOLS_LIVE_GITLAB_PIPELINE") == "1" {
		o.Trigger = "pipeline"
	}
	livetest.Run(t, p, repo, o)
}
