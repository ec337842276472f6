// Command floorserver is the reply floor of bench/calls.sh: the least an
// MCP server built on the same SDK can do for a tool call. Its one tool,
// floor, returns a text of exactly n bytes, built once per size and then
// reused, so that a call costs only the protocol: decoding the request,
// encoding the reply, the stdio round trip. Hands's calls are measured
// against it for the same reply size.
//
// With -corpus FILE the text is cut from that file's content repeated (so
// that encoding it costs what encoding source code costs: tabs and quotes
// to escape); without, from lines of plain words.
//
//	floorserver [-corpus FILE]     serves over stdio
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// floorIn is the floor tool's input: the size of the text to return.
type floorIn struct {
	N int `json:"n" jsonschema:"the number of bytes of text to return"`
}

// texts caches one text per size, so a call does no work of its own.
var texts sync.Map // int -> string

// corpus is the text the replies are cut from.
var corpus = strings.Repeat("the quick brown fox jumps over the lazy dog ", 2)[:79] + "\n"

// text returns n bytes of the corpus, as a file would be.
func text(n int) string {
	if t, ok := texts.Load(n); ok {
		return t.(string)
	}
	t := strings.Repeat(corpus, n/len(corpus)+1)[:n]
	texts.Store(n, t)
	return t
}

func main() {
	file := flag.String("corpus", "", "cut the replies from this file's content")
	flag.Parse()
	if *file != "" {
		b, err := os.ReadFile(*file)
		if err != nil || len(b) == 0 {
			fmt.Fprintln(os.Stderr, "floorserver: -corpus:", err, "(give a file that is not empty)")
			os.Exit(2)
		}
		corpus = string(b)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "floor", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "floor", Description: "Returns n bytes of text."},
		func(_ context.Context, _ *mcp.CallToolRequest, in floorIn) (*mcp.CallToolResult, any, error) {
			if in.N < 0 {
				return nil, nil, fmt.Errorf("n is %d; give 0 or more", in.N)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text(in.N)}}}, nil, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "floorserver:", err)
		os.Exit(1)
	}
}
