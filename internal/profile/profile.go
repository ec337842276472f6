// Package profile turns the core tools into the tool surface one
// specification fixes: names, parameter names, descriptions, and the text of
// results and errors. A profile renames and re-renders; it never changes
// what a tool does. Where a document describes a behaviour the core lacks,
// the core has a switch (tools.Behavior) and the profile sets its default.
//
// Profiles: native (seed 000, the default), claude (seed 003), gemini (seed
// 001), envelope (seed 002) and taskdaemon (seed 004). Each is a table of
// entries (Entry) plus one rendering function; descriptions are embedded
// .md files under desc/.
package profile

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/tool"
)

// Profile is one tool surface.
type Profile struct {
	// Name is what --profile selects.
	Name string
	// Tools lists the exposed tools in the order they are offered.
	Tools []Entry
	// Behavior are the core's switches as this profile's document
	// describes the tools; a host may override them.
	Behavior tools.Behavior
	// Render, when set, rewrites a result in the profile's words: its
	// content always, and where the document says so whether it is an
	// error. The core's structured output and error code stay, except
	// where the profile's document fixes the structured shape (envelope).
	Render func(r *Rendering)
	// Limits are the profile's own bounds where they differ from the
	// defaults (the program it mirrors reads larger files, say); a host's
	// non-zero limits win over them. See LimitsOf.
	Limits tools.Limits
	// IgnoreUnknown drops parameters the tool does not have instead of
	// refusing the call (Gemini CLI 0.1.13 ignores them).
	IgnoreUnknown bool
}

// Entry exposes one core tool.
type Entry struct {
	// Core is the core tool's name; Name the exposed one.
	Core, Name string
	// Title replaces the core title when non-empty.
	Title string
	// Description replaces the core description when non-empty.
	Description string
	// Params, when non-nil, lists the exposed parameters in the order
	// they are offered. Core parameters not listed are hidden: a call that
	// gives one is refused as giving an unknown parameter, and the core
	// sees its zero value or its Fixed value. Nil exposes the core's
	// parameters as they are.
	Params []Param
	// Required, when non-nil, is the exposed schema's required list;
	// otherwise a parameter is required when the core requires it and it
	// has no Default.
	Required []string
	// Fixed sets hidden core parameters (core name → JSON value) on every
	// call.
	Fixed map[string]any
	// Transform adjusts the arguments, by core name, after renaming,
	// defaults and Fixed values and before the core decodes them (a value
	// convention that differs from the core's, such as a 0-based offset).
	// A returned *tool.Error is the call's result.
	Transform func(args map[string]json.RawMessage) *tool.Error
	// SchemaKeywords holds JSON Schema keywords put first in the exposed
	// input schema, as a JSON object (such as {"$schema":"…"}).
	SchemaKeywords string
	// IgnoreUnknown drops parameters the entry does not expose instead of
	// refusing the call, for a schema that admits any other property
	// (Claude Code's ExitPlanMode: "additionalProperties": {}).
	IgnoreUnknown bool
	// OutputSchema replaces the core output schema when the profile
	// changes the shape of the structured content.
	OutputSchema json.RawMessage
	// MaxResultChars replaces the core bound on the result text, for
	// profiles that bound it themselves while rendering.
	MaxResultChars int
}

// Param is one exposed parameter.
type Param struct {
	// Name is the exposed name; Core the core parameter it sets ("" means
	// the same name).
	Name, Core string
	// Description replaces the core description when non-empty.
	Description string
	// Default is applied when the call leaves the parameter out, and shown
	// in the schema.
	Default any
	// Schema holds extra JSON Schema keywords for the parameter, as a JSON
	// object whose keys are added (or replace the core's) in order, such
	// as {"enum":[…]} or {"minimum":0}.
	Schema string
	// Aliases are other names accepted for the parameter and not shown in
	// the schema (names older clients sent).
	Aliases []string
	// Items, for an array of objects, are the exposed parameters of each
	// element.
	Items []Param
	// ItemsRequired, when non-nil, is the required list of each element
	// of Items.
	ItemsRequired []string
	// NoDescription leaves the parameter without a description (the
	// core's is dropped), where the document gives none.
	NoDescription bool
}

