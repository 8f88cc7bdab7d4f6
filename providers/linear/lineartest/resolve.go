package lineartest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"
)

// The root fields the fake serves, run against the state; s.mu is held.

func (s *Server) findIssue(id string) *issue {
	for _, i := range s.issues {
		if i.id == id || strings.EqualFold(i.identifier, id) {
			return i
		}
	}
	return nil
}

func (s *Server) findTeam(id string) *team {
	for _, t := range s.teams {
		if t.id == id {
			return t
		}
	}
	return nil
}

func (s *Server) findLabel(id string) *label {
	for _, l := range s.labels {
		if l.id == id {
			return l
		}
	}
	return nil
}

// list filters objs and keeps the first `first` (Linear's default page is 50).
func list(typename string, objs []object, args map[string]any) (any, *gqlError) {
	filter, _ := args["filter"].(map[string]any)
	n := 50
	if f, ok := args["first"].(float64); ok {
		n = int(f)
	}
	// after is the cursor of the last node of the previous page: its id.
	after, _ := args["after"].(string)
	nodes, more := []object{}, false
	for _, o := range objs {
		if after != "" {
			if o["id"] == after {
				after = ""
			}
			continue
		}
		ok, err := matches(o, filter)
		if err != nil {
			return nil, &gqlError{Message: err.Error(), Extensions: ext("graphql error", "GRAPHQL_VALIDATION_FAILED", 400, false, "")}
		}
		switch {
		case ok && len(nodes) < n:
			nodes = append(nodes, o)
		case ok:
			more = true
		}
	}
	c := connection(typename, nodes)
	var end any
	if len(nodes) > 0 {
		end = nodes[len(nodes)-1]["id"]
	}
	c["pageInfo"] = object{"__typename": "PageInfo", "hasNextPage": more, "endCursor": end}
	return c, nil
}

// resolve runs one root field for viewer.
func (s *Server) resolve(field string, args map[string]any, viewer *user) (any, *gqlError) {
	str := func(k string) string { v, _ := args[k].(string); return v }
	switch field {
	case "viewer":
		return s.userObj(viewer), nil
	case "issue":
		if i := s.findIssue(str("id")); i != nil {
			return s.issueObj(i), nil
		}
		return nil, notFound("Issue")
	case "comment":
		for _, c := range s.comments {
			if c.id == str("id") {
				return s.commentObj(c), nil
			}
		}
		return nil, notFound("Comment")
	case "teams":
		var objs []object
		for _, t := range s.teams {
			objs = append(objs, s.teamObj(t))
		}
		return list("TeamConnection", objs, args)
	case "issueLabels":
		var objs []object
		for _, l := range s.labels {
			objs = append(objs, s.labelObj(l))
		}
		return list("IssueLabelConnection", objs, args)
	case "issues":
		// orderBy createdAt lists the newest first.
		var objs []object
		for _, i := range slices.Backward(s.issues) {
			objs = append(objs, s.issueObj(i))
		}
		return list("IssueConnection", objs, args)
	case "issueCreate":
		return s.issueCreate(args["input"], viewer)
	case "commentCreate":
		return s.commentCreate(args["input"], viewer)
	}
	return nil, &gqlError{Message: fmt.Sprintf("Cannot query field %q on type %q.", field, "Query"),
		Extensions: ext("graphql error", "GRAPHQL_VALIDATION_FAILED", 400, false, "")}
}

func (s *Server) issueCreate(raw any, viewer *user) (any, *gqlError) {
	in, _ := raw.(map[string]any)
	str := func(k string) string { v, _ := in[k].(string); return v }
	if err := s.checkID(str("id")); err != nil {
		return nil, err
	}
	t := s.findTeam(str("teamId"))
	if t == nil {
		return nil, notFound("Team")
	}
	if strings.TrimSpace(str("title")) == "" {
		return nil, invalid("title should not be empty")
	}
	var labels []*label
	ids, _ := in["labelIds"].([]any)
	for _, id := range ids {
		l := s.findLabel(fmt.Sprint(id))
		if l == nil || (l.team != nil && l.team != t) {
			return nil, notFound("IssueLabel")
		}
		labels = append(labels, l)
	}
	i := s.fileIssue(str("id"), t, str("title"), str("description"), viewer, labels)
	i.stateType = "triage"
	return object{"__typename": "IssuePayload", "success": true, "issue": s.issueObj(i)}, nil
}

func (s *Server) commentCreate(raw any, viewer *user) (any, *gqlError) {
	in, _ := raw.(map[string]any)
	str := func(k string) string { v, _ := in[k].(string); return v }
	if err := s.checkID(str("id")); err != nil {
		return nil, err
	}
	i := s.findIssue(str("issueId"))
	if i == nil {
		return nil, notFound("Issue")
	}
	if strings.TrimSpace(str("body")) == "" {
		return nil, invalid("body should not be empty")
	}
	id := str("id")
	if id == "" {
		id = newID("comment", len(s.comments))
	}
	c := &comment{id: id, body: str("body"), user: viewer, issue: i, created: s.tick()}
	s.comments = append(s.comments, c)
	return object{"__typename": "CommentPayload", "success": true, "comment": s.commentObj(c)}, nil
}

// checkID refuses a client-chosen id that is not a version 4 UUID (the
// schema documents "UUID v4 format"; Linear's validator words any refusal
// "id must be a UUID") or that already names an entity, in Linear's words.
func (s *Server) checkID(id string) *gqlError {
	if id == "" {
		return nil
	}
	if u, err := uuid.Parse(id); err != nil || u.Version() != 4 || u.Variant() != uuid.RFC4122 || len(id) != 36 {
		return invalid("id must be a UUID")
	}
	if s.findIssue(id) != nil || slices.ContainsFunc(s.comments, func(c *comment) bool { return c.id == id }) {
		e := invalid("An entity with this id already exists.")
		e.Extensions.Code = "INPUT_ERROR"
		return e
	}
	return nil
}
