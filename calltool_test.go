package hands_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/internal/tooltest/counted"
	"github.com/hands-dev/hands/tool"
)

type echoIn struct {
	Text string `json:"text"`
}

// What hands call does — a runtime with every tool, the called tool's
// core (CoreTool, to know whether to probe the sandbox), a session and
// one call — builds no other tool's definition: the schemas of the tool
// called alone, without a special path for one call.
func TestOneCallBuildsNoOtherTool(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ profile, glob string }{{"", "glob"}, {"claude", "Glob"}} {
		var infos atomic.Int32
		echo := tool.New(tool.Spec[echoIn]{Name: "echo", Description: "echoes"}, func(_ context.Context, _ *tool.Env, in echoIn) (echoIn, error) {
			return in, nil
		})
		rt, err := hands.New(hands.Options{Roots: []string{dir}, Profile: c.profile, Tools: []tool.Tool{counted.Tool{Tool: echo, Infos: &infos}}})
		if err != nil {
			t.Fatal(err)
		}
		defer rt.Close()
		if core, ok := rt.CoreTool(c.glob); !ok || core != "glob" {
			t.Errorf("%s: CoreTool(%q) = %q, %v; want glob", c.profile, c.glob, core, ok)
		}
		if core, ok := rt.CoreTool("echo"); !ok || core != "echo" {
			t.Errorf("%s: CoreTool(echo) = %q, %v; want echo, its own name", c.profile, core, ok)
		}
		if _, ok := rt.CoreTool("nosuch"); ok {
			t.Errorf("%s: CoreTool found a tool the runtime lacks", c.profile)
		}
		sess, err := rt.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		res := sess.Call(context.Background(), tool.Call{Name: c.glob, Input: json.RawMessage(`{"pattern":"*.go"}`)})
		if res.IsError || !strings.Contains(res.TextOf(), "a.go") {
			t.Errorf("%s: %s: %s", c.profile, c.glob, res.TextOf())
		}
		if n := infos.Load(); n != 0 {
			t.Errorf("%s: one call of %s built another tool's definition %d times", c.profile, c.glob, n)
		}
		res = sess.Call(context.Background(), tool.Call{Name: "echo", Input: json.RawMessage(`{"text":"hi"}`)})
		if res.IsError || infos.Load() == 0 {
			t.Errorf("%s: calling echo: %s, definition built %d times", c.profile, res.TextOf(), infos.Load())
		}
	}
}
