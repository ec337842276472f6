package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/hands-dev/hands"
)

// printLSPServers is the doctor's section on the language servers the lsp
// tool starts: each found on PATH, or how to install it.
func printLSPServers(w io.Writer, rt *hands.Runtime, tools []string) {
	note := ""
	if !slices.Contains(tools, "lsp") {
		note = " (the lsp tool is not among this profile's tools)"
	}
	fmt.Fprintf(w, "language servers of the lsp tool%s:\n", note)
	for _, line := range rt.LSPStatus() {
		fmt.Fprintf(w, "  %s\n", line)
	}
}
