package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/hands-dev/hands/internal/sandbox"
	"github.com/hands-dev/hands/tool"
)

// fixture runs the core tools, under their core names, through a real
// executor over a sandbox rooted in a fresh temporary directory. Unlike the
// txtar scenarios it gives the test the session state (the ledger) and the
// file system between calls.
type fixture struct {
	t    testing.TB
	root string
	st   *State
	exec *tool.Executor
}

func newFixture(t testing.TB, deny ...string) *fixture {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	fs, err := sandbox.New([]string{root}, deny)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fs.Close() })
	return &fixture{
		t:    t,
		root: root,
		st:   NewState(fs, DefaultLimits(), t.TempDir()),
		exec: &tool.Executor{Registry: tool.NewRegistry(Builtins(Limits{})...)},
	}
}

// call runs one call; in is marshalled to JSON unless it is a string.
func (f *fixture) call(name string, in any) tool.Result {
	f.t.Helper()
	raw, ok := in.(string)
	if !ok {
		b, err := json.Marshal(in)
		if err != nil {
			f.t.Fatal(err)
		}
		raw = string(b)
	}
	return f.exec.Execute(context.Background(), &tool.Env{Session: f.st}, tool.Call{Name: name, Input: json.RawMessage(raw)})
}

// ok runs a call that must succeed.
func (f *fixture) ok(name string, in any) tool.Result {
	f.t.Helper()
	res := f.call(name, in)
	if res.IsError {
		f.t.Fatalf("%s %v: %s", name, in, res.TextOf())
	}
	return res
}

// fail runs a call that must fail with code.
func (f *fixture) fail(code tool.Code, name string, in any) tool.Result {
	f.t.Helper()
	res := f.call(name, in)
	if !res.IsError || res.Code != code {
		f.t.Fatalf("%s %v: want %s, got %s: %s", name, in, code, res.Code, res.TextOf())
	}
	return res
}

func (f *fixture) path(name string) string { return filepath.Join(f.root, filepath.FromSlash(name)) }

func (f *fixture) put(name string, data []byte, mode os.FileMode) {
	f.t.Helper()
	p := f.path(name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, data, mode); err != nil {
		f.t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) get(name string) []byte {
	f.t.Helper()
	b, err := os.ReadFile(f.path(name))
	if err != nil {
		f.t.Fatal(err)
	}
	return b
}

// read reads name with the read tool, so that it may be written.
func (f *fixture) read(name string) tool.Result {
	f.t.Helper()
	return f.ok("read", map[string]any{"path": name})
}
