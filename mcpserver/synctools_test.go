package mcpserver

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSyncWithoutChangeOffersNothingAgain: syncing tools that did not
// change adds none again, so no client is told the list changed; the
// definitions are compared as values.
func TestSyncWithoutChangeOffersNothingAgain(t *testing.T) {
	rt, err := hands.New(hands.Options{Roots: []string{t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	var changed atomic.Int32
	s, cs := connectInMemory(t, rt, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed.Add(1) },
	})
	ctx := context.Background()
	before, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.syncTools()
	s.syncTools()
	// A notification sent before this reply would have arrived first.
	after, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := changed.Load(); n != 0 {
		t.Errorf("%d list_changed notifications after syncing unchanged tools, want 0", n)
	}
	if len(after.Tools) != len(before.Tools) || len(after.Tools) == 0 {
		t.Errorf("tools %d before, %d after", len(before.Tools), len(after.Tools))
	}
}
