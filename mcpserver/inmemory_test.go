package mcpserver

import (
	"context"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connectInMemory serves rt to a client over in-memory transports and
// returns the server and the client's session; both are closed, and rt
// too, when the test ends.
func connectInMemory(t *testing.T, rt *hands.Runtime, copts *mcp.ClientOptions) (*Server, *mcp.ClientSession) {
	t.Helper()
	s := New(rt, Options{})
	cs := connectTo(t, s, copts, nil)
	t.Cleanup(func() { s.Close(); rt.Close() })
	return s, cs
}

// connectTo connects a client to s in memory; the client session is
// closed at the test's end.
func connectTo(t *testing.T, s *Server, copts *mcp.ClientOptions, sopts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := s.Connect(ctx, st); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, copts).Connect(ctx, ct, sopts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
