// Command fakeserver is a small MCP server for the gateway's tests, built
// with the go-sdk: over stdio by default, or Streamable HTTP with -http
// (it prints the URL on its first line of stdout).
//
// Its tools: echo (text back), image (a PNG), structured (structured
// content with an output schema), fail (an error result), crash (the
// process exits mid-call), add_tool (adds the tool "added" and so sends
// notifications/tools/list_changed), big (n characters of text), env (the
// value of an environment variable), header (a request header, over
// HTTP) and pid (its process id); wait answers
// only when cancelled. With -hang it never answers initialize.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// png is a 1×1 PNG.
var png = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")

type echoIn struct {
	Text string `json:"text" jsonschema:"the text to send back"`
}

type nameIn struct {
	Name string `json:"name"`
}

type bigIn struct {
	N int `json:"n"`
}

type weather struct {
	City  string  `json:"city"`
	TempC float64 `json:"temp_c"`
}

type headerKey struct{}

func main() {
	hang := flag.Bool("hang", false, "never answer initialize")
	addr := flag.String("http", "", "serve Streamable HTTP on this address instead of stdio")
	name := flag.String("name", "fake", "server name")
	flag.Parse()
	if *hang {
		io.Copy(io.Discard, os.Stdin) // read, never answer
		return
	}
	s := mcp.NewServer(&mcp.Implementation{Name: *name, Version: "1.0.0"}, nil)
	yes := true
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echo the text back.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(bool)}},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + in.Text}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "image", Description: "A tiny picture."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "a pixel:"}, &mcp.ImageContent{Data: png, MIMEType: "image/png"}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "structured", Description: "The weather, as structured content."},
		func(_ context.Context, _ *mcp.CallToolRequest, in nameIn) (*mcp.CallToolResult, weather, error) {
			return nil, weather{City: in.Name, TempC: 21.5}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Always fails.", Annotations: &mcp.ToolAnnotations{DestructiveHint: &yes}},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return nil, nil, fmt.Errorf("the widget is broken")
		})
	mcp.AddTool(s, &mcp.Tool{Name: "crash", Description: "Exits mid-call."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			os.Exit(3)
			return nil, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "add_tool", Description: "Adds the tool \"added\"."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			mcp.AddTool(s, &mcp.Tool{Name: "added", Description: "A tool added at run time."},
				func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "added works"}}}, nil, nil
				})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "added"}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "big", Description: "n characters of text."},
		func(_ context.Context, _ *mcp.CallToolRequest, in bigIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("x", in.N)}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "env", Description: "An environment variable's value."},
		func(_ context.Context, _ *mcp.CallToolRequest, in nameIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Name + "=" + os.Getenv(in.Name)}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "wait", Description: "Answers only when cancelled."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			<-ctx.Done()
			return nil, nil, ctx.Err()
		})
	mcp.AddTool(s, &mcp.Tool{Name: "pid", Description: "The server's process id."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(os.Getpid())}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "header", Description: "A request header's value (HTTP only)."},
		func(ctx context.Context, req *mcp.CallToolRequest, in nameIn) (*mcp.CallToolResult, any, error) {
			v := ""
			if req.Extra != nil && req.Extra.Header != nil {
				v = req.Extra.Header.Get(in.Name)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Name + ": " + v}}}, nil, nil
		})
	if *addr == "" {
		if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			log.Fatal(err)
		}
		return
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("http://%s/mcp\n", ln.Addr())
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	log.Fatal(http.Serve(ln, h))
}
