package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/mcpserver"
	"github.com/hands-dev/hands/tool"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestAskBecomesAnElicitation checks that a policy's Ask reaches the client
// as elicitation/create, and that its answer decides the call.
func TestAskBecomesAnElicitation(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644)
	rt, err := hands.New(hands.Options{Roots: []string{root}, Policy: tool.PolicyFunc(
		func(_ context.Context, info tool.Info, _ tool.Call, _ any) (tool.Decision, string) {
			if info.ReadOnly {
				return tool.Allow, ""
			}
			return tool.Ask, "it changes files"
		})})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	srv := mcpserver.New(rt, mcpserver.Options{})
	defer srv.Close()
	var asked []string
	answer := "accept"
	client := mcp.NewClient(&mcp.Implementation{Name: "asker", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked = append(asked, req.Params.Message)
			return &mcp.ElicitResult{Action: answer}, nil
		},
	})
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st); err != nil {
		t.Fatal(err)
	}
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	if res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "view", Arguments: map[string]any{"path": "a.txt"}}); res.IsError || len(asked) != 0 {
		t.Fatalf("a read-only call was asked about or failed: %v %+v", asked, res)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_file", Arguments: map[string]any{"path": "b.txt", "content": "b"}})
	if err != nil || res.IsError {
		t.Fatalf("accepted call: %v %+v", err, res)
	}
	if len(asked) != 1 || !strings.Contains(asked[0], "create_file") || !strings.Contains(asked[0], "it changes files") {
		t.Errorf("elicitation message %q", asked)
	}
	answer = "decline"
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_file", Arguments: map[string]any{"path": "c.txt", "content": "c"}})
	if err != nil || !res.IsError || res.StructuredContent.(map[string]any)["code"] != "PERMISSION_DENIED" {
		t.Fatalf("declined call: %v %+v", err, res)
	}
	if _, err := os.Stat(filepath.Join(root, "c.txt")); err == nil {
		t.Error("a declined call wrote its file")
	}
}
