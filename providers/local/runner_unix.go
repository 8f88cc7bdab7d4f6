//go:build unix

package local

import (
	"os/exec"
	"syscall"
)

// processGroup makes cmd the leader of its own process group and kills the
// whole group when it is cancelled, so a timed-out `make test` leaves no
// test binaries running.
func processGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// runAs makes cmd run as uid and gid with no supplementary groups (the
// gateway is root and the run must not be).
func runAs(cmd *exec.Cmd, uid, gid int) {
	cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}
}
