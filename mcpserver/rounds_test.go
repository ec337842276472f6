//lint:file-ignore SA1019 sampling and logging are deprecated as of protocol version 2026-07-28 (SEP-2577) but remain how an MCP server reaches older clients during the deprecation window.

package mcpserver_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestTwoRoundsOfQuestions: a call that needs the user's permission and
// then the client's model (an ask rule on WebFetch, whose page goes to
// sampling) asks each once and runs, for a client of the newest protocol
// (input requests in the result, answers carried in the request state)
// and for older ones (asked while the call waits); a declined permission
// stops it before the model is asked.
func TestTwoRoundsOfQuestions(t *testing.T) {
	for _, version := range []string{"", "2025-11-25", "2025-06-18"} {
		t.Run("v"+version, func(t *testing.T) {
			var asked, sampled atomic.Int32
			accept := atomic.Bool{}
			accept.Store(true)
			cs, url := webClientSpeaking(t, hands.Options{Permissions: hands.PermissionRules{Ask: []string{"WebFetch"}}}, &mcp.ClientOptions{
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked.Add(1)
					if !accept.Load() {
						return &mcp.ElicitResult{Action: "decline"}, nil
					}
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
				},
				CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
					sampled.Add(1)
					return &mcp.CreateMessageResult{Model: "small", Role: "assistant", Content: &mcp.TextContent{Text: "Version 4.2 is current."}}, nil
				},
			}, version)
			if got := fetchText(t, cs, url); got != "Version 4.2 is current." {
				t.Fatalf("result %q", got)
			}
			if asked.Load() != 1 || sampled.Load() != 1 {
				t.Fatalf("asked %d times, sampled %d times; want once each", asked.Load(), sampled.Load())
			}
			accept.Store(false)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "web_fetch", Arguments: map[string]any{"url": url, "prompt": "p"}})
			if err != nil || !res.IsError {
				t.Fatalf("declined: %v %+v", err, res)
			}
			if asked.Load() != 2 || sampled.Load() != 1 {
				t.Fatalf("after a decline: asked %d, sampled %d", asked.Load(), sampled.Load())
			}
		})
	}
}

// TestForgedRequestState: a request state this server did not give is
// refused with an error, and the server keeps serving.
func TestForgedRequestState(t *testing.T) {
	cs, url := webClient(t, hands.Options{}, nil)
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "web_fetch", Arguments: map[string]any{"url": url, "prompt": "p"}, RequestState: "%%%not-base64"})
	if err == nil {
		t.Fatal("a forged request state was accepted")
	}
	if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "web_fetch", Arguments: map[string]any{"url": url, "prompt": "p"}}); err != nil || res.IsError {
		t.Fatalf("after a forged state: %v %+v", err, res)
	}
}
