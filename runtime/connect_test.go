package runtime_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1connect"
	"github.com/forgetools/forgetools/runtime"
)

// gateway is a real Connect AgentGateway handler whose Forge answers with
// handle.
type gateway struct {
	gatewayv1connect.UnimplementedAgentGatewayHandler
	handle func(context.Context, *gatewayv1.ForgeCallRequest) (*gatewayv1.ForgeCallResult, error)
}

func (g gateway) Forge(ctx context.Context, req *connect.Request[gatewayv1.ForgeCallRequest]) (*connect.Response[gatewayv1.ForgeCallResult], error) {
	res, err := g.handle(ctx, req.Msg)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(res), nil
}

func mux(g gateway) *http.ServeMux {
	m := http.NewServeMux()
	m.Handle(gatewayv1connect.NewAgentGatewayHandler(g))
	return m
}

// serveUnix serves g on a fresh Unix socket and returns its target.
func serveUnix(t *testing.T, g gateway) string {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "gw.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux(g)}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "unix://" + sock
}

func dial(t *testing.T, target string) *runtime.Toolset {
	t.Helper()
	tr, err := runtime.DialGateway(testTable(), target)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := runtime.NewToolset(testTable(), runtime.NewBroker(tr))
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// echoIssue answers a get_issue with the issue it names, echoing the call id.
func echoIssue(got *[]*gatewayv1.ForgeCallRequest) gateway {
	return gateway{handle: func(_ context.Context, req *gatewayv1.ForgeCallRequest) (*gatewayv1.ForgeCallResult, error) {
		*got = append(*got, req)
		gi := req.GetGetIssue()
		return &gatewayv1.ForgeCallResult{CallId: req.GetCallId(), Result: &gatewayv1.ForgeCallResult_Issue{Issue: &forgev1.Issue{
			Repo: gi.GetRepo(), Number: gi.GetIssueNumber(), State: "open", Url: "https://github.com/acme/widgets/issues/12", Body: "Over the wire.",
		}}}, nil
	}}
}

func TestConnectTransportOverUnixSocket(t *testing.T) {
	var got []*gatewayv1.ForgeCallRequest
	target := serveUnix(t, echoIssue(&got))

	tr, err := runtime.DialGateway(testTable(), target)
	if err != nil {
		t.Fatal(err)
	}
	req := &gatewayv1.ForgeCallRequest{CallId: "c1",
		Call:  &gatewayv1.ForgeCallRequest_GetIssue{GetIssue: &gatewayv1.GetIssueRequest{Repo: "acme/widgets", IssueNumber: 12}},
		Forge: &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, Host: "github.example.com"}}
	res, err := tr.Forge(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !proto.Equal(got[0], req) {
		t.Errorf("gateway received %v, want %v", got, req)
	}
	r, ok := res.(*gatewayv1.ForgeCallResult)
	if !ok || r.GetCallId() != "c1" || r.GetIssue().GetNumber() != 12 {
		t.Errorf("result %T %v", res, res)
	}

	// And end to end through the toolset: decode, envelope, socket, render.
	out := dial(t, target).Execute(context.Background(), runtime.Call{ID: "c2", Name: "forge_get_issue", Args: []byte(`{"repo":"acme/widgets","issue_number":12}`)})
	if out.IsError || !strings.Contains(out.Text, "\nnumber: 12\n") || !strings.Contains(out.Text, "\nOver the wire.\n") {
		t.Errorf("execute over the socket: %+v", out)
	}
	if got[1].GetCallId() != "c2" {
		t.Errorf("envelope call id %q", got[1].GetCallId())
	}
}

func TestConnectTransportOverHTTP(t *testing.T) {
	var got []*gatewayv1.ForgeCallRequest
	srv := httptest.NewServer(mux(echoIssue(&got)))
	t.Cleanup(srv.Close)
	out := dial(t, srv.URL+"/").Execute(context.Background(), runtime.Call{ID: "c", Name: "forge_get_issue", Args: []byte(`{"repo":"acme/widgets","issue_number":12}`)})
	if out.IsError || !strings.Contains(out.Text, "\nnumber: 12\n") || len(got) != 1 {
		t.Errorf("execute over http: %+v", out)
	}
}

func TestConnectTransportFailures(t *testing.T) {
	call := runtime.Call{ID: "c", Name: "forge_get_issue", Args: []byte(`{"repo":"acme/widgets","issue_number":12}`)}

	t.Run("gateway down", func(t *testing.T) {
		ts := dial(t, "unix://"+filepath.Join(t.TempDir(), "nobody-listens.sock"))
		out := ts.Execute(context.Background(), call)
		if !out.IsError || !strings.HasPrefix(out.Text, "forge_get_issue failed: unavailable: ") || strings.Contains(out.Text, "\n") {
			t.Errorf("got %+v", out)
		}
	})
	t.Run("connect error code", func(t *testing.T) {
		target := serveUnix(t, gateway{handle: func(context.Context, *gatewayv1.ForgeCallRequest) (*gatewayv1.ForgeCallResult, error) {
			return nil, connect.NewError(connect.CodeUnauthenticated, errors.New("no session bound to this socket"))
		}})
		out := dial(t, target).Execute(context.Background(), call)
		if want := "forge_get_issue failed: unauthenticated: no session bound to this socket"; out != (runtime.Result{Text: want, IsError: true}) {
			t.Errorf("got %+v, want %q", out, want)
		}
	})
	t.Run("context cancelled mid-call", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		target := serveUnix(t, gateway{handle: func(hctx context.Context, _ *gatewayv1.ForgeCallRequest) (*gatewayv1.ForgeCallResult, error) {
			cancel() // the agent's turn ends while the gateway works
			<-hctx.Done()
			return nil, hctx.Err()
		}})
		out := dial(t, target).Execute(ctx, call)
		if want := "forge_get_issue failed: canceled: "; !out.IsError || !strings.HasPrefix(out.Text, want) {
			t.Errorf("got %+v, want prefix %q", out, want)
		}
	})
}

