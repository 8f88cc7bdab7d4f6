//go:build !unix

package local

import "os/exec"

// processGroup leaves cmd as it is: without Unix process groups a
// cancelled command's children may outlive it.
func processGroup(*exec.Cmd) {}

// runAs is never reached: there is no bubblewrap here, so sandboxed CI
// refuses to run before a command is made.
func runAs(*exec.Cmd, int, int) {}
