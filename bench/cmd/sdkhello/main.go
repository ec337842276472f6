// Command sdkhello is the least a Go MCP server pays to start: it links the
// MCP SDK's server, as hands does, prints a line and exits without serving
// (unless given an argument). bench/coldstart.sh times it beside `hands
// --version` and `rg --files`.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if len(os.Args) > 1 {
		s := mcp.NewServer(&mcp.Implementation{Name: "sdkhello"}, nil)
		if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	fmt.Println("sdkhello")
}
