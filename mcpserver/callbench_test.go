package mcpserver_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The benchmarks below make one call per iteration over stdio-like pipes
// (the server's own line transport), for profiles of a call's cost on the
// server's side: go test -run X -bench Call -cpuprofile cpu.out ./mcpserver.
// bench/calls.sh times the same calls across processes against a floor.

// benchSession serves a runtime over pipes and returns a client session.
func benchSession(b *testing.B, opts hands.Options) *mcp.ClientSession {
	b.Helper()
	rt, err := hands.New(opts)
	if err != nil {
		b.Fatal(err)
	}
	srv := mcpserver.New(rt, mcpserver.Options{})
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.ServeIO(ctx, sr, sw); close(done) }()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cs.Close()
		cancel()
		sr.Close()
		<-done
		srv.Close()
		rt.Close()
	})
	return cs
}

// goSrc returns a file or directory of GOROOT/src, skipping the benchmark
// when it is absent.
func goSrc(b *testing.B, rel string) string {
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("go env GOROOT:", err)
	}
	p := filepath.Join(strings.TrimSpace(string(root)), "src", rel)
	if _, err := os.Stat(p); err != nil {
		b.Skip(err)
	}
	return p
}

func benchCall(b *testing.B, opts hands.Options, name string, args map[string]any) {
	cs := benchSession(b, opts)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			b.Fatal(err)
		}
		if res.IsError {
			b.Fatalf("%s: %v", name, res.Content)
		}
	}
}

func BenchmarkCallRead32K(b *testing.B) {
	p := goSrc(b, "cmd/api/main_test.go")
	benchCall(b, hands.Options{Roots: []string{filepath.Dir(p)}}, "view", map[string]any{"path": p})
}

func BenchmarkCallRead3K(b *testing.B) {
	p := goSrc(b, "bytes/iter.go")
	benchCall(b, hands.Options{Roots: []string{filepath.Dir(p)}}, "view", map[string]any{"path": p})
}

func BenchmarkCallList(b *testing.B) {
	p := goSrc(b, "net/http")
	benchCall(b, hands.Options{Roots: []string{p}}, "view", map[string]any{"path": p})
}

func BenchmarkCallGlob(b *testing.B) {
	p := goSrc(b, "net/http")
	benchCall(b, hands.Options{Roots: []string{p}}, "glob", map[string]any{"pattern": "**/*_test.go", "path": p})
}

func BenchmarkCallBash(b *testing.B) {
	benchCall(b, hands.Options{Roots: []string{b.TempDir()}}, "bash", map[string]any{"command": "true"})
}

func BenchmarkCallRead240K(b *testing.B) {
	p := goSrc(b, "cmd/compile/internal/ssa/rewriteRISCV64.go")
	benchCall(b, hands.Options{Roots: []string{filepath.Dir(p)}}, "view", map[string]any{"path": p})
}
