package hands_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/tool"
)

func benchRuntime(b *testing.B) *hands.Runtime {
	dir := b.TempDir()
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n\nfunc A() {}\n"), 0o644)
	rt, err := hands.New(hands.Options{Roots: []string{dir}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { rt.Close() })
	return rt
}

// BenchmarkCallRead is the cost of one small read through the whole
// pipeline: decode, schema check, sandbox, read, ledger, render.
func BenchmarkCallRead(b *testing.B) {
	rt := benchRuntime(b)
	sess, _ := rt.NewSession()
	defer sess.Close()
	call := tool.Call{Name: "view", Input: json.RawMessage(`{"path":"a.go"}`)}
	b.ReportAllocs()
	for b.Loop() {
		if res := sess.Call(context.Background(), call); res.IsError {
			b.Fatal(res.TextOf())
		}
	}
}

// BenchmarkCallInvalid is the cost of a call refused at the decode stage.
func BenchmarkCallInvalid(b *testing.B) {
	rt := benchRuntime(b)
	sess, _ := rt.NewSession()
	defer sess.Close()
	call := tool.Call{Name: "view", Input: json.RawMessage(`{"path":7}`)}
	b.ReportAllocs()
	for b.Loop() {
		sess.Call(context.Background(), call)
	}
}

// BenchmarkSession is the cost of opening and closing a session.
func BenchmarkSession(b *testing.B) {
	rt := benchRuntime(b)
	b.ReportAllocs()
	for b.Loop() {
		sess, err := rt.NewSession()
		if err != nil {
			b.Fatal(err)
		}
		sess.Close()
	}
}

// BenchmarkCallBashTrue is `true` through the whole pipeline, confined as
// the runtime confines commands, beside a bare `bash -c true` spawn
// (BenchmarkBareBashTrue): their ratio is the shell tool's cost per call.
// Wall times: run them interleaved (-count) on a busy machine.
func BenchmarkCallBashTrue(b *testing.B) {
	for _, c := range []struct {
		name string
		opts hands.Options
	}{{"confined", hands.Options{}}, {"unconfined", hands.Options{NoSandbox: true}}} {
		b.Run(c.name, func(b *testing.B) {
			c.opts.Roots = []string{b.TempDir()}
			rt, err := hands.New(c.opts)
			if err != nil {
				b.Fatal(err)
			}
			defer rt.Close()
			sess, _ := rt.NewSession()
			defer sess.Close()
			call := tool.Call{Name: "bash", Input: json.RawMessage(`{"command":"true"}`)}
			sess.Call(context.Background(), call) // starts the session's shell machinery
			defer reportCPU(b)()
			for b.Loop() {
				if res := sess.Call(context.Background(), call); res.IsError {
					b.Fatal(res.TextOf())
				}
			}
		})
	}
}

// BenchmarkBareBashTrue is the floor of BenchmarkCallBashTrue.
func BenchmarkBareBashTrue(b *testing.B) {
	defer reportCPU(b)()
	for b.Loop() {
		if err := exec.Command("bash", "-c", "true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// reportCPU reports the CPU time (user and system) the process and its
// children spent per iteration, from when it is called to when the
// function it returns is: steadier than wall time on a shared machine.
func reportCPU(b *testing.B) func() {
	cpu := func() time.Duration {
		var self, kids syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &self)
		syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
		t := func(r syscall.Rusage) time.Duration {
			return time.Duration(r.Utime.Nano() + r.Stime.Nano())
		}
		return t(self) + t(kids)
	}
	start := cpu()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(cpu()-start)/float64(b.N)/1e6, "cpu-ms/op")
		}
	}
}

// BenchmarkNew is the start-up cost of a runtime: what `hands call` and
// `hands serve` pay before their first call, package initialisation aside.
func BenchmarkNew(b *testing.B) {
	dir := b.TempDir()
	for b.Loop() {
		rt, err := hands.New(hands.Options{Roots: []string{dir}})
		if err != nil {
			b.Fatal(err)
		}
		rt.Close()
	}
}

// BenchmarkCallTrivial is the cost of a call of a tool that does nothing
// through the whole pipeline (decode and schema check, the stages, the
// renderer): what every call pays the executor. mcpserver's
// BenchmarkCallTrivial is the same call through the MCP server.
func BenchmarkCallTrivial(b *testing.B) {
	type in struct {
		Path string `json:"path"`
	}
	type out struct {
		Text string `json:"text"`
	}
	trivial := tool.New(tool.Spec[in]{Name: "trivial", Description: "Returns a fixed text.", ReadOnly: true},
		func(context.Context, *tool.Env, in) (out, error) { return out{Text: "done"}, nil })
	rt, err := hands.New(hands.Options{Roots: []string{b.TempDir()}, Tools: []tool.Tool{trivial}})
	if err != nil {
		b.Fatal(err)
	}
	defer rt.Close()
	sess, _ := rt.NewSession()
	defer sess.Close()
	call := tool.Call{Name: "trivial", Input: json.RawMessage(`{"path":"a.go"}`)}
	b.ReportAllocs()
	for b.Loop() {
		if res := sess.Call(context.Background(), call); res.IsError {
			b.Fatal(res.TextOf())
		}
	}
}
