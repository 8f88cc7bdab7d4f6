package local

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/forgetools/forgetools/toolserver"
)

// The CI sandbox modes (CI.Sandbox).
const (
	// SandboxBubblewrap confines a run with bubblewrap (bwrap) under
	// prlimit; the default.
	SandboxBubblewrap = "bubblewrap"
	// SandboxNone runs the command as the gateway's own user, with only
	// a scrubbed environment between it and the gateway.
	SandboxNone = "none"
)

// What a sandboxed run may use. Each limit is per process (rlimits), the
// processes count for the run's uid, and the wall-clock bound is
// CI.Timeout.
const (
	// DefaultCIMemory is CI.Memory when it is zero: the address space
	// of one process.
	DefaultCIMemory = 4 << 30
	ciFileBytes     = 1 << 30 // largest file a run may write
	ciProcesses     = 512     // processes and threads of the run's uid
	ciTmpBytes      = 1 << 30 // the private /tmp (a tmpfs)
	ciNobody        = 65534   // nobody and nogroup on Debian
	ciCheckoutPath  = "/work" // where the checkout is inside the sandbox
	ciProbeTimeout  = time.Minute
)

// ciSystemDirs are the host directories a run sees, read-only: the
// programs and libraries it runs. A directory that is a symlink (merged
// /usr) is recreated as the same symlink.
var ciSystemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}

// ciEtc are the files of /etc a run sees, read-only: users and groups,
// the dynamic linker, Debian's alternatives, CA certificates (never
// /etc/ssl/private, where the gateway's TLS key may be), the time zone and
// name resolution. The rest of /etc (where an operator may keep the
// gateway's configuration) does not exist for it.
var ciEtc = []string{"/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/hosts", "/etc/resolv.conf",
	"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives", "/etc/ssl/certs", "/etc/ssl/openssl.cnf", "/etc/ca-certificates",
	"/etc/localtime", "/etc/timezone", "/etc/protocols", "/etc/services"}

// sandbox is how runs are started when they are confined.
type sandbox struct {
	bwrap, prlimit string
	// drop is set when the gateway is root: the run becomes uid and gid.
	drop     bool
	uid, gid int
	network  bool
	cpu      time.Duration
	memory   int64
}

// checkSandbox checks the sandbox settings of ci.
func checkSandbox(ci CI) (CI, error) {
	switch ci.Sandbox {
	case "":
		ci.Sandbox = SandboxBubblewrap
	case SandboxBubblewrap, SandboxNone:
	default:
		return ci, fmt.Errorf("CI sandbox %q is neither %s nor %s", ci.Sandbox, SandboxBubblewrap, SandboxNone)
	}
	if ci.UID < 0 || ci.GID < 0 {
		return ci, fmt.Errorf("CI uid %d or gid %d is negative", ci.UID, ci.GID)
	}
	if ci.Memory < 0 {
		return ci, fmt.Errorf("CI memory limit %d is negative", ci.Memory)
	}
	if ci.Memory == 0 {
		ci.Memory = DefaultCIMemory
	}
	if ci.UID == 0 {
		ci.UID = ciNobody
	}
	if ci.GID == 0 {
		ci.GID = ciNobody
	}
	return ci, nil
}

// sandbox is how this run is confined: nil with SandboxNone (and a
// warning, every run), else a sandbox that has just started a command, or
// a failed_precondition saying why none can be made. CI never runs
// unconfined because the sandbox failed.
func (f *Forge) sandbox(ctx context.Context) (*sandbox, error) {
	if f.ci.Sandbox == SandboxNone {
		f.log.Warn("local forge CI runs unsandboxed (ci_sandbox: none): the command runs as the gateway's user and can read what the gateway can, its credentials included")
		return nil, nil
	}
	refuse := func(why string) error {
		return toolserver.FailedPrecondition("the local forge refuses to run CI: its sandbox cannot be made: %s. Install bubblewrap and prlimit (Debian: apt-get install bubblewrap util-linux) where user namespaces are allowed, or have the operator set ci_sandbox: none to run CI unconfined", why)
	}
	s := &sandbox{uid: f.ci.UID, gid: f.ci.GID, network: f.ci.Network, cpu: f.ci.Timeout, memory: f.ci.Memory, drop: os.Geteuid() == 0}
	var err error
	if s.bwrap, err = exec.LookPath("bwrap"); err != nil {
		return nil, refuse("bwrap is not installed")
	}
	if s.prlimit, err = exec.LookPath("prlimit"); err != nil {
		return nil, refuse("prlimit is not installed")
	}
	if why := s.probe(ctx); why != "" {
		return nil, refuse(why)
	}
	return s, nil
}

