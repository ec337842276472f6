package tool

import (
	"fmt"
	"sort"
	"sync"
)

// Registry holds tools by name. Registering an invalid or duplicate name
// panics: both are mistakes in the program, found at start-up. A registry
// is safe for concurrent use: tools another MCP server offers come and go
// while calls run.
type Registry struct {
	mu     sync.RWMutex
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
	name := NameOf(t)
	if !ValidName(name) {
		panic(fmt.Sprintf("tool: invalid tool name %q", name))
	}
	if !hasSchema(t) {
		panic(fmt.Sprintf("tool %s: missing input schema", name))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.byName[name]; dup {
		panic(fmt.Sprintf("tool: duplicate tool name %q", name))
	}
	r.byName[name] = t
	r.order = append(r.order, name)
}

// Replace removes the tools named in remove and adds add, in one step, so
// that a caller never sees half of a change. A name in add that is taken
// by a tool not removed, or invalid, is an error and nothing changes.
func (r *Registry) Replace(remove []string, add []Tool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	gone := map[string]bool{}
	for _, n := range remove {
		gone[n] = true
	}
	seen := map[string]bool{}
	for _, t := range add {
		name := NameOf(t)
		if !ValidName(name) || !hasSchema(t) {
			return fmt.Errorf("tool %q: invalid name or missing input schema", name)
		}
		if _, taken := r.byName[name]; (taken && !gone[name]) || seen[name] {
			return fmt.Errorf("tool name %q is already taken", name)
		}
		seen[name] = true
	}
	order := r.order[:0:0]
	for _, n := range r.order {
		if gone[n] {
			delete(r.byName, n)
			continue
		}
		order = append(order, n)
	}
	for _, t := range add {
		name := NameOf(t)
		r.byName[name] = t
		order = append(order, name)
	}
	r.order = order
	return nil
}

// Get returns the tool named name.
func (r *Registry) Get(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.byName[name]
	return t, ok
}

// Tools returns every tool in registration order.
func (r *Registry) Tools() []Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Tool, len(r.order))
	for i, n := range r.order {
		out[i] = r.byName[n]
	}
	return out
}

// Names returns the registered names, sorted.
func (r *Registry) Names() []string {
	r.mu.RLock()
	names := append([]string(nil), r.order...)
	r.mu.RUnlock()
	sort.Strings(names)
	return names
}
