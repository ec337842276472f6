package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// DefaultMaxResultChars bounds a result's text when its tool sets no bound.
const DefaultMaxResultChars = 30000

// Decision is a policy's answer for one call.
type Decision int

// The decisions a Policy can give.
const (
	Allow Decision = iota
	Deny
	Ask
)

// Policy is the permissions stage: it sees the decoded input and decides.
type Policy interface {
	Check(ctx context.Context, info Info, call Call, in any) (Decision, string)
}

// PolicyFunc adapts a function to Policy.
type PolicyFunc func(ctx context.Context, info Info, call Call, in any) (Decision, string)

// Check calls f.
func (f PolicyFunc) Check(ctx context.Context, info Info, call Call, in any) (Decision, string) {
	return f(ctx, info, call, in)
}

// Handler runs one call through the pipeline.
type Handler func(ctx context.Context, env *Env, call Call) Result

// Middleware wraps the pipeline of each call, for logging, metrics or
// rewriting results.
type Middleware func(next Handler) Handler

// PreToolUse runs after validation and before execution. It may block the
// call (Block true, with Reason) or replace its input (Input non-nil), which
// is decoded, resolved, permitted and validated again.
type PreToolUse func(ctx context.Context, env *Env, info Info, call Call) HookDecision

// HookDecision is a PreToolUse hook's answer.
type HookDecision struct {
	Block  bool
	Reason string
	Input  json.RawMessage
}

// PostToolUse runs after a call succeeded; PostToolUseFailure after it
// failed. Both see the mapped result and may change it.
type (
	PostToolUse        func(ctx context.Context, env *Env, info Info, call Call, res *Result)
	PostToolUseFailure func(ctx context.Context, env *Env, info Info, call Call, res *Result)
)

// Hooks are the Go functions run around execution.
type Hooks struct {
	PreToolUse         []PreToolUse
	PostToolUse        []PostToolUse
	PostToolUseFailure []PostToolUseFailure
}

// EventKind says what an Event reports.
type EventKind int

// The events an executor reports.
const (
	EventStart EventKind = iota // execution of a call begins
	EventEnd                    // execution of a call ended
)

// Event reports progress of a call, for tests and instrumentation.
type Event struct {
	Kind   EventKind
	CallID string
	Tool   string
}

// Executor runs calls through the pipeline. Its fields are read-only once
// calls start.
type Executor struct {
	// Registry holds the tools.
	Registry *Registry
	// Disabled names tools that are registered but switched off.
	Disabled map[string]bool
	// Policy is the permissions stage; nil allows everything.
	Policy Policy
	// Ask answers an Ask decision (in MCP, an elicitation); nil denies.
	Ask func(ctx context.Context, info Info, call Call, reason string) (bool, error)
	// Hooks run around execution.
	Hooks Hooks
	// Middleware wraps the whole pipeline of every call, outermost first.
	Middleware []Middleware
	// Render turns a tool's output or error into content (the profile's
	// rendering); nil uses the output's own Content or its JSON.
	Render func(info Info, res *Result, out any)
	// Save keeps the whole text of an oversized result and returns the path
	// the model is told; nil only cuts.
	Save func(callID, text string) (string, error)
	// Observe receives start and end events.
	Observe func(Event)
	// Parallel bounds concurrent safe calls; 0 means GOMAXPROCS×2.
	Parallel int
}

// Execute runs one call through every stage and returns its result. The
// tool's failures are results; only a nil executor panics.
func (e *Executor) Execute(ctx context.Context, env *Env, call Call) Result {
	h := e.pipeline
	for i := len(e.Middleware) - 1; i >= 0; i-- {
		h = e.Middleware[i](h)
	}
	start := time.Now()
	res := h(ctx, e.callEnv(ctx, env, call), call)
	res.CallID, res.Tool = call.ID, call.Name
	res.Duration = time.Since(start)
	return res
}

func (e *Executor) callEnv(ctx context.Context, env *Env, call Call) *Env {
	c := Env{}
	if env != nil {
		c = *env
	}
	c.CallID = call.ID
	c.Progress = progressOf(ctx, &c, call)
	return &c
}

// pipeline is the five stages in order.
func (e *Executor) pipeline(ctx context.Context, env *Env, call Call) Result {
	t, err := e.enabled(call)
	if err != nil {
		return ErrorResult(call, err)
	}
	info := t.Info()
	in, err := decodeOnce(ctx, t, call)
	if err == nil {
		in, err = e.admit(ctx, env, t, call, in)
	}
	if err == nil {
		in, call, err = e.preToolUse(ctx, env, t, call, in)
	}
	if err != nil {
		return e.mapResult(info, call, nil, err)
	}
	out, err := e.execute(ctx, env, t, call, in)
	res := e.mapResult(info, call, out, err)
	e.postToolUse(ctx, env, info, call, &res)
	return res
}

