package tool

import (
	"fmt"
	"sort"
)

// Registry holds tools by name. Registering an invalid or duplicate name
// panics: both are mistakes in the program, found at start-up.
type Registry struct {
	byName map[string]Tool
	order  []string
}

// NewRegistry returns a registry holding tools, in that order.
func NewRegistry(tools ...Tool) *Registry {
	r := &Registry{byName: map[string]Tool{}}
	for _, t := range tools {
		r.Register(t)
	}
	return r
}

// Register adds t. It panics if its name is invalid or already taken.
func (r *Registry) Register(t Tool) {
	name := t.Info().Name
	if !ValidName(name) {
		panic(fmt.Sprintf("tool: invalid tool name %q", name))
	}
	if _, dup := r.byName[name]; dup {
		panic(fmt.Sprintf("tool: duplicate tool name %q", name))
	}
	if len(t.Info().InputSchema) == 0 {
		panic(fmt.Sprintf("tool %s: missing input schema", name))
	}
	r.byName[name] = t
	r.order = append(r.order, name)
}

// Get returns the tool named name.
func (r *Registry) Get(name string) (Tool, bool) {
	t, ok := r.byName[name]
	return t, ok
}

// Tools returns every tool in registration order.
func (r *Registry) Tools() []Tool {
	out := make([]Tool, len(r.order))
	for i, n := range r.order {
		out[i] = r.byName[n]
	}
	return out
}

// Names returns the registered names, sorted.
func (r *Registry) Names() []string {
	names := append([]string(nil), r.order...)
	sort.Strings(names)
	return names
}
