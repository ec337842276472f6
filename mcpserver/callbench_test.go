package mcpserver_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
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
	return pipeSession(b, func(ctx context.Context, r io.ReadCloser, w io.WriteCloser) { srv.ServeIO(ctx, r, w) },
		func() { srv.Close(); rt.Close() })
}

// pipeSession connects a client over pipes to a server that serve runs,
// under serverSide's label, until its context is cancelled; at the end of
// the benchmark the client closes, serve returns, then after runs.
func pipeSession(b *testing.B, serve func(context.Context, io.ReadCloser, io.WriteCloser), after func()) *mcp.ClientSession {
	b.Helper()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go serverSide(ctx, func(ctx context.Context) { serve(ctx, sr, sw); close(done) })
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
		after()
	})
	return cs
}

// serverSide runs f, and every goroutine it starts, under the pprof label
// side=server, so that a profile of a benchmark can be cut to the server's
// share of a call: go tool pprof -tagfocus side=server.
func serverSide(ctx context.Context, f func(context.Context)) {
	pprof.Do(ctx, pprof.Labels("side", "server"), f)
}

// floorSession serves the reply floor of bench/cmd/floorserver in process
// (a go-sdk server whose one tool returns a precomputed text of the
// given size, over the SDK's own stdio-like transport), for profiles of
// the floor beside Hands's calls.
func floorSession(b *testing.B, text string) *mcp.ClientSession {
	b.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "floor", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "floor", Description: "Returns the text."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
		})
	return pipeSession(b, func(ctx context.Context, r io.ReadCloser, w io.WriteCloser) {
		s.Run(ctx, &mcp.IOTransport{Reader: r, Writer: nopCloser{w}})
	}, func() {})
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// benchFloor times the floor's reply of the same text Hands's call
// replies with (measured once, before the timing).
func benchFloor(b *testing.B, c callCase) {
	hs := benchSession(b, c.opts)
	name, args := c.name, c.args
	res, err := hs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil || res.IsError {
		b.Fatalf("%s: %v %v", name, err, res)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			text.WriteString(t.Text)
		}
	}
	cs := floorSession(b, text.String())
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "floor", Arguments: map[string]any{}}); err != nil {
			b.Fatal(err)
		}
	}
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

func benchCall(b *testing.B, c callCase) {
	cs := benchSession(b, c.opts)
	name, args := c.name, c.args
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

// benchCase returns the runtime's options and the call of one benchmark:
// reads of a 32 KB, 3.5 KB and 240 KB file of GOROOT/src, a listing and
// a glob of net/http, bash true.
func benchCase(b *testing.B, name string) callCase {
	inDir := func(rel string) callCase {
		p := goSrc(b, rel)
		return callCase{hands.Options{Roots: []string{filepath.Dir(p)}}, "view", map[string]any{"path": p}}
	}
	switch name {
	case "Read32K":
		return inDir("cmd/api/main_test.go")
	case "Read3K":
		return inDir("bytes/iter.go")
	case "Read240K":
		return inDir("cmd/compile/internal/ssa/rewriteRISCV64.go")
	case "List":
		p := goSrc(b, "net/http")
		return callCase{hands.Options{Roots: []string{p}}, "view", map[string]any{"path": p}}
	case "Glob":
		p := goSrc(b, "net/http")
		return callCase{hands.Options{Roots: []string{p}}, "glob", map[string]any{"pattern": "**/*_test.go", "path": p}}
	case "Bash":
		return callCase{hands.Options{Roots: []string{b.TempDir()}}, "bash", map[string]any{"command": "true"}}
	}
	b.Fatalf("no benchmark case %s", name)
	return callCase{}
}

// callCase is a runtime's options and one call to make of it.
type callCase struct {
	opts hands.Options
	name string
	args map[string]any
}

func BenchmarkCallRead32K(b *testing.B)  { benchCall(b, benchCase(b, "Read32K")) }
func BenchmarkCallRead3K(b *testing.B)   { benchCall(b, benchCase(b, "Read3K")) }
func BenchmarkCallRead240K(b *testing.B) { benchCall(b, benchCase(b, "Read240K")) }
func BenchmarkCallList(b *testing.B)     { benchCall(b, benchCase(b, "List")) }
func BenchmarkCallGlob(b *testing.B)     { benchCall(b, benchCase(b, "Glob")) }
func BenchmarkCallBash(b *testing.B)     { benchCall(b, benchCase(b, "Bash")) }

// The floor's reply to the same call, for profiles beside Hands's:
// go test -run X -bench 'Read32K' -cpuprofile cpu.out ./mcpserver, then
// go tool pprof -tagfocus side=server.
func BenchmarkFloorRead32K(b *testing.B)  { benchFloor(b, benchCase(b, "Read32K")) }
func BenchmarkFloorRead3K(b *testing.B)   { benchFloor(b, benchCase(b, "Read3K")) }
func BenchmarkFloorRead240K(b *testing.B) { benchFloor(b, benchCase(b, "Read240K")) }
func BenchmarkFloorList(b *testing.B)     { benchFloor(b, benchCase(b, "List")) }
func BenchmarkFloorGlob(b *testing.B)     { benchFloor(b, benchCase(b, "Glob")) }
