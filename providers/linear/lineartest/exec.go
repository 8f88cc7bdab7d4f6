package lineartest

import (
	"fmt"
	"slices"
	"strings"
)

// gqlError is one entry of Linear's errors[]: a message, the field it
// belongs to, and Linear's classification in extensions.
type gqlError struct {
	Message    string     `json:"message"`
	Path       []any      `json:"path,omitempty"`
	Extensions extensions `json:"extensions"`
}

type extensions struct {
	Type                   string `json:"type"`
	Code                   string `json:"code"`
	StatusCode             int    `json:"statusCode"`
	UserError              bool   `json:"userError"`
	UserPresentableMessage string `json:"userPresentableMessage,omitempty"`
}

func ext(typ, code string, status int, userError bool, message string) extensions {
	return extensions{Type: typ, Code: code, StatusCode: status, UserError: userError, UserPresentableMessage: message}
}

// notFound is how Linear reports an id or identifier it does not know.
func notFound(entity string) *gqlError {
	return &gqlError{Message: "Entity not found: " + entity,
		Extensions: ext("invalid input", "INPUT_ERROR", 400, true, "Could not find referenced "+entity+".")}
}

// invalid is Linear's answer to input its validation refuses.
func invalid(message string) *gqlError {
	return &gqlError{Message: "Argument Validation Error",
		Extensions: ext("invalid input", "INVALID_INPUT", 400, true, message)}
}

// errorsAnswer is a failed operation: errors[] and no data, with the HTTP
// status the errors carry.
func errorsAnswer(errs ...gqlError) answer {
	status := 400
	for _, e := range errs {
		status = max(status, e.Extensions.StatusCode)
	}
	return jsonAnswer(status, map[string]any{"errors": errs, "data": nil})
}

// execute runs an operation for the credential in the Authorization header.
// Any error fails the whole operation, as Linear's mutations do.
func (s *Server) execute(authorization string, op *operation, vars map[string]any) answer {
	viewer := s.auth[authorization]
	if viewer == nil {
		return errorsAnswer(gqlError{Message: "Authentication required, not authenticated",
			Extensions: ext("authentication error", "AUTHENTICATION_ERROR", 401, true, "You need to authenticate to access this operation.")})
	}
	op.vars = vars
	data := map[string]any{}
	for _, sel := range op.root {
		v, gerr := s.resolve(sel.name, bind(sel.args, vars).(map[string]any), viewer)
		if gerr != nil {
			gerr.Path = []any{sel.key()}
			return errorsAnswer(*gerr)
		}
		if sel.sub == nil {
			data[sel.key()] = v
			continue
		}
		p, err := op.project(v, sel.sub)
		if err != nil {
			return errorsAnswer(gqlError{Message: err.Error(), Extensions: ext("graphql error", "GRAPHQL_VALIDATION_FAILED", 400, false, "")})
		}
		data[sel.key()] = p
	}
	return jsonAnswer(200, map[string]any{"data": data})
}

// matches evaluates a Linear filter (IssueFilter, TeamFilter,
// IssueLabelFilter: and/or, comparators eq/neq/in/nin/null and
// containsIgnoreCase, nested entity filters, some/every on collections)
// against an object. A filter field the
// object does not have is an error, as Linear's schema would make it.
func matches(obj object, filter map[string]any) (bool, error) {
	for k, f := range filter {
		fm, isMap := f.(map[string]any)
		list, isList := f.([]any)
		switch {
		case k == "and" && isList, k == "or" && isList:
			hit := false
			for _, sub := range list {
				sm, _ := sub.(map[string]any)
				ok, err := matches(obj, sm)
				if err != nil {
					return false, err
				}
				if k == "and" && !ok {
					return false, nil
				}
				hit = hit || ok
			}
			if k == "or" && !hit {
				return false, nil
			}
		case isMap:
			v, known := obj[k]
			if !known {
				return false, fmt.Errorf("Field %q is not defined by type \"%vFilter\".", k, obj["__typename"])
			}
			if th, ok := v.(func() any); ok {
				v = th()
			}
			ok, err := compare(v, fm)
			if err != nil || !ok {
				return false, err
			}
		default:
			return false, fmt.Errorf("filter %q: expected an object", k)
		}
	}
	return true, nil
}

func compare(v any, f map[string]any) (bool, error) {
	for op, arg := range f {
		var ok bool
		switch op {
		case "eq":
			ok = v == arg
		case "neq":
			ok = v != arg
		case "in", "nin":
			list, _ := arg.([]any)
			ok = slices.Contains(list, v) == (op == "in")
		case "containsIgnoreCase":
			text, _ := v.(string)
			sub, _ := arg.(string)
			ok = strings.Contains(strings.ToLower(text), strings.ToLower(sub))
		case "null":
			ok = (v == nil) == (arg == true)
		case "some", "every":
			conn, _ := v.(object)
			nodes, _ := conn["nodes"].([]object)
			if th, isThunk := conn["nodes"].(func() any); isThunk {
				nodes, _ = th().([]object)
			}
			sub, _ := arg.(map[string]any)
			ok = op == "every"
			for _, n := range nodes {
				m, err := matches(n, sub)
				if err != nil {
					return false, err
				}
				if m == (op == "some") {
					ok = op == "some"
					break
				}
			}
		default:
			// A nested entity filter: team: { id: { eq: ... } }.
			o, isObj := v.(object)
			if !isObj {
				return false, nil
			}
			m, err := matches(o, map[string]any{op: arg})
			if err != nil {
				return false, err
			}
			ok = m
		}
		if !ok {
			return false, nil
		}
	}
	return true, nil
}
