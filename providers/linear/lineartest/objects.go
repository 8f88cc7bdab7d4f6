package lineartest

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// The GraphQL objects, with thunks for what refers back.

func (s *Server) teamObj(t *team) object {
	return object{"__typename": "Team", "id": t.id, "key": t.key, "name": t.name}
}

func (s *Server) userObj(u *user) any {
	if u == nil {
		return nil
	}
	return object{"__typename": "User", "id": u.id, "name": u.Name, "displayName": u.DisplayName}
}

func (s *Server) labelObj(l *label) object {
	o := object{"__typename": "IssueLabel", "id": l.id, "name": l.name, "team": nil}
	if l.team != nil {
		o["team"] = s.teamObj(l.team)
	}
	return o
}

func connection(typename string, nodes []object) object {
	return object{"__typename": typename, "nodes": nodes}
}

func (s *Server) issueObj(i *issue) object {
	var description any
	if i.description != nil {
		description = *i.description
	}
	return object{
		"__typename": "Issue", "id": i.id, "identifier": i.identifier, "number": float64(i.number),
		"title": i.title, "description": description, "url": s.issueURL(i), "createdAt": stamp(i.created),
		"state": object{"__typename": "WorkflowState", "type": i.stateType}, "team": s.teamObj(i.team),
		"creator": s.userObj(i.creator),
		"labels": func() any {
			nodes := []object{}
			for _, l := range i.labels {
				nodes = append(nodes, s.labelObj(l))
			}
			return connection("IssueLabelConnection", nodes)
		},
		// Paged like Linear's connections: first (50 when omitted),
		// after, pageInfo.
		"comments": func(args map[string]any) any {
			nodes := []object{}
			for _, c := range s.comments {
				if c.issue == i {
					nodes = append(nodes, s.commentObj(c))
				}
			}
			page, _ := list("CommentConnection", nodes, args)
			return page
		},
	}
}

func (s *Server) commentObj(c *comment) object {
	return object{
		"__typename": "Comment", "id": c.id, "body": c.body, "createdAt": stamp(c.created),
		"url":  s.issueURL(c.issue) + "#comment-" + c.id[:8],
		"user": s.userObj(c.user), "issue": func() any { return s.issueObj(c.issue) },
	}
}

var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

// issueURL is Linear's link: workspace, identifier, then a slug of the title.
func (s *Server) issueURL(i *issue) string {
	slug := strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(i.title), "-"), "-")
	return fmt.Sprintf("https://linear.app/%s/issue/%s/%s", s.workspace, i.identifier, slug)
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
