// Package counted has a tool that counts how often its definition is built.
package counted

import (
	"sync/atomic"

	"github.com/hands-dev/hands/tool"
)

// Tool is a tool that counts in Infos how often its definition (its
// schemas included) is built; its sketch is the wrapped tool's, which
// builds no schema.
type Tool struct {
	tool.Tool
	Infos *atomic.Int32
}

// Info implements tool.Tool, counting.
func (c Tool) Info() tool.Info { c.Infos.Add(1); return c.Tool.Info() }

// Sketch implements tool.Sketcher.
func (c Tool) Sketch() tool.Info { return tool.SketchOf(c.Tool) }
