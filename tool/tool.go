package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// Tool is a callable tool as the executor sees it. Build one with [New];
// profiles wrap one to rename it and its parameters.
type Tool interface {
	// Info returns the tool's name, description, schemas and metadata.
	Info() Info
	// Decode checks raw arguments against the input schema and decodes them
	// into the tool's input value. A failure is an INVALID_INPUT *Error.
	Decode(raw json.RawMessage) (any, error)
	// ConcurrencySafe reports whether this input may run beside other safe
	// calls.
	ConcurrencySafe(in any) bool
	// Resolve settles what the input names in the session (paths against
	// the working directory and the roots) and returns the input every
	// later stage sees, so that permission rules and hooks match resolved
	// paths. It runs when the call runs, not when it is decoded.
	Resolve(ctx context.Context, env *Env, in any) (any, error)
	// Validate runs the tool's own checks (read before edit, sane line
	// range) before anything is changed, and returns the input to execute
	// (it may carry what the checks loaded).
	Validate(ctx context.Context, env *Env, in any) (any, error)
	// Run executes the call and returns the tool's output value.
	Run(ctx context.Context, env *Env, in any) (any, error)
}

// Info describes a tool to hosts and models.
type Info struct {
	Name        string
	Title       string
	Description string
	// InputSchema and OutputSchema are JSON Schema documents.
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
	// ReadOnly reports that the tool changes nothing.
	ReadOnly bool
	// Destructive reports that the tool may overwrite or delete data.
	Destructive bool
	// Idempotent reports that repeating a call has no further effect.
	Idempotent bool
	// OpenWorld reports that the tool reaches beyond the roots (network,
	// arbitrary processes).
	OpenWorld bool
	// MaxResultChars is the largest text result shown to the model before it
	// is cut and saved to a file; 0 means the executor's default.
	MaxResultChars int
	// Core names the core tool a profile exposes under Name ("" for a tool
	// that is no core tool), so that permission rules match the core tool
	// whichever profile names it.
	Core string
	// AsksUser reports that the tool itself puts its call to the user
	// (a plan to approve, questions to answer): a policy's Ask is answered
	// by that prompt rather than by a second one before it, as Claude
	// Code's ExitPlanMode and AskUserQuestion dialogs are their permission
	// prompts. A Deny still refuses the call.
	AsksUser bool
}

// Spec declares a tool with input type In.
type Spec[In any] struct {
	Name        string
	Title       string
	Description string
	ReadOnly    bool
	Destructive bool
	Idempotent  bool
	OpenWorld   bool
	// AsksUser: see Info.AsksUser.
	AsksUser bool
	// ConcurrencySafe decides per input whether the call may run in parallel
	// with other safe calls; nil means ReadOnly decides.
	ConcurrencySafe func(In) bool
	// Resolve settles what the input names in the session (see
	// Tool.Resolve); nil keeps the input as decoded.
	Resolve func(ctx context.Context, env *Env, in In) (In, error)
	// Validate is the tool's own validation stage, after permissions; it
	// returns the input to execute. nil accepts everything.
	Validate func(ctx context.Context, env *Env, in In) (In, error)
	// MaxResultChars bounds the text shown to the model; 0 is the default.
	MaxResultChars int
	// Enums lists the values a string parameter may take, by parameter
	// path ("output_mode", or "todos[].status" for a field of an array's
	// elements), so that the schema shows the closed set.
	Enums map[string][]string
}

// ValidName reports whether name is acceptable as a tool name: a letter, then
// up to 63 letters, digits, '_' or '-' (the rule of every major model API).
// Every start checks every tool's name, so this is a loop rather than a
// regexp, whose bounded repetition compiles to some 800 allocations.
func ValidName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for i, c := range []byte(name) {
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && (i == 0 || !('0' <= c && c <= '9' || c == '_' || c == '-')) {
			return false
		}
	}
	return true
}

