//go:build !linux

package server

import (
	"errors"
	"net"
)

// peerCredSupported: this build reads no peer credentials, so a session
// with a peer rule cannot be served (ListenSockets refuses it).
const peerCredSupported = false

func peerCred(net.Conn) (uid, gid uint32, pid int32, err error) {
	return 0, 0, 0, errors.New("peer credential checks (SO_PEERCRED) need Linux")
}
