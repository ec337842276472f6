package ignore

import (
	"slices"
	"testing"
)

// TestTypeDefsSorted: the type table is searched by halves, so its names
// must be sorted and unique, and every name must find its own globs.
func TestTypeDefsSorted(t *testing.T) {
	for i := 1; i < len(typeDefs); i++ {
		if typeDefs[i-1].name >= typeDefs[i].name {
			t.Fatalf("typeDefs not sorted or not unique at %d: %q then %q", i, typeDefs[i-1].name, typeDefs[i].name)
		}
	}
	for _, d := range typeDefs {
		g, ok := typeGlobsOf(d.name)
		if !ok || !slices.Equal(g, d.globs) {
			t.Errorf("typeGlobsOf(%q) = %q, %v; want %q", d.name, g, ok, d.globs)
		}
	}
	for _, name := range []string{"", "a", "zzz", "Go", "go "} {
		if g, ok := typeGlobsOf(name); ok {
			t.Errorf("typeGlobsOf(%q) = %q, want none", name, g)
		}
	}
}
