package server

import (
	"net"
	"net/http"

	"connectrpc.com/connect"
)

// Response compression. Connect gzips every response a client will accept
// gzip for, whatever its size and wherever the client is. On a Unix socket
// or over loopback a byte costs a memory copy, while gzip costs a
// compressor reset, a deflate and, on the client, an inflate: profiles put
// it at 11-15% of the gateway's CPU, and turning it off took gateway reads
// from about 3k to 4.7k calls/s. So:
//
//   - a call that arrives over a Unix socket or from a loopback address is
//     answered uncompressed: its request's accept-encoding headers are
//     dropped before Connect reads them (the request body may still be
//     compressed, and is decompressed as before);
//   - any other call gets gzip only for a response of at least
//     compressMinBytes, below which a compressed body saves a few dozen
//     bytes of a network round trip for the same CPU.
//
// The runtime's client (runtime.DialGateway) does the same from its side:
// it does not ask a socket or loopback gateway for gzip.
const compressMinBytes = 1024

// compression is the handler option that applies the size threshold.
func compression() connect.HandlerOption { return connect.WithCompressMinBytes(compressMinBytes) }

// acceptEncodings are the headers in which the Connect, gRPC and gRPC-Web
// protocols ask for a compressed response.
var acceptEncodings = []string{"Accept-Encoding", "Connect-Accept-Encoding", "Grpc-Accept-Encoding"}

// uncompressedFor serves next, asking it for an uncompressed response when
// local reports that the request came from this machine.
func uncompressedFor(local func(*http.Request) bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if local(r) && asksCompression(r.Header) {
			r2 := *r // a handler must not change the request it was given
			r2.Header = r.Header.Clone()
			for _, h := range acceptEncodings {
				r2.Header.Del(h)
			}
			r = &r2
		}
		next.ServeHTTP(w, r)
	})
}

// asksCompression reports whether h carries any of acceptEncodings: the
// runtime's client sends none to a local gateway, and a request without
// them is passed on as it came, with no copy of its headers.
func asksCompression(h http.Header) bool {
	for _, name := range acceptEncodings {
		if _, ok := h[name]; ok {
			return true
		}
	}
	return false
}

// always is local for a listener that only local processes can reach: a
// Unix socket.
func always(*http.Request) bool { return true }

// loopback reports whether a TCP request came from a loopback address.
func loopback(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	ip := net.ParseIP(host)
	return err == nil && ip != nil && ip.IsLoopback()
}
