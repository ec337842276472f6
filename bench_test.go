package hands_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

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
