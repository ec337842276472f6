package mcpserver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/tool"
)

// trivialText is what the trivial tool answers: the size of a 3.5 KB
// file's read, so that the reply costs what read3k's does.
var trivialText = strings.Repeat("0123456789abcdef\n", 270)

// trivialTool returns a precomputed text, touching nothing: a call of it
// through Hands is the pipeline's and the server's own cost. Its
// structured content is metadata, as the file tools' is.
func trivialTool() tool.Tool {
	type in struct {
		Path string `json:"path" jsonschema:"any path; it is not read"`
	}
	return tool.New(tool.Spec[in]{Name: "trivial", Description: "Returns a fixed text.", ReadOnly: true},
		func(context.Context, *tool.Env, in) (trivialOut, error) {
			return trivialOut{Chars: len(trivialText)}, nil
		})
}

// trivialOut is the trivial tool's output: the text as content, its size
// as structured content.
type trivialOut struct {
	Chars int `json:"chars"`
}

func (trivialOut) Content() []tool.Content   { return []tool.Content{tool.Text(trivialText)} }
func (o trivialOut) StructuredMetadata() any { return o }

// BenchmarkCallTrivial is a call of a tool that does nothing, through the
// whole server (transport, the SDK, the executor's stages, rendering);
// BenchmarkFloorTrivial is the SDK's floor for the same reply. Their
// difference is what every call pays Hands: go test -run X -bench
// Trivial -benchmem ./mcpserver (the allocations are the server's and
// the client's, which both benchmarks share).
func BenchmarkCallTrivial(b *testing.B) { benchCall(b, trivialCase(b)) }

// BenchmarkFloorTrivial is BenchmarkCallTrivial's floor.
func BenchmarkFloorTrivial(b *testing.B) { benchFloor(b, trivialCase(b)) }

func trivialCase(b *testing.B) callCase {
	opts := hands.Options{Roots: []string{b.TempDir()}, Tools: []tool.Tool{trivialTool()}}
	return callCase{opts, "trivial", map[string]any{"path": "a.go"}}
}