func (p Param) core() string {
	if p.Core != "" {
		return p.Core
	}
	return p.Name
}

//go:embed desc
var descFS embed.FS

// desc returns an embedded description, without its final newline. A
// missing file is a programming mistake.
func desc(name string) string {
	b, err := descFS.ReadFile("desc/" + name)
	if err != nil {
		panic(fmt.Sprintf("profile: %v", err))
	}
	return strings.TrimSuffix(string(b), "\n")
}

// profiles are the profiles' names, sorted, with their makers: a table the
// linker lays out, not a map every start of the binary would build.
var profiles = [...]struct {
	name string
	mk   func(tools.Limits) *Profile
}{
	{"claude", claude},
	{"envelope", envelope},
	{"gemini", gemini},
	{"native", native},
	{"taskdaemon", taskdaemon},
}

// maker returns the maker of the profile called name.
func maker(name string) (func(tools.Limits) *Profile, bool) {
	for _, p := range profiles {
		if p.name == name {
			return p.mk, true
		}
	}
	return nil, false
}

// Names lists the profiles.
func Names() []string {
	names := make([]string, len(profiles))
	for i, p := range profiles {
		names[i] = p.name
	}
	return names
}

// LimitsOf returns lim with its zero fields set to the limits of the
// profile called name ("" is native), for Get and the runtime to apply;
// an unknown name leaves lim as it is (Get reports it).
func LimitsOf(name string, lim tools.Limits) tools.Limits {
	if name == "" {
		name = "native"
	}
	mk, ok := maker(name)
	if !ok {
		return lim
	}
	return lim.Or(mk(tools.DefaultLimits()).Limits)
}

// Get returns the profile called name ("" is native), its descriptions
// stating the limits lim (zero fields are defaults).
func Get(name string, lim tools.Limits) (*Profile, error) {
	if name == "" {
		name = "native"
	}
	mk, ok := maker(name)
	if !ok {
		return nil, fmt.Errorf("unknown profile %q; choose one of %s", name, strings.Join(Names(), ", "))
	}
	lim = lim.Or(mk(tools.DefaultLimits()).Limits).WithDefaults()
	p := mk(lim)
	for i := range p.Tools {
		e := &p.Tools[i]
		e.Description = lim.Describe(e.Description)
		describeParams(e.Params, lim)
	}
	return p, nil
}

func describeParams(ps []Param, lim tools.Limits) {
	for i := range ps {
		ps[i].Description = lim.Describe(ps[i].Description)
		describeParams(ps[i].Items, lim)
	}
}

// Cores returns the core names of the tools the profile exposes, for
// building only those (tools.BuiltinsOf).
func (p *Profile) Cores() []string {
	names := make([]string, len(p.Tools))
	for i, e := range p.Tools {
		names[i] = e.Core
	}
	return names
}

// Apply wraps the core tools as the profile exposes them, in the profile's
// order; core tools the profile does not name are left out. An entry whose
// core tool is missing, a name exposed twice, or an entry that names a
// parameter the core tool lacks panics: the table is wrong, and every
// profile is built at start-up and in the tests.
func (p *Profile) Apply(core []tool.Tool) []tool.Tool {
	byName := map[string]tool.Tool{}
	for _, t := range core {
		byName[tool.SketchOf(t).Name] = t
	}
	var out []tool.Tool
	for _, e := range p.Tools {
		t, ok := byName[e.Core]
		if !ok {
			panic(fmt.Sprintf("profile %s: %s exposes core tool %q, which does not exist", p.Name, e.Name, e.Core))
		}
		if slices.ContainsFunc(out, func(o tool.Tool) bool { return tool.SketchOf(o).Name == e.Name }) {
			panic(fmt.Sprintf("profile %s: %s is exposed twice", p.Name, e.Name))
		}
		w := wrap(t, e, p.Render != nil, p.IgnoreUnknown)
		w.ignoreUnknown = e.IgnoreUnknown || p.IgnoreUnknown
		out = append(out, w)
	}
	return out
}

