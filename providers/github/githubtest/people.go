package githubtest

import (
	"net/http"
	"strings"
)

// Who is who, for the gateway's trusted authors: organisation membership
// (GET /orgs/{org}/members/{username}) and a collaborator's permission on
// a repository (GET /repos/{owner}/{repo}/collaborators/{username}/permission).

// AddMember makes login a member of org (created on first use). The fake
// answers every caller as an organisation member would see it: 204 for a
// member, 404 for anyone else.
func (s *Server) AddMember(org, login string) {
	s.Lock()
	defer s.Unlock()
	if s.Members == nil {
		s.Members = map[string]map[string]bool{}
	}
	k := strings.ToLower(org)
	if s.Members[k] == nil {
		s.Members[k] = map[string]bool{}
	}
	s.Members[k][strings.ToLower(login)] = true
}

// orgMember answers GET /orgs/{org}/members/{username}.
func (s *Server) orgMember(org, login string) answer {
	members, ok := s.Members[strings.ToLower(org)]
	if !ok {
		return errorAnswer(http.StatusNotFound, "Not Found", "https://docs.github.com/rest/orgs/members#check-organization-membership-for-a-user", nil)
	}
	if !members[strings.ToLower(login)] {
		// GitHub: 404 with no body when the requester is a member and the
		// user is not.
		return answer{Status: http.StatusNotFound}
	}
	return answer{Status: http.StatusNoContent}
}

// collaboratorJSON is the "collaborator" schema: a user with the URLs
// GitHub's description requires, and the role.
type collaboratorJSON struct {
	userJSON
	FollowersURL      string          `json:"followers_url"`
	FollowingURL      string          `json:"following_url"`
	GistsURL          string          `json:"gists_url"`
	StarredURL        string          `json:"starred_url"`
	SubscriptionsURL  string          `json:"subscriptions_url"`
	OrganizationsURL  string          `json:"organizations_url"`
	ReposURL          string          `json:"repos_url"`
	EventsURL         string          `json:"events_url"`
	ReceivedEventsURL string          `json:"received_events_url"`
	RoleName          string          `json:"role_name"`
	Permissions       map[string]bool `json:"permissions"`
}

type collaboratorPermissionJSON struct {
	Permission string           `json:"permission"`
	RoleName   string           `json:"role_name"`
	User       collaboratorJSON `json:"user"`
}

// collaboratorPermission answers
// GET /repos/{owner}/{repo}/collaborators/{username}/permission with the
// login's role (SetPermission; write unless set): "permission" in
// GitHub's legacy spelling (maintain reads as write, triage as read) and
// "role_name" as set.
func (s *Server) collaboratorPermission(r *repo, login string) answer {
	role := role(r, login)
	legacy := map[string]string{"admin": "admin", "maintain": "write", "write": "write", "triage": "read", "read": "read"}[role]
	if legacy == "" {
		legacy = "none"
	}
	u := s.userJSON(login)
	base := u.URL
	c := collaboratorJSON{userJSON: u,
		FollowersURL: base + "/followers", FollowingURL: base + "/following{/other_user}", GistsURL: base + "/gists{/gist_id}",
		StarredURL: base + "/starred{/owner}{/repo}", SubscriptionsURL: base + "/subscriptions", OrganizationsURL: base + "/orgs",
		ReposURL: base + "/repos", EventsURL: base + "/events{/privacy}", ReceivedEventsURL: base + "/received_events",
		RoleName: role, Permissions: map[string]bool{
			"pull": legacy != "none", "triage": role == "triage" || legacy == "write" || legacy == "admin",
			"push": legacy == "write" || legacy == "admin", "maintain": role == "maintain" || role == "admin", "admin": role == "admin"}}
	return jsonAnswer(http.StatusOK, collaboratorPermissionJSON{Permission: legacy, RoleName: role, User: c})
}
