package tool_test

import (
	"slices"
	"testing"

	"github.com/hands-dev/hands/tool"
)

// TestRegistryKeepsRegistrationOrder: Tools lists the tools in the order
// they were registered (the order the model sees), Names sorted, Get by
// name.
func TestRegistryKeepsRegistrationOrder(t *testing.T) {
	reg := tool.NewRegistry(echoTool("zeta", true, nil), echoTool("alpha", true, nil), echoTool("mid", false, nil))
	var order []string
	for _, tl := range reg.Tools() {
		order = append(order, tl.Info().Name)
	}
	if want := []string{"zeta", "alpha", "mid"}; !slices.Equal(order, want) {
		t.Errorf("Tools in order %v, want %v", order, want)
	}
	if want := []string{"alpha", "mid", "zeta"}; !slices.Equal(reg.Names(), want) {
		t.Errorf("Names %v, want %v", reg.Names(), want)
	}
	if tl, ok := reg.Get("mid"); !ok || tl.Info().Name != "mid" {
		t.Errorf("Get(mid) = %v, %v", tl, ok)
	}
	if _, ok := reg.Get("nope"); ok {
		t.Error("Get found a tool never registered")
	}
}
