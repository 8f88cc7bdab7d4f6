// Package graphqlschema is GitHub's published GraphQL schema (npm's
// @octokit/graphql-schema, which scripts/test installs into
// build/octokit-graphql), parsed once per process, and the check of a
// query against it: the GitHub fake's GraphQL endpoint holds every query
// a provider sends to it (field names, arguments, types, variables), so a
// query that names a field GitHub does not have fails the tests instead of
// failing on github.com.
package graphqlschema

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"

	"github.com/forgetools/forgetools/providers/github/githubtest/openapi"
)

// Version is the @octokit/graphql-schema release scripts/test installs.
const Version = "15.26.1"

// EnvFile names the schema.graphql file to load; EnvRequire=1 (the REST
// descriptions' switch, which scripts/test sets) makes a missing schema an
// error instead of a reason to check nothing.
const (
	EnvFile    = "FORGETOOLS_OCTOKIT_GRAPHQL"
	EnvRequire = "FORGETOOLS_REQUIRE_OCTOKIT"
)

// ErrMissing is returned when no schema is installed and none is required.
var ErrMissing = errors.New("GitHub's GraphQL schema is not installed (scripts/test installs @octokit/graphql-schema@" + Version + " into build/octokit-graphql; or set " + EnvFile + ")")

var (
	once   sync.Once
	schema *ast.Schema
	err    error
)

// Load is the schema, parsed once per process.
func Load() (*ast.Schema, error) {
	once.Do(func() {
		path := os.Getenv(EnvFile)
		if path == "" {
			path = defaultFile()
		}
		src, rerr := os.ReadFile(path)
		if rerr != nil {
			err = ErrMissing
			if os.Getenv(EnvRequire) == "1" {
				err = fmt.Errorf("%s=1: %w: %v", EnvRequire, ErrMissing, rerr)
			}
			return
		}
		schema, err = parse(filepath.Base(path), string(src))
		if err != nil {
			err = fmt.Errorf("GitHub's GraphQL schema %s: %w", path, err)
		}
	})
	return schema, err
}

// parse loads the schema's source. GitHub's published schema defines a
// few fields twice, identically (EnterpriseOwnerInfo.
// repositoryDeployKeySetting in 15.26.1), which a strict loader refuses:
// a repeated field with the same type and arguments is dropped, and any
// other repetition is still an error.
func parse(name, src string) (*ast.Schema, error) {
	doc, err := parser.ParseSchemas(validator.Prelude, &ast.Source{Name: name, Input: src})
	if err != nil {
		return nil, fmt.Errorf("does not parse: %v", err)
	}
	for _, d := range doc.Definitions {
		d.Fields = dedupe(d.Name, d.Fields, &err)
	}
	if err != nil {
		return nil, err
	}
	s, verr := validator.ValidateSchemaDocument(doc)
	if verr != nil {
		return nil, fmt.Errorf("is not a valid schema: %v", verr)
	}
	return s, nil
}

func dedupe(typ string, fields ast.FieldList, errp *error) ast.FieldList {
	seen := map[string]*ast.FieldDefinition{}
	out := fields[:0]
	for _, f := range fields {
		first, dup := seen[f.Name]
		if !dup {
			seen[f.Name] = f
			out = append(out, f)
			continue
		}
		if first.Type.String() != f.Type.String() || len(first.Arguments) != len(f.Arguments) {
			*errp = fmt.Errorf("field %s.%s is defined twice, differently (%s and %s)", typ, f.Name, first.Type, f.Type)
		}
	}
	return out
}

// Check validates a query and its variables against s: every field,
// argument, fragment and variable type must be GitHub's. It returns the
// parsed document, or what is wrong.
func Check(s *ast.Schema, query string, vars map[string]any) (*ast.QueryDocument, error) {
	doc, errs := gqlparser.LoadQuery(s, query)
	if len(errs) > 0 {
		return nil, fmt.Errorf("the query departs from GitHub's GraphQL schema: %v", errs)
	}
	for _, op := range doc.Operations {
		if _, err := validator.VariableValues(s, op, vars); err != nil {
			return nil, fmt.Errorf("the variables depart from GitHub's GraphQL schema: %v", err)
		}
	}
	return doc, nil
}

// defaultFile is build/octokit-graphql's copy in the module this runs in.
func defaultFile() string {
	return openapi.BuildPath("octokit-graphql", "node_modules", "@octokit", "graphql-schema", "schema.graphql")
}
