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

// Namer is implemented by a tool that tells its name at no cost where its
// Sketch costs more (a description filled in when first read, such as the
// task tool's list of agents): the registry needs only the name, and a
// runtime then pays for the description when a client first reads it.
type Namer interface {
	ToolName() string
}

// NameOf returns t's name, from ToolName when t is a Namer.
func NameOf(t Tool) string {
	if n, ok := t.(Namer); ok {
		return n.ToolName()
	}
	return SketchOf(t).Name
}

// hasSchema reports whether t declares an input schema; a Sketcher always
// does (its first Info builds it).
func hasSchema(t Tool) bool {
	if _, ok := t.(Sketcher); ok {
		return true
	}
	return len(t.Info().InputSchema) > 0
}
