//go:build !unix

package mcpserver

import "io"

// inputPending cannot tell here: the warm-up runs.
func inputPending(io.Reader) bool { return false }