// withoutKey returns the JSON object obj without the key k.
func withoutKey(obj json.RawMessage, k string) json.RawMessage {
	keys, vals, err := orderedObject(obj)
	if err != nil {
		return obj
	}
	if i := slices.Index(keys, k); i >= 0 {
		keys, vals = slices.Delete(keys, i, i+1), slices.Delete(vals, i, i+1)
	}
	return writeObject(keys, vals)
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

// Rendering is one result as a profile's Render sees it.
type Rendering struct {
	// Entry is the exposed tool.
	Entry Entry
	// Res is the result to rewrite: its content, and where the profile's
	// document says so its error state and structured content.
	Res *tool.Result
	// In is the core input of a call that ran (tools.ReadInput, …); nil
	// when the call failed before it ran or failed.
	In any
	// Out is the core output on success; nil on failure.
	Out any
	// Roots are the session's roots, for paths shown relative to them.
	Roots []string
	// Limit is the core bound on the result text.
	Limit int
	// Save, when set, keeps a whole result text in a file only the server
	// writes and returns the file's path (for a profile that shows a large
	// result as a note naming its file); nil when the host keeps nothing.
	Save func(callID, text string) (string, error)
}

// Text sets the result's content to one text block.
func (r *Rendering) Text(s string) { r.Res.Content = []tool.Content{tool.Text(s)} }

// Err returns the call's error, or nil on success.
func (r *Rendering) Err() *tool.Error {
	if !r.Res.IsError {
		return nil
	}
	if r.Res.Err == nil {
		r.Res.Err = &tool.Error{Code: r.Res.Code, Message: r.Res.TextOf()}
	}
	return r.Res.Err
}

// detail returns the error detail key as a string, or "".
func (r *Rendering) detail(key string) string {
	if e := r.Err(); e != nil {
		if v, ok := e.Details[key]; ok {
			return fmt.Sprint(v)
		}
	}
	return ""
}

// Rel returns path relative to the root that holds it, or path itself when
// no root does.
func (r *Rendering) Rel(path string) string {
	best := ""
	for _, root := range r.Roots {
		root = strings.TrimSuffix(root, "/")
		if path == root {
			return "."
		}
		if strings.HasPrefix(path, root+"/") && len(root) > len(best) {
			best = root
		}
	}
	if best == "" {
		return path
	}
	return path[len(best)+1:]
}

// RenderFunc returns the executor's Render hook for this profile, for a
// session over roots; nil when the profile renders nothing itself.
func (p *Profile) RenderFunc(roots []string) func(info tool.Info, res *tool.Result, out any) {
	return p.RenderFuncSaving(roots, nil)
}

// RenderFuncSaving is RenderFunc for a session that keeps large results
// with save (Rendering.Save).
func (p *Profile) RenderFuncSaving(roots []string, save func(callID, text string) (string, error)) func(info tool.Info, res *tool.Result, out any) {
	if p.Render == nil {
		return nil
	}
	return func(info tool.Info, res *tool.Result, out any) {
		var in any
		c, carried := out.(*carrier)
		if carried {
			in, out = c.in, c.out
			res.Structured = out
		}
		e, ok := p.Entry(info.Name)
		if !ok {
			return
		}
		limit := info.MaxResultChars
		switch {
		case carried:
			limit = c.limit
		case e.MaxResultChars != 0:
			limit = 0 // the entry's own bound is not the core's
		}
		if limit <= 0 {
			limit = tool.DefaultMaxResultChars
		}
		p.Render(&Rendering{Entry: e, Res: res, In: in, Out: out, Roots: roots, Limit: limit, Save: save})
	}
}

// carrier is a core output travelling with its input to the profile's
// renderer, which unwraps it. It marshals and renders as the output itself,
// so that a host without the renderer sees nothing different.
type carrier struct {
	in, out any
	limit   int
}

func (c *carrier) MarshalJSON() ([]byte, error) { return json.Marshal(c.out) }

func (c *carrier) Content() []tool.Content {
	if ct, ok := c.out.(tool.Contenter); ok {
		return ct.Content()
	}
	b, err := json.MarshalIndent(c.out, "", "  ")
	if err != nil {
		return []tool.Content{tool.Text(fmt.Sprint(c.out))}
	}
	return []tool.Content{tool.Text(string(b))}
}

// wrapped is a core tool under a profile's names. Its schemas are
// rewritten at its first Info (see tool.Sketcher).
type wrapped struct {
	core tool.Tool
	// sketch is the Info without the schemas; info builds the whole.
	sketch tool.Info
	info   func() tool.Info
	e      Entry
	// carry makes Run hand its input to the renderer.
	carry bool
	// byName maps exposed names and aliases to parameters.
	byName map[string]Param
	// exposed lists the exposed names, sorted, for messages.
	exposed []string
	// ignoreUnknown drops unknown parameters instead of refusing them.
	ignoreUnknown bool
	// enums holds the values of each enum the profile adds to a
	// parameter, by the parameter's Schema text, parsed once here rather
	// than on every call.
	enums map[string][]json.RawMessage
}

func wrap(t tool.Tool, e Entry, carry, anyKeys bool) *wrapped {
	info := tool.SketchOf(t)
	core := info.Name
	info.Name = e.Name
	if info.Core == "" {
		info.Core = core
	}
	if e.Title != "" {
		info.Title = e.Title
	}
	if e.Description != "" {
		info.Description = e.Description
	}
	if e.MaxResultChars != 0 {
		info.MaxResultChars = e.MaxResultChars
	}
	w := &wrapped{core: t, e: e, carry: carry, byName: map[string]Param{}, enums: map[string][]json.RawMessage{}}
	w.addEnums(e.Params)
	for _, p := range e.Params {
		w.byName[p.Name] = p
		w.exposed = append(w.exposed, p.Name)
		for _, a := range p.Aliases {
			w.byName[a] = p
		}
	}
	sort.Strings(w.exposed)
	w.sketch = info
	w.info = sync.OnceValue(func() tool.Info {
		full := t.Info()
		info.InputSchema, info.OutputSchema = full.InputSchema, full.OutputSchema
		if e.OutputSchema != nil {
			info.OutputSchema = e.OutputSchema
		}
		if e.Params != nil {
			schema, err := buildSchema(info.InputSchema, e)
			if err != nil {
				panic(fmt.Sprintf("profile: %s exposes %s: %v", e.Name, core, err))
			}
			info.InputSchema = schema
		}
		if anyKeys {
			info.InputSchema = withoutKey(info.InputSchema, "additionalProperties")
		}
		return info
	})
	return w
}

func (w *wrapped) Info() tool.Info { return w.info() }

// Sketch implements tool.Sketcher.
func (w *wrapped) Sketch() tool.Info { return w.sketch }

func (w *wrapped) Decode(raw json.RawMessage) (any, error) {
	args, terr := w.translate(raw)
	if terr != nil {
		return nil, terr
	}
	in, err := w.core.Decode(args)
	if err != nil {
		return nil, w.renameErr(err)
	}
	return in, nil
}

// translate turns the exposed arguments into the core's: names, aliases,
// defaults, fixed values and the entry's transform.
func (w *wrapped) translate(raw json.RawMessage) (json.RawMessage, *tool.Error) {
	if w.e.Params == nil && w.e.Fixed == nil && w.e.Transform == nil {
		return raw, nil
	}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		trimmed = []byte("{}")
	}
	if !json.Valid(trimmed) || trimmed[0] != '{' {
		// Not an object: the core says so in its words.
		return raw, nil
	}
	keys, vals, err := orderedObject(trimmed)
	if err != nil {
		return raw, nil
	}
	args := map[string]json.RawMessage{}
	var order []string
	given := map[string]string{} // core name → exposed name given
	for i, k := range keys {
		name, v := k, vals[i]
		if w.e.Params != nil {
			p, ok := w.byName[k]
			if !ok && w.ignoreUnknown {
				continue
			}
			if !ok {
				return nil, tool.Errorf(tool.InvalidInput, "invalid arguments for %s: unknown parameter %s; the parameters are %s", w.sketch.Name, k, strings.Join(w.exposed, ", "))
			}
			name = p.core()
			if terr := w.checkEnum(p, name, v); terr != nil {
				return nil, terr
			}
			if prev, dup := given[name]; dup {
				if bytes.Equal(args[name], v) {
					continue
				}
				return nil, tool.Errorf(tool.InvalidInput, "invalid arguments for %s: %s and %s name the same parameter and have different values; give only %s", w.sketch.Name, prev, k, p.Name)
			}
			given[name] = k
			if len(p.Items) > 0 {
				var terr *tool.Error
				if v, terr = w.renameItems(v, p); terr != nil {
					return nil, terr
				}
			}
		}
		if _, seen := args[name]; !seen {
			order = append(order, name)
		}
		args[name] = v
	}
	for _, p := range w.e.Params {
		if _, ok := args[p.core()]; ok || p.Default == nil {
			continue
		}
		b, _ := json.Marshal(p.Default)
		args[p.core()] = b
		order = append(order, p.core())
	}
	for _, k := range sortedKeys(w.e.Fixed) {
		b, _ := json.Marshal(w.e.Fixed[k])
		if _, ok := args[k]; !ok {
			order = append(order, k)
		}
		args[k] = b
	}
	if w.e.Transform != nil {
		if terr := w.e.Transform(args); terr != nil {
			return nil, terr
		}
		for k := range args {
			if !slices.Contains(order, k) {
				order = append(order, k)
			}
		}
	}
	var ks []string
	var vs []json.RawMessage
	for _, k := range order {
		if v, ok := args[k]; ok {
			ks = append(ks, k)
			vs = append(vs, v)
		}
	}
	return writeObject(ks, vs), nil
}

