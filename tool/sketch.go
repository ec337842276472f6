package tool

// Sketcher is implemented by a tool that tells its Info without the
// schemas (InputSchema and OutputSchema nil) at no cost, building those at
// its first Info: a runtime makes every tool of its profile at start-up,
// and a server lists them once, so the schemas are built when a client
// first lists the tools, not when the server starts. A tool that wraps a
// Sketcher and changes its Info must implement Sketch too, with the same
// fields but the schemas.
type Sketcher interface {
	Sketch() Info
}

// SketchOf returns t's Info, without the schemas when t is a Sketcher: for
// what needs only a tool's name, core, description or annotations.
func SketchOf(t Tool) Info {
	if s, ok := t.(Sketcher); ok {
		return s.Sketch()
	}
	return t.Info()
}

// hasSchema reports whether t declares an input schema; a Sketcher always
// does (its first Info builds it).
func hasSchema(t Tool) bool {
	if _, ok := t.(Sketcher); ok {
		return true
	}
	return len(t.Info().InputSchema) > 0
}