func TestDialGatewayRejectsBadTargets(t *testing.T) {
	for _, target := range []string{"", "gateway.sock", "unix://relative.sock", "tcp://127.0.0.1:1", "http://", "ftp://host/x"} {
		if _, err := runtime.DialGateway(testTable(), target); err == nil || !strings.Contains(err.Error(), "gateway target") {
			t.Errorf("DialGateway(%q) err %v", target, err)
		}
	}
	if _, err := runtime.DialGateway(&runtime.Table{}, "unix:///x.sock"); err == nil {
		t.Error("a table without a procedure was accepted")
	}
}

// TestNoGzipOverLocalTransports: over a Unix socket and loopback the client
// does not offer to accept gzip, so even a server that compresses whatever
// it may (a bare Connect handler) answers uncompressed; a remote gateway is
// still offered gzip.
func TestNoGzipOverLocalTransports(t *testing.T) {
	var mu sync.Mutex
	var offered []string
	big := proto.Clone(issueResult).(*gatewayv1.ForgeCallResult)
	big.GetIssue().Body = strings.Repeat("compressible ", 1000)
	h := mux(gateway{handle: func(context.Context, *gatewayv1.ForgeCallRequest) (*gatewayv1.ForgeCallResult, error) {
		return big, nil
	}})
	record := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		offered = append(offered, r.Header.Get("Accept-Encoding"))
		mu.Unlock()
		h.ServeHTTP(w, r)
	})
	sock := filepath.Join(t.TempDir(), "gw.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: record}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	tcp := httptest.NewServer(record)
	t.Cleanup(tcp.Close)

	for _, target := range []string{"unix://" + sock, tcp.URL, strings.Replace(tcp.URL, "127.0.0.1", "localhost", 1)} {
		res := dial(t, target).Execute(context.Background(), runtime.Call{ID: "c", Name: "forge_get_issue", Args: []byte(`{"repo":"acme/widgets","issue_number":12}`)})
		if res.IsError || !strings.Contains(res.Text, "compressible compressible") {
			t.Fatalf("%s: %s", target, res.Text)
		}
		mu.Lock()
		got := offered[len(offered)-1]
		mu.Unlock()
		if strings.Contains(got, "gzip") {
			t.Errorf("%s: the client offered Accept-Encoding %q", target, got)
		}
	}
	for target, local := range map[string]bool{
		"unix:///run/gw.sock": true, "http://127.0.0.1:7777": true, "http://[::1]:7777": true, "http://localhost:7777": true,
		"https://gateway.example.com": false, "http://10.0.0.5:7777": false,
	} {
		if runtime.LocalTarget(target) != local {
			t.Errorf("LocalTarget(%q) = %v, want %v", target, !local, local)
		}
	}
}
