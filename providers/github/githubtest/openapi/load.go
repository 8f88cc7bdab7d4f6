package openapi

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// Version is the @octokit/openapi release scripts/test installs; GHES is
// the Enterprise Server description held to: the newest the release
// ships, since the provider names no Enterprise Server version it stops
// at.
const (
	Version = "23.0.2"
	GHES    = "ghes-3.19"
)

// EnvDir names the directory holding the descriptions (the package's
// generated/); EnvRequire=1 makes a missing description an error instead
// of a reason to check nothing.
const (
	EnvDir     = "FORGETOOLS_OCTOKIT"
	EnvRequire = "FORGETOOLS_REQUIRE_OCTOKIT"
)

// ErrMissing is returned when no description is installed and none is
// required.
var ErrMissing = errors.New("GitHub's OpenAPI descriptions are not installed (scripts/test installs @octokit/openapi@" + Version + " into build/octokit; or set " + EnvDir + ")")

// loader loads one description once per process.
type loader struct {
	file string
	once sync.Once
	d    *Description
	err  error
}

var (
	dotcom = &loader{file: "api.github.com.json"}
	ghes   = &loader{file: GHES + ".json"}
)

// Dotcom is api.github.com's description, loaded once per process.
func Dotcom() (*Description, error) { return dotcom.load() }

// Enterprise is the Enterprise Server description (GHES), loaded once
// per process.
func Enterprise() (*Description, error) { return ghes.load() }

func (l *loader) load() (*Description, error) {
	l.once.Do(func() {
		dir := os.Getenv(EnvDir)
		if dir == "" {
			dir = defaultDir()
		}
		path := filepath.Join(dir, l.file)
		if _, err := os.Stat(path); err != nil {
			l.err = ErrMissing
			if os.Getenv(EnvRequire) == "1" {
				l.err = fmt.Errorf("%s=1: %w: %v", EnvRequire, ErrMissing, err)
			}
			return
		}
		l.d, l.err = Load(path)
	})
	return l.d, l.err
}

// defaultDir is build/octokit's copy in the module this runs in.
func defaultDir() string {
	return BuildPath("octokit", "node_modules", "@octokit", "openapi", "generated")
}

// BuildPath is a path under build/ (where scripts/test installs what the
// tests are held to) of the module this runs in, or "" outside one.
func BuildPath(elem ...string) string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(append([]string{dir, "build"}, elem...)...)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