type typed[In, Out any] struct {
	spec Spec[In]
	// sketch is the Info without its schemas; full builds the schemas
	// (inferred from In and Out, then encoded) at the first Info, since a
	// server lists its tools once and most are never called.
	sketch Info
	full   func() built
	// valid checks arguments; it is compiled at the first call, not at
	// start-up, since most tools of a runtime are never called.
	valid func() (*validator, error)
	run   func(context.Context, *Env, In) (Out, error)
}

// built is what a typed tool's schemas are built into.
type built struct {
	in   *jsonschema.Schema
	info Info
}

// New declares a tool whose input and output JSON schemas are inferred from
// In and Out (struct fields with `json` and `jsonschema` tags) at its first
// Info, not here: Sketch tells the rest at no cost. It panics on an invalid
// name or a type that is no struct here, and on a struct that has no schema
// at the first Info: all are programming mistakes, the last found by any
// test that lists the tool.
func New[In, Out any](spec Spec[In], run func(ctx context.Context, env *Env, in In) (Out, error)) Tool {
	if !ValidName(spec.Name) {
		panic(fmt.Sprintf("tool: invalid tool name %q", spec.Name))
	}
	if run == nil {
		panic(fmt.Sprintf("tool %s: nil run function", spec.Name))
	}
	// What a schema would say of the types is checked here, at no cost.
	if k := reflect.TypeFor[In]().Kind(); k != reflect.Struct {
		panic(fmt.Sprintf("tool %s: input must be a struct, not %s", spec.Name, reflect.TypeFor[In]()))
	}
	if ot := structOf(reflect.TypeFor[Out]()); ot.Kind() != reflect.Struct {
		panic(fmt.Sprintf("tool %s: output must be a struct, not %s", spec.Name, ot))
	}
	t := &typed[In, Out]{spec: spec, run: run}
	t.sketch = Info{
		Name: spec.Name, Title: spec.Title, Description: spec.Description,
		ReadOnly: spec.ReadOnly, Destructive: spec.Destructive,
		Idempotent: spec.Idempotent, OpenWorld: spec.OpenWorld, AsksUser: spec.AsksUser,
		MaxResultChars: spec.MaxResultChars,
	}
	t.full = sync.OnceValue(func() built { return buildSchemas[In, Out](spec, t.sketch) })
	t.valid = sync.OnceValues(func() (*validator, error) {
		// The validator checks a copy of the schema without the enums.
		s := t.full().in.CloneSchemas()
		for path := range spec.Enums {
			property(s, path).Enum = nil
		}
		return compile(spec.Name, s)
	})
	return t
}

// buildSchemas infers a tool's schemas and returns them with sketch
// completed by their JSON.
func buildSchemas[In, Out any](spec Spec[In], sketch Info) built {
	in, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", spec.Name, err))
	}
	if in.Type != "object" {
		panic(fmt.Sprintf("tool %s: input must be a struct, not %s", spec.Name, reflect.TypeFor[In]()))
	}
	plainTypes(in)
	// Enums show the closed sets in the schema; the tool's own validation
	// refuses other values with its own code and message.
	for path, values := range spec.Enums {
		p := property(in, path)
		if p == nil || p.Type != "string" {
			panic(fmt.Sprintf("tool %s: enum for %q, which is not a string parameter", spec.Name, path))
		}
		for _, v := range values {
			p.Enum = append(p.Enum, v)
		}
	}
	ot := structOf(reflect.TypeFor[Out]())
	out, err := jsonschema.ForType(ot, nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: output schema: %v", spec.Name, err))
	}
	if out.Type != "object" {
		panic(fmt.Sprintf("tool %s: output must be a struct, not %s", spec.Name, ot))
	}
	sketch.InputSchema, sketch.OutputSchema = mustJSON(in), mustJSON(out)
	return built{in: in, info: sketch}
}

