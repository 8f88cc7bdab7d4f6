//go:build !unix

package local

import "os/exec"

// processGroup leaves cmd as it is: without Unix process groups a
// cancelled command's children may outlive it.
func processGroup(*exec.Cmd) {}
