//go:build live

package gitea_test

import (
	"os"
	"testing"

	"github.com/forgetools/forgetools/providers/gitea"
	"github.com/forgetools/forgetools/providers/internal/livetest"
	"github.com/forgetools/forgetools/providers/kit"
)

// The live suite runs the arms against a real Gitea or Forgejo in a
// scratch repository: go test -tags live ./providers/gitea/ -run Live -v
//
//	FORGETOOLS_LIVE_GITEA_TOKEN           author access token (repository, issue: write)   required
//	FORGETOOLS_LIVE_GITEA_REPO            scratch repository, owner/name, not empty         required
//	FORGETOOLS_LIVE_GITEA_HOST            instance host (default gitea.com; codeberg.org for forgejo)
//	FORGETOOLS_LIVE_GITEA_API_URL         API root override (https://HOST/api/v1/)
//	FORGETOOLS_LIVE_GITEA_FLAVOR          gitea (default) or forgejo
//	FORGETOOLS_LIVE_GITEA_REVIEWER_TOKEN  a second account's token: the review approves
//	FORGETOOLS_LIVE_GITEA_MERGE=1         also merge the pull request it opens
//	FORGETOOLS_LIVE_GITEA_WORKFLOW        a workflow file to dispatch on the new branch
//
// It opens an issue (and closes it), a branch with one commit and a pull
// request from it (see livetest).
func TestLiveGitea(t *testing.T) {
	token, repo := os.Getenv("FORGETOOLS_LIVE_GITEA_TOKEN"), os.Getenv("FORGETOOLS_LIVE_GITEA_REPO")
	if token == "" || repo == "" {
		t.Skip("live Gitea suite skipped: set FORGETOOLS_LIVE_GITEA_TOKEN and FORGETOOLS_LIVE_GITEA_REPO (a scratch owner/name) to run it")
	}
	reviewer := os.Getenv("FORGETOOLS_LIVE_GITEA_REVIEWER_TOKEN")
	p, err := gitea.New(gitea.Options{Flavor: gitea.Flavor(os.Getenv("FORGETOOLS_LIVE_GITEA_FLAVOR")), Options: kit.Options{Host: os.Getenv("FORGETOOLS_LIVE_GITEA_HOST"), APIURL: os.Getenv("FORGETOOLS_LIVE_GITEA_API_URL"), Token: token, ReviewerToken: reviewer, UserAgent: "forgetools-live-test"}})
	if err != nil {
		t.Fatal(err)
	}
	livetest.Run(t, p, repo, livetest.Options{
		Approve: reviewer != "", Merge: os.Getenv("FORGETOOLS_LIVE_GITEA_MERGE") == "1", Trigger: os.Getenv("FORGETOOLS_LIVE_GITEA_WORKFLOW"),
	})
}
