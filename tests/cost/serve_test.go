package cost_test

import (
	"context"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/toolserver"
	"google.golang.org/protobuf/encoding/protojson"
)

// serve calls one arm of the forge table on provider p, as the gateway
// does below its policy: the arm's JSON (proto field names) is decoded
// into the dispatch request, split into the arm and its request, and
// served. It returns the in-band error code ("" on success).
func serve(t *testing.T, p any, arm, args string) string {
	t.Helper()
	env := &gatewayv1.ForgeCallRequest{}
	if err := protojson.Unmarshal([]byte(`{"`+arm+`":`+args+`}`), env); err != nil {
		t.Fatalf("%s %s: %v", arm, args, err)
	}
	a, req, _ := gatewayv1handler.ForgeTable.Split(env)
	if a == nil {
		t.Fatalf("no arm %s", arm)
	}
	_, err := a.Serve(context.Background(), p, call, req)
	if err == nil {
		return ""
	}
	if _, ok := err.(*toolserver.UnimplementedError); ok {
		return "unimplemented"
	}
	t.Logf("%s %s: %v", arm, args, err)
	if he, ok := toolserver.AsError(err); ok {
		return he.Code.String()
	}
	return err.Error()
}

func mustServe(t *testing.T, p any, arm, args string) {
	t.Helper()
	if code := serve(t, p, arm, args); code != "" {
		t.Fatalf("%s %s: %s", arm, args, code)
	}
}
