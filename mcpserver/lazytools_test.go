package mcpserver

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/internal/tooltest/counted"
	"github.com/hands-dev/hands/tool"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type noteIn struct {
	Text string `json:"text"`
}

type noteOut struct {
	Text string `json:"text"`
}

// Starting a server and answering initialize builds no tool definition;
// the first tools/list builds each once and lists them all, schemas
// included, the tools capability being declared from the start; that
// first offer tells no client the list changed, a later real change does.
func TestToolsOfferedAtFirstList(t *testing.T) {
	var infos atomic.Int32
	note := tool.New(tool.Spec[noteIn]{Name: "note", Description: "notes"}, func(_ context.Context, _ *tool.Env, in noteIn) (noteOut, error) {
		return noteOut(in), nil
	})
	rt, err := hands.New(hands.Options{Roots: []string{t.TempDir()}, Tools: []tool.Tool{counted.Tool{Tool: note, Infos: &infos}}})
	if err != nil {
		t.Fatal(err)
	}
	s, cs := connectInMemory(t, rt, nil)
	ctx := context.Background()
	if caps := cs.InitializeResult().Capabilities; caps.Tools == nil || !caps.Tools.ListChanged {
		t.Errorf("initialize declares no tools capability with listChanged: %+v", caps)
	}
	if n := infos.Load(); n != 0 {
		t.Errorf("start and initialize built the tool's definition %d times, want none", n)
	}
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var found *mcp.Tool
	for _, d := range list.Tools {
		if d.Name == "note" {
			found = d
		}
	}
	if found == nil || found.InputSchema == nil || len(list.Tools) < 5 {
		t.Fatalf("tools/list after the lazy offer: %d tools, note %+v", len(list.Tools), found)
	}
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if n := infos.Load(); n != 1 {
		t.Errorf("two lists built the tool's definition %d times, want once", n)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "note", Arguments: map[string]any{"text": "hi"}})
	if err != nil || res.IsError {
		t.Fatalf("calling the tool: %v %+v", err, res)
	}

	// The SDK's list_changed of the first offer is held back; once the
	// runtime's tools change, notifications go again.
	held := s.quietFirstOffer(func(context.Context, string, mcp.Request) (mcp.Result, error) {
		t.Error("the first offer's list_changed was sent")
		return nil, nil
	})
	held(ctx, "notifications/tools/list_changed", nil)
	s.toolsChanged()
	sent := false
	s.quietFirstOffer(func(context.Context, string, mcp.Request) (mcp.Result, error) { sent = true; return nil, nil })(ctx, "notifications/tools/list_changed", nil)
	if !sent {
		t.Error("a list_changed after a real change was held back")
	}
}