// probe starts the sandbox around `true` in an empty checkout, so a host
// that cannot make it is found before a run is recorded; "" is success.
func (s *sandbox) probe(ctx context.Context) string {
	dir, err := s.checkoutDir()
	if err != nil {
		return err.Error()
	}
	defer os.RemoveAll(dir)
	if err := s.own(dir); err != nil {
		return err.Error()
	}
	ctx, cancel := context.WithTimeout(ctx, ciProbeTimeout)
	defer cancel()
	cmd := s.command(ctx, dir, "true", []string{"PATH=/usr/bin:/bin"})
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Sprintf("bwrap failed (%v): %s", err, strings.TrimSpace(out.String()))
	}
	return ""
}

// checkoutDir makes a directory for a run's checkout that the run's uid
// owns.
func (s *sandbox) checkoutDir() (string, error) {
	dir, err := os.MkdirTemp("", "forgetools-ci-")
	if err != nil {
		return "", fmt.Errorf("cannot make a checkout directory: %w", err)
	}
	return dir, nil
}

// own gives dir and everything under it to the run's uid, so the only
// place the run may write is its checkout. Symlinks are changed, never
// followed. dir itself changes hands last: until then it is the
// gateway's, mode 0700, so no process of the run's uid can swap an entry
// for a symlink while the walk is under way.
func (s *sandbox) own(dir string) error {
	if !s.drop {
		return nil
	}
	err := filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		return os.Lchown(p, s.uid, s.gid)
	})
	if err != nil {
		return err
	}
	return os.Lchown(dir, s.uid, s.gid)
}

// command runs script under sh in the sandbox, with dir as its writable
// checkout and env as its whole environment (bwrap's too: the sandbox's
// pid 1 shows no more than the run does).
func (s *sandbox) command(ctx context.Context, dir, script string, env []string) *exec.Cmd {
	cpu := int64(max(s.cpu.Seconds(), 1))
	args := []string{
		"--cpu=" + strconv.FormatInt(cpu, 10), "--as=" + strconv.FormatInt(s.memory, 10), "--fsize=" + strconv.Itoa(ciFileBytes),
		"--nproc=" + strconv.Itoa(ciProcesses), "--core=0", "--", s.bwrap,
		"--unshare-user", "--unshare-ipc", "--unshare-pid", "--unshare-uts", "--unshare-cgroup-try", "--disable-userns",
		"--die-with-parent", "--new-session", "--hostname", "forgetools-ci",
	}
	if !s.drop {
		// Without root the run keeps the gateway's uid outside; inside,
		// it is nobody.
		args = append(args, "--uid", strconv.Itoa(ciNobody), "--gid", strconv.Itoa(ciNobody))
	}
	if !s.network {
		args = append(args, "--unshare-net")
	}
	for _, d := range ciSystemDirs {
		fi, err := os.Lstat(d)
		switch {
		case err != nil:
		case fi.Mode()&fs.ModeSymlink != 0:
			if target, err := os.Readlink(d); err == nil {
				args = append(args, "--symlink", target, d)
			}
		case fi.IsDir():
			args = append(args, "--ro-bind", d, d)
		}
	}
	for _, p := range ciEtc {
		args = append(args, "--ro-bind-try", p, p)
	}
	args = append(args, "--proc", "/proc", "--dev", "/dev", "--size", strconv.Itoa(ciTmpBytes), "--tmpfs", "/tmp",
		"--bind", dir, ciCheckoutPath, "--chdir", ciCheckoutPath, "--", "/bin/sh", "-c", script)
	cmd := exec.CommandContext(ctx, s.prlimit, args...)
	cmd.Env = env
	processGroup(cmd)
	if s.drop {
		runAs(cmd, s.uid, s.gid)
	}
	return cmd
}

// sandboxEnv is env as a sandboxed run needs it: its home and temporary
// directory are the private /tmp, and it is nobody.
func sandboxEnv(env []string) []string {
	out := make([]string, 0, len(env)+4)
	for _, kv := range env {
		switch name, _, _ := strings.Cut(kv, "="); name {
		case "HOME", "TMPDIR", "USER", "LOGNAME":
		default:
			out = append(out, kv)
		}
	}
	return append(out, "HOME=/tmp", "TMPDIR=/tmp", "USER=nobody", "LOGNAME=nobody")
}
