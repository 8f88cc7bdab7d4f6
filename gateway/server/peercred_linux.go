package server

import (
	"errors"
	"net"
	"syscall"
)

// peerCredSupported: Linux reports a Unix socket peer's credentials.
const peerCredSupported = true

// peerCred is the uid, gid and pid of the process at the other end of c,
// as the kernel recorded them when it connected (SO_PEERCRED).
func peerCred(c net.Conn) (uid, gid uint32, pid int32, err error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return 0, 0, 0, errors.New("not a Unix socket connection")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return 0, 0, 0, err
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return 0, 0, 0, err
	}
	if cerr != nil {
		return 0, 0, 0, cerr
	}
	return cred.Uid, cred.Gid, cred.Pid, nil
}
