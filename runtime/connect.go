package runtime

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"
)

// wire lets one Connect client carry any table's envelopes without importing
// generated code: it is a proto.Message by embedding one, so Connect's codecs
// marshal the request it wraps and unmarshal into the result the table's
// NewResult supplies (see the response initializer in DialGateway).
type wire struct{ proto.Message }

// connectTransport is a Transport over a Connect unary client.
type connectTransport struct {
	client *connect.Client[wire, wire]
}

// DialGateway returns a Transport that calls table.Procedure on the gateway
// at target: "unix:///path/to/socket" (one socket per agent session; the
// gateway takes the account from the connection) or "http://host:port" /
// "https://host:port" (pass connect.WithInterceptors or a custom client
// option for the bearer token). Nothing is dialled until the first call, so
// a gateway that is down surfaces as that call's failure, not here.
func DialGateway(table *Table, target string, opts ...connect.ClientOption) (Transport, error) {
	if table == nil || table.Procedure == "" || table.NewResult == nil {
		return nil, errors.New("DialGateway: the table has no procedure or result type")
	}
	hc, base, local, err := httpClientFor(target)
	if err != nil {
		return nil, err
	}
	newResult := connect.WithResponseInitializer(func(_ connect.Spec, m any) error {
		w, ok := m.(*wire)
		if !ok {
			return fmt.Errorf("unexpected response holder %T", m)
		}
		w.Message = table.NewResult()
		return nil
	})
	first := []connect.ClientOption{newResult}
	if local {
		// Over a Unix socket or loopback a byte costs a memory copy and
		// gzip costs a compressor and an inflate per call, so the client
		// does not offer to accept it. (Requests are sent uncompressed
		// anyway, Connect's default.) An option in opts can offer it again.
		first = append(first, connect.WithAcceptCompression("gzip", nil, nil))
	}
	opts = append(first, opts...)
	return &connectTransport{client: connect.NewClient[wire, wire](hc, base+table.Procedure, opts...)}, nil
}

// Endpoint maps a gateway target (unix:///path/to/socket, http://host:port
// or https://host:port) to an HTTP client and the base URL a procedure path
// is appended to, for Connect clients of the gateway's other procedures.
func Endpoint(target string) (*http.Client, string, error) {
	hc, base, _, err := httpClientFor(target)
	return hc, base, err
}

// httpClientFor maps a gateway target to an HTTP client and the base URL the
// procedure path is appended to, and says whether the gateway is on this
// machine (a Unix socket, or a loopback host).
func httpClientFor(target string) (hc *http.Client, base string, local bool, err error) {
	if path, ok := strings.CutPrefix(target, "unix://"); ok {
		if !strings.HasPrefix(path, "/") {
			return nil, "", false, fmt.Errorf("gateway target %q: a unix target needs an absolute socket path (unix:///path)", target)
		}
		dial := func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", path)
		}
		// The host is a placeholder: every request goes to the socket.
		return &http.Client{Transport: &http.Transport{DialContext: dial}}, "http://gateway", true, nil
	}
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, "", false, fmt.Errorf("gateway target %q: want unix:///path, http://host:port or https://host:port", target)
	}
	ip := net.ParseIP(u.Hostname())
	local = u.Hostname() == "localhost" || (ip != nil && ip.IsLoopback())
	return &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}, strings.TrimSuffix(target, "/"), local, nil
}

func (c *connectTransport) Forge(ctx context.Context, req proto.Message) (proto.Message, error) {
	res, err := c.client.CallUnary(ctx, connect.NewRequest(&wire{req}))
	if err != nil {
		return nil, err
	}
	return res.Msg.Message, nil
}