// enabled is stage one: the tool exists and is switched on.
func (e *Executor) enabled(call Call) (Tool, *Error) {
	t, ok := e.Registry.Get(call.Name)
	if !ok || e.Disabled[call.Name] {
		return nil, Errorf(UnknownTool, "no tool named %q; available tools: %s", call.Name, strings.Join(e.available(), ", "))
	}
	return t, nil
}

func (e *Executor) available() []string {
	var names []string
	for _, n := range e.Registry.Names() {
		if !e.Disabled[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// decode is stage two: arguments decoded into the tool's input and checked
// against its schema, before anyone is asked about the call.
func decode(t Tool, raw json.RawMessage) (any, *Error) {
	in, err := t.Decode(raw)
	if err != nil {
		return nil, AsError(err)
	}
	return in, nil
}

// decodedKey carries a call already decoded (for its concurrency decision)
// to the pipeline, so that the arguments are decoded once.
type decodedKey struct{}

// decoded is a call's input as the concurrency decision decoded it.
type decoded struct {
	name string
	raw  json.RawMessage
	in   any
	err  *Error
}

// decodeOnce returns the decoded input of call: the one the stream decoded
// for its concurrency decision when it is for this very call (a middleware
// may have changed the call), else a fresh decode.
func decodeOnce(ctx context.Context, t Tool, call Call) (any, *Error) {
	if d, ok := ctx.Value(decodedKey{}).(*decoded); ok && d.name == call.Name && bytes.Equal(d.raw, call.Input) {
		return d.in, d.err
	}
	return decode(t, call.Input)
}

// permit is stage three: the policy allows, denies or asks the host.
func (e *Executor) permit(ctx context.Context, info Info, call Call, in any) *Error {
	if e.Policy == nil {
		return nil
	}
	d, reason := e.Policy.Check(ctx, info, call, in)
	switch d {
	case Allow:
		return nil
	case Ask:
		if info.AsksUser {
			return nil // the tool's own prompt to the user is the ask
		}
		if e.Ask != nil {
			ok, err := e.Ask(ctx, info, call, reason)
			if err == nil && ok {
				return nil
			}
			if err != nil {
				return Errorf(PermissionDenied, "%s needs permission (%s) and the host could not be asked: %v", call.Name, reason, err)
			}
		}
		return Errorf(PermissionDenied, "%s was not permitted: %s", call.Name, orDefault(reason, "the user declined"))
	default:
		return Errorf(PermissionDenied, "%s is denied by policy: %s", call.Name, orDefault(reason, "no reason given"))
	}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// admit takes a decoded input through resolution, the permissions stage
// and the validation stage, and returns the input to execute: the input
// the permission decision was about, resolved and checked.
func (e *Executor) admit(ctx context.Context, env *Env, t Tool, call Call, in any) (any, *Error) {
	in, err := stage(ctx, env, t, in, t.Resolve)
	if err != nil {
		return nil, err
	}
	if err := e.permit(ctx, t.Info(), call, in); err != nil {
		return nil, err
	}
	return stage(ctx, env, t, in, t.Validate)
}

// stage runs one of the tool's stages; a panic is an INTERNAL_ERROR.
func stage(ctx context.Context, env *Env, t Tool, in any, f func(context.Context, *Env, any) (any, error)) (out any, err *Error) {
	defer recoverInto(t.Info().Name, &err)
	out, ferr := f(ctx, env, in)
	if ferr != nil {
		return nil, AsError(ferr)
	}
	return out, nil
}

func (e *Executor) preToolUse(ctx context.Context, env *Env, t Tool, call Call, in any) (any, Call, *Error) {
	for _, h := range e.Hooks.PreToolUse {
		d := h(ctx, env, t.Info(), call)
		if d.Block {
			return nil, call, Errorf(PermissionDenied, "%s was blocked by a hook: %s", call.Name, orDefault(d.Reason, "no reason given"))
		}
		if d.Input != nil {
			// The new input is decoded, resolved, permitted and validated
			// as if the model had sent it: the permission decision is
			// about the arguments that run.
			call.Input = d.Input
			var err *Error
			if in, err = decode(t, call.Input); err != nil {
				return nil, call, err
			}
			if in, err = e.admit(ctx, env, t, call, in); err != nil {
				return nil, call, err
			}
		}
	}
	return in, call, nil
}

// execute is stage five: the tool runs under ctx; a panic becomes an
// INTERNAL_ERROR and cancellation a CANCELED error.
func (e *Executor) execute(ctx context.Context, env *Env, t Tool, call Call, in any) (out any, err *Error) {
	if e.Observe != nil {
		e.Observe(Event{Kind: EventStart, CallID: call.ID, Tool: call.Name})
		defer e.Observe(Event{Kind: EventEnd, CallID: call.ID, Tool: call.Name})
	}
	if cerr := ctx.Err(); cerr != nil {
		return nil, canceled(call, cerr)
	}
	defer recoverInto(call.Name, &err)
	o, rerr := t.Run(ctx, env, in)
	if rerr != nil {
		var te *Error
		if !errors.As(rerr, &te) && ctx.Err() != nil {
			return nil, canceled(call, ctx.Err())
		}
		return nil, AsError(rerr)
	}
	return o, nil
}

func canceled(call Call, cause error) *Error {
	if errors.Is(cause, context.DeadlineExceeded) {
		return &Error{Code: Canceled, Message: call.Name + " ran out of time before it finished", Err: cause}
	}
	return &Error{Code: Canceled, Message: call.Name + " was cancelled before it finished", Err: cause}
}

func recoverInto(name string, err **Error) {
	if r := recover(); r != nil {
		*err = &Error{
			Code:    InternalError,
			Message: fmt.Sprintf("%s failed unexpectedly (%v); this is a bug in the tool, not in your input — try another approach", name, r),
			Err:     fmt.Errorf("panic: %v\n%s", r, debug.Stack()),
		}
	}
}

// mapResult is the last stage: output or error to content, through the
// profile's renderer, cut to the tool's size bound.
func (e *Executor) mapResult(info Info, call Call, out any, err *Error) Result {
	var res Result
	if err != nil {
		res = ErrorResult(call, err)
	} else {
		res = Result{CallID: call.ID, Tool: call.Name, Structured: structuredOf(out), Content: defaultContent(out)}
	}
	if e.Render != nil {
		e.Render(info, &res, out)
	}
	e.bound(info, call, &res)
	return res
}

func defaultContent(out any) []Content {
	if c, ok := out.(Contenter); ok {
		return c.Content()
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return []Content{Text(fmt.Sprint(out))}
	}
	return []Content{Text(string(b))}
}

// bound cuts text content over the tool's limit, saving the whole.
func (e *Executor) bound(info Info, call Call, res *Result) {
	limit := info.MaxResultChars
	if limit <= 0 {
		limit = DefaultMaxResultChars
	}
	for i, c := range res.Content {
		if c.Type != "text" || utf8.RuneCountInString(c.Text) <= limit {
			continue
		}
		total := utf8.RuneCountInString(c.Text)
		cut := c.Text[:runeOffset(c.Text, limit)]
		note := fmt.Sprintf("\n\n[result cut: showing %d of %d characters", limit, total)
		if e.Save != nil {
			if path, err := e.Save(call.ID, c.Text); err == nil {
				note += "; the whole result is saved in " + path + " — read it in parts with offset and limit"
			}
		}
		res.Content[i].Text = cut + note + "]"
	}
}

func runeOffset(s string, n int) int {
	i := 0
	for j := range s {
		if i == n {
			return j
		}
		i++
	}
	return len(s)
}

func (e *Executor) postToolUse(ctx context.Context, env *Env, info Info, call Call, res *Result) {
	if res.IsError {
		for _, h := range e.Hooks.PostToolUseFailure {
			h(ctx, env, info, call, res)
		}
		return
	}
	for _, h := range e.Hooks.PostToolUse {
		h(ctx, env, info, call, res)
	}
}

// concurrencySafe reports whether call may run beside other safe calls. A
// call that does not decode is safe: it fails without touching anything.
// The decoded input is returned for the pipeline to reuse.
func (e *Executor) concurrencySafe(call Call) (safe bool, d *decoded) {
	t, err := e.enabled(call)
	if err != nil {
		return true, nil
	}
	in, derr := decode(t, call.Input)
	d = &decoded{name: call.Name, raw: call.Input, in: in, err: derr}
	if derr != nil {
		return true, d
	}
	defer func() {
		if recover() != nil {
			safe = false
		}
	}()
	return t.ConcurrencySafe(in), d
}

func (e *Executor) parallel() int {
	if e.Parallel > 0 {
		return e.Parallel
	}
	return runtime.GOMAXPROCS(0) * 2
}
