package tools

import (
	"slices"
	"testing"
)

// TestBuiltinsNamed checks that each constructor is listed under the name
// of the tool it builds, and that BuiltinsOf builds only the tools named.
func TestBuiltinsNamed(t *testing.T) {
	all := Builtins(Limits{})
	if len(all) != len(builtins) {
		t.Fatalf("Builtins built %d tools, the table has %d", len(all), len(builtins))
	}
	for i, tl := range all {
		if got := tl.Info().Name; got != builtins[i].name {
			t.Errorf("constructor %d is listed as %q but builds %q", i, builtins[i].name, got)
		}
	}
	some := BuiltinsOf(Limits{}, []string{"glob", "read", "no_such_tool"})
	var names []string
	for _, tl := range some {
		names = append(names, tl.Info().Name)
	}
	if !slices.Equal(names, []string{"read", "glob"}) {
		t.Errorf("BuiltinsOf(glob, read) built %v, want [read glob]", names)
	}
}
