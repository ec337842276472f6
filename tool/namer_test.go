package tool_test

import (
	"context"
	"testing"

	"github.com/hands-dev/hands/tool"
)

// costlySketch is a tool whose Sketch is dear (its description filled
// when first read) and which tells its name apart.
type costlySketch struct {
	tool.Tool
	sketches *int
}

func (c costlySketch) Sketch() tool.Info { *c.sketches++; return tool.SketchOf(c.Tool) }
func (c costlySketch) ToolName() string  { return tool.NameOf(c.Tool) }

type nothing struct{}

// Registering a Namer, or replacing tools with one, reads its name alone:
// neither its Sketch nor its Info is built.
func TestRegisterReadsOnlyANamersName(t *testing.T) {
	n := 0
	inner := tool.New(tool.Spec[nothing]{Name: "costly", Description: "d"}, func(context.Context, *tool.Env, nothing) (nothing, error) { return nothing{}, nil })
	c := costlySketch{inner, &n}
	r := tool.NewRegistry()
	r.Register(c)
	if _, ok := r.Get("costly"); !ok || n != 0 {
		t.Fatalf("registered: found %v, Sketch built %d times; want found, none", ok, n)
	}
	if err := r.Replace([]string{"costly"}, []tool.Tool{c}); err != nil || n != 0 {
		t.Fatalf("replaced: %v, Sketch built %d times; want none", err, n)
	}
	if tool.NameOf(inner) != "costly" {
		t.Errorf("NameOf a tool that is no Namer: %q", tool.NameOf(inner))
	}
}
