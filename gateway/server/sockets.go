package server

import (
	"context"
	"errors"
	"fmt"
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
		path := filepath.Join(dir, id.Session+".sock")
		l, err := listenUnix(path)
		if err != nil {
			for _, l := range listeners {
				l.Close()
			}
			return nil, err
		}
		listeners = append(listeners, &boundListener{Listener: l, id: id})
		paths = append(paths, path)
	}
	srv := s.newHTTPServer(uncompressedFor(always, s.handler), func(ctx context.Context, c net.Conn) context.Context {
		if bc, ok := c.(*boundConn); ok {
			return gateway.WithIdentity(ctx, bc.id)
		}
		return ctx
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

// boundListener stamps every connection it accepts with its session's
// identity; ConnContext moves it into each request's context.
type boundListener struct {
	net.Listener
	id gateway.Identity
}

func (l *boundListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &boundConn{Conn: c, id: l.id}, nil
}

type boundConn struct {
	net.Conn
	id gateway.Identity
}
