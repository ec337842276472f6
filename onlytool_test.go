package hands_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/tool"
)

// TestOnlyTool: a runtime for one call builds that tool alone, and the
// call runs as it would among all the tools; a name the profile lacks, a
// disabled one or a loop type leaves the tool set whole, so that they are
// refused as always.
func TestOnlyTool(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	newRT := func(o hands.Options) *hands.Runtime {
		t.Helper()
		o.Roots = []string{dir}
		rt, err := hands.New(o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rt.Close() })
		return rt
	}
	all := toolNames(newRT(hands.Options{}))

	rt := newRT(hands.Options{OnlyTool: "glob"})
	if got := toolNames(rt); !slices.Equal(got, []string{"glob"}) {
		t.Errorf("OnlyTool glob built %v, want [glob]", got)
	}
	sess, err := rt.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	res := sess.Call(context.Background(), tool.Call{Name: "glob", Input: json.RawMessage(`{"pattern":"*.go"}`)})
	if res.IsError || !strings.Contains(res.TextOf(), "a.go") {
		t.Errorf("glob with OnlyTool: %s", res.TextOf())
	}

	claude := newRT(hands.Options{Profile: "claude", OnlyTool: "Read"})
	if got := toolNames(claude); !slices.Equal(got, []string{"Read"}) {
		t.Errorf("claude OnlyTool Read built %v, want [Read]", got)
	}
	for _, o := range []hands.Options{
		{OnlyTool: "nosuch"},
		{OnlyTool: "glob", DisabledTools: []string{"glob"}},
	} {
		got := toolNames(newRT(o))
		want := slices.DeleteFunc(slices.Clone(all), func(n string) bool { return slices.Contains(o.DisabledTools, n) })
		if !slices.Equal(got, want) {
			t.Errorf("OnlyTool %q, disabled %v: built %v, want %v", o.OnlyTool, o.DisabledTools, got, want)
		}
	}
	if _, err := hands.New(hands.Options{Roots: []string{dir}, OnlyTool: "glob", DisabledTools: []string{"nosuch"}}); err == nil || !strings.Contains(err.Error(), `cannot disable "nosuch"`) {
		t.Errorf("an unknown disabled tool beside OnlyTool: err %v, want cannot disable", err)
	}
}
