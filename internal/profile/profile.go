// Package profile turns the core tools into the tool surface one
// specification fixes: names, parameter names, descriptions, and the text of
// results and errors. A profile renames and re-renders; it never changes
// what a tool does.
package profile

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/hands-dev/hands/tool"
)

// Profile is one tool surface.
type Profile struct {
	// Name is what --profile selects.
	Name string
	// Tools lists the exposed tools in the order they are offered.
	Tools []Entry
	// SeparateStreams runs shell commands with stdout and stderr apart, for
	// profiles that show them apart; otherwise they share one pipe and keep
	// their exact order.
	SeparateStreams bool
	// RejectSubstitution refuses shell commands that use command
	// substitution.
	RejectSubstitution bool
	// Render, when set, rewrites a result's content in the profile's words;
	// the core's structured output and error code stay.
	Render func(e Entry, res *tool.Result, out any)
}

// Entry exposes one core tool.
type Entry struct {
	// Core is the core tool's name; Name the exposed one.
	Core, Name string
	// Params renames parameters: core name → exposed name.
	Params map[string]string
	// Description replaces the core description when non-empty.
	Description string
}

// Names lists the profiles.
func Names() []string {
	names := make([]string, 0, len(profiles))
	for n := range profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

var profiles = map[string]func() *Profile{
	"native": native,
}

// Get returns the profile called name; "" is native.
func Get(name string) (*Profile, error) {
	if name == "" {
		name = "native"
	}
	mk, ok := profiles[name]
	if !ok {
		return nil, fmt.Errorf("unknown profile %q; choose one of %s", name, strings.Join(Names(), ", "))
	}
	return mk(), nil
}

// Apply wraps the core tools as the profile exposes them, in the profile's
// order; core tools the profile does not name are left out, and entries
// whose core tool is missing are skipped.
func (p *Profile) Apply(core []tool.Tool) []tool.Tool {
	byName := map[string]tool.Tool{}
	for _, t := range core {
		byName[t.Info().Name] = t
	}
	var out []tool.Tool
	for _, e := range p.Tools {
		t, ok := byName[e.Core]
		if !ok {
			continue
		}
		out = append(out, wrap(t, e))
	}
	return out
}

// Entry returns the entry exposing the tool named name.
func (p *Profile) Entry(name string) (Entry, bool) {
	for _, e := range p.Tools {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// RenderFunc returns the executor's Render hook for this profile.
func (p *Profile) RenderFunc() func(info tool.Info, res *tool.Result, out any) {
	if p.Render == nil {
		return nil
	}
	return func(info tool.Info, res *tool.Result, out any) {
		if e, ok := p.Entry(info.Name); ok {
			p.Render(e, res, out)
		}
	}
}

// renamed is a core tool under a profile's names.
type renamed struct {
	core tool.Tool
	info tool.Info
	// in maps exposed parameter names to core ones.
	in map[string]string
}

func wrap(t tool.Tool, e Entry) tool.Tool {
	info := t.Info()
	info.Name = e.Name
	if e.Description != "" {
		info.Description = e.Description
	}
	in := map[string]string{}
	for c, x := range e.Params {
		in[x] = c
	}
	if len(e.Params) > 0 {
		info.InputSchema = renameSchema(info.InputSchema, e.Params)
	}
	return &renamed{core: t, info: info, in: in}
}

func (r *renamed) Info() tool.Info { return r.info }

func (r *renamed) Decode(raw json.RawMessage) (any, error) {
	if len(r.in) > 0 && len(raw) > 0 {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err == nil {
			out := make(map[string]json.RawMessage, len(m))
			for k, v := range m {
				if c, ok := r.in[k]; ok {
					k = c
				}
				out[k] = v
			}
			raw, _ = json.Marshal(out)
		}
	}
	in, err := r.core.Decode(raw)
	if err != nil {
		return nil, r.renameErr(err)
	}
	return in, nil
}

// renameErr speaks of parameters by their exposed names.
func (r *renamed) renameErr(err error) error {
	te := tool.AsError(err)
	msg := strings.Replace(te.Message, "for "+r.core.Info().Name+":", "for "+r.info.Name+":", 1)
	for x, c := range r.in {
		msg = regexp.MustCompile(`\b`+regexp.QuoteMeta(c)+`\b`).ReplaceAllString(msg, x)
	}
	return &tool.Error{Code: te.Code, Message: msg, Details: te.Details, Err: te.Err}
}

func (r *renamed) ConcurrencySafe(in any) bool { return r.core.ConcurrencySafe(in) }

func (r *renamed) Validate(ctx context.Context, env *tool.Env, in any) error {
	return r.core.Validate(ctx, env, in)
}

func (r *renamed) Run(ctx context.Context, env *tool.Env, in any) (any, error) {
	return r.core.Run(ctx, env, in)
}

// renameSchema renames the top-level properties of an object schema, keeping
// their order.
func renameSchema(schema json.RawMessage, names map[string]string) json.RawMessage {
	var s map[string]json.RawMessage
	if err := json.Unmarshal(schema, &s); err != nil {
		return schema
	}
	if props, ok := s["properties"]; ok {
		s["properties"] = renameKeys(props, names)
	}
	if req, ok := s["required"]; ok {
		var rs []string
		if json.Unmarshal(req, &rs) == nil {
			for i, n := range rs {
				if x, ok := names[n]; ok {
					rs[i] = x
				}
			}
			s["required"], _ = json.Marshal(rs)
		}
	}
	out, err := marshalOrdered(schema, s)
	if err != nil {
		return schema
	}
	return out
}