// structOf returns t without its pointers: a pointer output is never nil on
// success, so its schema is its element's (and MCP requires an object).
func structOf(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

func mustJSON(s *jsonschema.Schema) json.RawMessage {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return b
}

func (t *typed[In, Out]) Info() Info { return t.full().info }

// Sketch implements [Sketcher].
func (t *typed[In, Out]) Sketch() Info { return t.sketch }

func (t *typed[In, Out]) Decode(raw json.RawMessage) (any, error) {
	args, p := parseArgs(raw)
	if p == nil {
		valid, err := t.valid()
		if err != nil {
			return nil, Errorf(InvalidInput, "the input schema of %s does not compile: %v", ToolName(t.spec.Name), err)
		}
		p = valid.check(args)
	}
	if p != nil {
		return nil, ProblemError(t.spec.Name, p)
	}
	var in In
	if err := json.Unmarshal(mustMarshal(args), &in); err != nil {
		return nil, Errorf(InvalidInput, "arguments of %s: %v", ToolName(t.spec.Name), err)
	}
	return in, nil
}

// ProblemError is the INVALID_INPUT error of a call to the tool named name
// (its core name) whose arguments a schema refused for p.
func ProblemError(name string, p *Problem) *Error {
	format := "invalid arguments for %s: %s"
	if p.Kind == NotJSON || p.Kind == NotObject {
		format = "arguments of %s %s"
	}
	e := Errorf(InvalidInput, format, ToolName(name), p)
	e.Problem = p
	return e
}

func (t *typed[In, Out]) ConcurrencySafe(in any) bool {
	v, ok := in.(In)
	if !ok {
		return false
	}
	if t.spec.ConcurrencySafe != nil {
		return t.spec.ConcurrencySafe(v)
	}
	return t.spec.ReadOnly
}

func (t *typed[In, Out]) Resolve(ctx context.Context, env *Env, in any) (any, error) {
	return t.stage(ctx, env, in, t.spec.Resolve)
}

func (t *typed[In, Out]) Validate(ctx context.Context, env *Env, in any) (any, error) {
	return t.stage(ctx, env, in, t.spec.Validate)
}

func (t *typed[In, Out]) stage(ctx context.Context, env *Env, in any, f func(context.Context, *Env, In) (In, error)) (any, error) {
	if f == nil {
		return in, nil
	}
	v, ok := in.(In)
	if !ok {
		return nil, Errorf(InternalError, "%s: input of type %T, want %s", t.spec.Name, in, reflect.TypeFor[In]())
	}
	v, err := f(ctx, env, v)
	if isErr(err) {
		return nil, err
	}
	return v, nil
}

// isErr reports whether err is an error, taking a nil *Error returned as an
// error interface for none.
func isErr(err error) bool {
	if te, ok := err.(*Error); ok {
		return te != nil
	}
	return err != nil
}

func (t *typed[In, Out]) Run(ctx context.Context, env *Env, in any) (any, error) {
	v, ok := in.(In)
	if !ok {
		return nil, Errorf(InternalError, "%s: input of type %T, want %s", t.spec.Name, in, reflect.TypeFor[In]())
	}
	out, err := t.run(ctx, env, v)
	if isErr(err) {
		return nil, err
	}
	return out, nil
}

// Pather is implemented by the inputs of tools that name files: once the
// resolve stage ran, Paths returns those files as absolute paths inside the
// roots, symbolic links followed, for permission rules and hooks to match.
type Pather interface {
	Paths() []string
}

// plainTypes gives every optional parameter its plain type: Go pointers and
// slices infer as ["null", T], which some clients then send as strings;
// optional means "not required", and a null sent for it counts as absent.
func plainTypes(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	for _, p := range s.Properties {
		plainTypes(p)
	}
	plainTypes(s.Items)
}

// property returns the schema of the parameter at path ("a", "a[].b").
func property(s *jsonschema.Schema, path string) *jsonschema.Schema {
	for _, seg := range strings.Split(path, ".") {
		name, items := strings.CutSuffix(seg, "[]")
		if s = s.Properties[name]; s == nil {
			return nil
		}
		if items {
			s = s.Items
		}
	}
	return s
}

// Commander is implemented by the inputs of tools that run a shell command
// line, for permission rules to match the command.
type Commander interface {
	ShellCommand() string
}