func sortedKeys(m map[string]any) []string {
	ks := slices.Collect(maps.Keys(m))
	sort.Strings(ks)
	return ks
}

// renameItems renames the keys of the objects of an array argument;
// other values pass unchanged for the core to refuse.
func (w *wrapped) renameItems(v json.RawMessage, p Param) (json.RawMessage, *tool.Error) {
	var elems []json.RawMessage
	if json.Unmarshal(v, &elems) != nil {
		return v, nil
	}
	names := map[string]string{}
	var exposed []string
	for _, it := range p.Items {
		names[it.Name] = it.core()
		exposed = append(exposed, it.Name)
		for _, a := range it.Aliases {
			names[a] = it.core()
		}
	}
	sort.Strings(exposed)
	var b bytes.Buffer
	b.WriteByte('[')
	for i, el := range elems {
		if i > 0 {
			b.WriteByte(',')
		}
		el = bytes.TrimSpace(el)
		if keys, vals, err := orderedObject(el); err == nil {
			for j, k := range keys {
				if _, ok := names[k]; !ok {
					return nil, tool.Errorf(tool.InvalidInput, "invalid arguments for %s: unknown parameter %s in %s[%d]; the parameters are %s", w.sketch.Name, k, p.Name, i, strings.Join(exposed, ", "))
				}
				for _, it := range p.Items {
					if it.Name == k {
						if terr := w.checkEnum(it, fmt.Sprintf("%s[%d].%s", p.core(), i, it.core()), vals[j]); terr != nil {
							return nil, terr
						}
					}
				}
			}
		}
		b.Write(renameKeys(el, names))
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// checkEnum refuses a value that the enum the profile adds to a
// parameter's schema does not allow, as the schema check does: an
// INVALID_INPUT whose Problem (NotAllowed at the core path at) profiles
// render. The core tools accept wider values (or check them in their own
// words), so the exposed schema is enforced here.
func (w *wrapped) checkEnum(p Param, at string, v json.RawMessage) *tool.Error {
	enum, ok := w.enums[p.Schema]
	if !ok {
		return nil
	}
	var want []string
	for _, e := range enum {
		if bytes.Equal(e, bytes.TrimSpace(v)) {
			return nil
		}
		want = append(want, string(e))
	}
	pr := &tool.Problem{Kind: tool.NotAllowed, At: at, Value: v, Want: want}
	return tool.ProblemError(w.core.Info().Name, pr).Reword(w)
}

// addEnums parses the enums the parameters' Schema keywords add.
func (w *wrapped) addEnums(ps []Param) {
	for _, p := range ps {
		var kw struct {
			Enum []json.RawMessage `json:"enum"`
		}
		if p.Schema != "" && json.Unmarshal([]byte(p.Schema), &kw) == nil && kw.Enum != nil {
			for i := range kw.Enum {
				kw.Enum[i] = bytes.TrimSpace(kw.Enum[i])
			}
			w.enums[p.Schema] = kw.Enum
		}
		w.addEnums(p.Items)
	}
}

// renameErr speaks of the tool and its parameters by their exposed names,
// from the error's structured names (tool.Param, tool.ToolName, Problem),
// never by editing its text.
func (w *wrapped) renameErr(err error) error {
	return tool.AsError(err).Reword(w)
}

// Tool returns the exposed name of the core tool w wraps.
func (w *wrapped) Tool(core string) string {
	if core == w.core.Info().Name {
		return w.sketch.Name
	}
	return core
}

// Param returns the exposed form of a core parameter path such as
// "edits[0].old_str".
func (w *wrapped) Param(core string) string { return w.e.Param(core) }

// Param returns the exposed form of a core parameter path such as
// "edits[0].old_str".
func (e Entry) Param(core string) string {
	if e.Params == nil {
		return core
	}
	params := e.Params
	var b strings.Builder
	for i, seg := range strings.Split(core, ".") {
		name, index, _ := strings.Cut(seg, "[")
		if index != "" {
			index = "[" + index
		}
		var found *Param
		for j := range params {
			if params[j].core() == name {
				found = &params[j]
				break
			}
		}
		if i > 0 {
			b.WriteByte('.')
		}
		if found == nil {
			b.WriteString(seg)
			params = nil
			continue
		}
		b.WriteString(found.Name + index)
		params = found.Items
	}
	return b.String()
}

func (w *wrapped) ConcurrencySafe(in any) bool { return w.core.ConcurrencySafe(in) }

func (w *wrapped) Resolve(ctx context.Context, env *tool.Env, in any) (any, error) {
	in, err := w.core.Resolve(ctx, env, in)
	if err != nil {
		return nil, w.renameErr(err)
	}
	return in, nil
}

func (w *wrapped) Validate(ctx context.Context, env *tool.Env, in any) (any, error) {
	in, err := w.core.Validate(ctx, env, in)
	if err != nil {
		return nil, w.renameErr(err)
	}
	return in, nil
}

func (w *wrapped) Run(ctx context.Context, env *tool.Env, in any) (any, error) {
	out, err := w.core.Run(ctx, env, in)
	if err != nil {
		var te *tool.Error
		if !asToolError(err, &te) {
			return nil, err
		}
		return nil, w.renameErr(te)
	}
	if !w.carry {
		return out, nil
	}
	return &carrier{in: in, out: out, limit: w.core.Info().MaxResultChars}, nil
}

// asToolError reports whether err is a *tool.Error itself (a wrapped one,
// such as a cancellation, is left to the executor).
func asToolError(err error, te **tool.Error) bool {
	e, ok := err.(*tool.Error)
	if ok {
		*te = e
	}
	return ok
}
