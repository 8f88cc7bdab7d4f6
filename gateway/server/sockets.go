package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/forgetools/forgetools/gateway"
)

// maxSocketPath is the longest Unix socket path Linux accepts (sun_path is
// 108 bytes with its terminating NUL).
const maxSocketPath = 107

// ListenSockets creates dir (mode 0700) if needed and one socket per
// configured session, <dir>/<session>.sock (mode 0600), and starts serving
// them. A stale socket file left by a dead gateway is replaced; a socket a
// live process still answers on, or a file that is not a socket, is an
// error. It returns the socket paths in configuration order.
func (s *Server) ListenSockets(dir string) ([]string, error) {
	if s.svc == nil {
		return nil, errors.New("no forge gateway service to serve")
	}
	ids := s.svc.Sessions()
	if len(ids) == 0 {
		return nil, errors.New("no sessions are configured, so there are no sockets to create")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("socket directory: %w", err)
	}
	if fi, err := os.Stat(dir); err == nil && fi.Mode().Perm()&0o077 != 0 {
		s.log.Warn("socket directory is accessible to other users; sockets are 0600 but keep the directory 0700",
			"dir", dir, "mode", fi.Mode().Perm().String())
	}

	var listeners []net.Listener
	var paths []string
	for _, id := range ids {
		bl := &boundListener{id: id, log: s.log}
		if p, ok := s.svc.SessionPeer(id.Session); ok {
			if !peerCredSupported {
				closeAll(listeners)
				return nil, fmt.Errorf("server: session %s allows only %s, but this system cannot check a peer's credentials (SO_PEERCRED needs Linux)", id.Session, p)
			}
			bl.peer = &p
		}
		path := filepath.Join(dir, id.Session+".sock")
		l, err := listenUnix(path)
		if err != nil {
			closeAll(listeners)
			return nil, err
		}
		bl.Listener = l
		listeners = append(listeners, bl)
		paths = append(paths, path)
	}
	srv := s.newHTTPServer(uncompressedFor(always, s.handler), func(ctx context.Context, c net.Conn) context.Context {
		bc, ok := c.(*boundConn)
		switch {
		case !ok:
			return ctx
		case bc.refused != "":
			return gateway.WithRefusal(ctx, bc.refused)
		}
		return gateway.WithIdentity(ctx, bc.id)
	})
	for i, l := range listeners {
		s.log.Info("gateway listening", "socket", paths[i], "session", ids[i].Session, "account", ids[i].Account)
		s.serve(srv, l)
	}
	return paths, nil
}

// listenUnix listens on path, replacing a stale socket file, and restricts
// the socket to its owner.
func listenUnix(path string) (net.Listener, error) {
	if len(path) > maxSocketPath {
		return nil, fmt.Errorf("socket path %s is %d bytes; Unix sockets allow %d: use a shorter socket directory",
			path, len(path), maxSocketPath)
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			return nil, fmt.Errorf("%s exists and is not a socket; refusing to replace it", path)
		}
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			c.Close()
			return nil, fmt.Errorf("%s is in use by a running process", path)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("remove stale socket: %w", err)
		}
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("%w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, fmt.Errorf("%w", err)
	}
	return l, nil
}

func closeAll(ls []net.Listener) {
	for _, l := range ls {
		l.Close()
	}
}

// boundListener stamps every connection it accepts with its session's
// identity; ConnContext moves it into each request's context. With a peer
// rule it first checks the connecting process's credentials: a process the
// rule does not allow gets a connection whose every call is refused (the
// client sees Connect permission_denied, not a dropped connection it would
// retry), and the refusal is logged once, with who tried.
type boundListener struct {
	net.Listener
	id   gateway.Identity
	peer *gateway.Peer // nil: no check
	log  *slog.Logger
}

func (l *boundListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	bc := &boundConn{Conn: c, id: l.id}
	if l.peer != nil {
		bc.refused = l.check(c)
	}
	return bc, nil
}

// check is why a connection is refused under the peer rule, or "".
func (l *boundListener) check(c net.Conn) string {
	uid, gid, pid, err := peerCred(c)
	if err == nil && l.peer.Allows(uid, gid) {
		return ""
	}
	attrs := []any{"session", l.id.Session, "account", l.id.Account, "allowed", l.peer.String()}
	var reason string
	if err != nil {
		reason = fmt.Sprintf("session %s allows only %s, and the connecting process's credentials could not be read", l.id.Session, l.peer)
		attrs = append(attrs, "cause", err.Error())
	} else {
		reason = fmt.Sprintf("session %s allows only %s; this process runs as uid %d, gid %d", l.id.Session, l.peer, uid, gid)
		attrs = append(attrs, "peer_uid", uid, "peer_gid", gid, "peer_pid", pid)
	}
	l.log.Warn("refused a connection: its peer credentials are not allowed on this session", attrs...)
	return reason
}

type boundConn struct {
	net.Conn
	id      gateway.Identity
	refused string // why every call on it is refused; "" = not refused
}
