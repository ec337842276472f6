package tool_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hands-dev/hands/tool"
)

type echoIn struct {
	Text  string `json:"text" jsonschema:"what to echo"`
	Count int    `json:"count,omitzero" jsonschema:"how many times"`
}

type echoOut struct {
	Echo string `json:"echo"`
}

func (o echoOut) Content() []tool.Content { return []tool.Content{tool.Text(o.Echo)} }

// reportingEcho is an echo tool that sends its text on started as it
// starts and then, if release is not nil, waits for release to close.
func reportingEcho(name string, readOnly bool, started chan<- string, release <-chan struct{}) tool.Tool {
	return echoTool(name, readOnly, func(_ context.Context, in echoIn) (echoOut, error) {
		started <- in.Text
		if release != nil {
			<-release
		}
		return echoOut{Echo: in.Text}, nil
	})
}

func echoTool(name string, readOnly bool, run func(ctx context.Context, in echoIn) (echoOut, error)) tool.Tool {
	if run == nil {
		run = func(_ context.Context, in echoIn) (echoOut, error) { return echoOut{Echo: in.Text}, nil }
	}
	return tool.New(tool.Spec[echoIn]{
		Name: name, Description: "echo", ReadOnly: readOnly,
		Validate: func(_ context.Context, _ *tool.Env, in echoIn) (echoIn, error) {
			if in.Text == "invalid" {
				return in, tool.Errorf(tool.InvalidInput, "text %q is not allowed", in.Text)
			}
			return in, nil
		},
	}, func(ctx context.Context, _ *tool.Env, in echoIn) (echoOut, error) { return run(ctx, in) })
}

func call(name, input string) tool.Call {
	return tool.Call{ID: name + "-" + input, Name: name, Input: json.RawMessage(input)}
}

func TestPipelineStagesInOrder(t *testing.T) {
	var stages []string
	reg := tool.NewRegistry(echoTool("echo", true, func(_ context.Context, in echoIn) (echoOut, error) {
		stages = append(stages, "execute")
		return echoOut{Echo: in.Text}, nil
	}))
	e := &tool.Executor{
		Registry: reg,
		Policy: tool.PolicyFunc(func(_ context.Context, _ tool.Info, _ tool.Call, in any) (tool.Decision, string) {
			stages = append(stages, fmt.Sprintf("permissions(%s)", in.(echoIn).Text))
			if in.(echoIn).Text == "secret" {
				return tool.Deny, "secrets are off limits"
			}
			return tool.Allow, ""
		}),
	}
	ctx := context.Background()

	res := e.Execute(ctx, nil, call("echo", `{"text":"hi"}`))
	if res.IsError || res.TextOf() != "hi" {
		t.Fatalf("got %+v", res)
	}
	if got := strings.Join(stages, ","); got != "permissions(hi),execute" {
		t.Errorf("stages = %s", got)
	}

	stages = nil
	res = e.Execute(ctx, nil, call("echo", `{"text":5}`))
	if res.Code != tool.InvalidInput || len(stages) != 0 {
		t.Errorf("a malformed call must fail at decode before permissions: %+v, stages %v", res, stages)
	}
	if !strings.HasPrefix(res.TextOf(), "[INVALID_INPUT] ") {
		t.Errorf("error text %q must start with the code", res.TextOf())
	}

	res = e.Execute(ctx, nil, call("echo", `{}`))
	if res.Code != tool.InvalidInput || !strings.Contains(res.TextOf(), "text") {
		t.Errorf("missing required property: %+v", res)
	}

	res = e.Execute(ctx, nil, call("echo", `{"text":"secret"}`))
	if res.Code != tool.PermissionDenied || !strings.Contains(res.TextOf(), "secrets are off limits") {
		t.Errorf("denied: %+v", res)
	}

	stages = nil
	res = e.Execute(ctx, nil, call("echo", `{"text":"invalid"}`))
	if res.Code != tool.InvalidInput || strings.Join(stages, ",") != "permissions(invalid)" {
		t.Errorf("validation after permissions, before execution: %+v %v", res, stages)
	}

	res = e.Execute(ctx, nil, call("nope", `{}`))
	if res.Code != tool.UnknownTool || !strings.Contains(res.TextOf(), "echo") {
		t.Errorf("unknown tool must name the available ones: %+v", res)
	}
	e.Disabled = map[string]bool{"echo": true}
	if res := e.Execute(ctx, nil, call("echo", `{"text":"x"}`)); res.Code != tool.UnknownTool {
		t.Errorf("disabled tool: %+v", res)
	}
}

func TestAskGoesToTheHost(t *testing.T) {
	e := &tool.Executor{
		Registry: tool.NewRegistry(echoTool("echo", true, nil)),
		Policy: tool.PolicyFunc(func(context.Context, tool.Info, tool.Call, any) (tool.Decision, string) {
			return tool.Ask, "echo needs approval"
		}),
	}
	if res := e.Execute(context.Background(), nil, call("echo", `{"text":"a"}`)); res.Code != tool.PermissionDenied {
		t.Errorf("ask without a host must deny: %+v", res)
	}
	var asked string
	e.Ask = func(_ context.Context, _ tool.Info, _ tool.Call, reason string) (bool, error) {
		asked = reason
		return true, nil
	}
	if res := e.Execute(context.Background(), nil, call("echo", `{"text":"a"}`)); res.IsError || asked != "echo needs approval" {
		t.Errorf("approved call: %+v asked %q", res, asked)
	}
}

func TestPanicBecomesInternalError(t *testing.T) {
	e := &tool.Executor{Registry: tool.NewRegistry(echoTool("boom", false, func(context.Context, echoIn) (echoOut, error) {
		panic("kaboom")
	}))}
	var failures int
	e.Hooks.PostToolUseFailure = []tool.PostToolUseFailure{func(context.Context, *tool.Env, tool.Info, tool.Call, *tool.Result) { failures++ }}
	res := e.Execute(context.Background(), nil, call("boom", `{"text":"x"}`))
	if res.Code != tool.InternalError || !strings.HasPrefix(res.TextOf(), "[INTERNAL_ERROR] ") || !strings.Contains(res.TextOf(), "kaboom") {
		t.Errorf("got %+v", res)
	}
	if failures != 1 {
		t.Errorf("PostToolUseFailure ran %d times", failures)
	}
	// The executor is still usable.
	if res := e.Execute(context.Background(), nil, call("boom", `{"text":5}`)); res.Code != tool.InvalidInput {
		t.Errorf("after a panic: %+v", res)
	}
}

func TestCancellationReachesTheTool(t *testing.T) {
	started := make(chan struct{})
	e := &tool.Executor{Registry: tool.NewRegistry(echoTool("wait", true, func(ctx context.Context, _ echoIn) (echoOut, error) {
		close(started)
		<-ctx.Done()
		return echoOut{}, ctx.Err()
	}))}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan tool.Result)
	go func() { done <- e.Execute(ctx, nil, call("wait", `{"text":"x"}`)) }()
	<-started
	cancel()
	res := <-done
	if res.Code != tool.Canceled || !errors.Is(res.Err, context.Canceled) {
		t.Errorf("got %+v", res)
	}
}

func TestHooks(t *testing.T) {
	e := &tool.Executor{Registry: tool.NewRegistry(echoTool("echo", true, nil))}
	e.Hooks.PreToolUse = []tool.PreToolUse{func(_ context.Context, _ *tool.Env, _ tool.Info, c tool.Call) tool.HookDecision {
		switch string(c.Input) {
		case `{"text":"block"}`:
			return tool.HookDecision{Block: true, Reason: "not today"}
		case `{"text":"rewrite"}`:
			return tool.HookDecision{Input: json.RawMessage(`{"text":"rewritten"}`)}
		case `{"text":"bad-rewrite"}`:
			return tool.HookDecision{Input: json.RawMessage(`{"text":1}`)}
		}
		return tool.HookDecision{}
	}}
	var post []string
	e.Hooks.PostToolUse = []tool.PostToolUse{func(_ context.Context, _ *tool.Env, _ tool.Info, _ tool.Call, r *tool.Result) {
		post = append(post, r.TextOf())
		r.Content = append(r.Content, tool.Text("(seen by hook)"))
	}}
	ctx := context.Background()
	if res := e.Execute(ctx, nil, call("echo", `{"text":"block"}`)); res.Code != tool.PermissionDenied || !strings.Contains(res.TextOf(), "not today") {
		t.Errorf("block: %+v", res)
	}
	if res := e.Execute(ctx, nil, call("echo", `{"text":"rewrite"}`)); res.TextOf() != "rewritten\n(seen by hook)" {
		t.Errorf("rewrite: %q", res.TextOf())
	}
	if res := e.Execute(ctx, nil, call("echo", `{"text":"bad-rewrite"}`)); res.Code != tool.InvalidInput {
		t.Errorf("a rewritten input is decoded again: %+v", res)
	}
	if len(post) != 1 || post[0] != "rewritten" {
		t.Errorf("PostToolUse saw %q", post)
	}
}

func TestOversizedResultIsCutAndSaved(t *testing.T) {
	big := strings.Repeat("x", 50)
	var saved string
	e := &tool.Executor{
		Registry: tool.NewRegistry(tool.New(tool.Spec[echoIn]{Name: "big", MaxResultChars: 10, ReadOnly: true},
			func(context.Context, *tool.Env, echoIn) (echoOut, error) { return echoOut{Echo: big}, nil })),
		Save: func(id, text string) (string, error) { saved = text; return "/tmp/saved.txt", nil },
	}
	res := e.Execute(context.Background(), nil, call("big", `{"text":"x"}`))
	if !strings.HasPrefix(res.TextOf(), "xxxxxxxxxx\n\n[result cut: showing 10 of 50 characters") || !strings.Contains(res.TextOf(), "/tmp/saved.txt") {
		t.Errorf("got %q", res.TextOf())
	}
	if saved != big {
		t.Errorf("saved %q", saved)
	}
}

func TestMiddlewareWrapsThePipeline(t *testing.T) {
	var order []string
	mw := func(name string) tool.Middleware {
		return func(next tool.Handler) tool.Handler {
			return func(ctx context.Context, env *tool.Env, c tool.Call) tool.Result {
				order = append(order, name+">")
				r := next(ctx, env, c)
				order = append(order, "<"+name)
				return r
			}
		}
	}
	e := &tool.Executor{Registry: tool.NewRegistry(echoTool("echo", true, nil)), Middleware: []tool.Middleware{mw("a"), mw("b")}}
	e.Execute(context.Background(), nil, call("echo", `{"text":"x"}`))
	if got := strings.Join(order, " "); got != "a> b> <b <a" {
		t.Errorf("order %s", got)
	}
}

func TestRegistryPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"invalid name": func() { echoTool("bad name!", true, nil) },
		"duplicate":    func() { tool.NewRegistry(echoTool("a", true, nil), echoTool("a", true, nil)) },
		"non-struct input": func() {
			tool.New(tool.Spec[string]{Name: "s"}, func(context.Context, *tool.Env, string) (echoOut, error) { return echoOut{}, nil })
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// recorder collects executor events.
type recorder struct {
	mu     sync.Mutex
	events []string
}

func (r *recorder) observe(e tool.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	kind := "start"
	if e.Kind == tool.EventEnd {
		kind = "end"
	}
	r.events = append(r.events, kind+":"+e.CallID)
}

func (r *recorder) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.events...)
}

func index(events []string, e string) int {
	for i, x := range events {
		if x == e {
			return i
		}
	}
	return -1
}

// barrierTools returns a safe tool that waits until n calls are inside it
// (proving they overlap) and an unsafe one that records whether any other
// call is running beside it.
func barrierTools(n int) (tool.Tool, tool.Tool, *int32) {
	var mu sync.Mutex
	inside := 0
	all := make(chan struct{})
	var overlapped int32
	safe := echoTool("safe", true, func(ctx context.Context, in echoIn) (echoOut, error) {
		mu.Lock()
		inside++
		if inside == n {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
		case <-time.After(10 * time.Second):
			return echoOut{}, errors.New("safe calls did not overlap")
		}
		mu.Lock()
		inside--
		mu.Unlock()
		return echoOut{Echo: in.Text}, nil
	})
	unsafe := echoTool("unsafe", false, func(ctx context.Context, in echoIn) (echoOut, error) {
		mu.Lock()
		if inside != 0 {
			overlapped++
		}
		mu.Unlock()
		return echoOut{Echo: in.Text}, nil
	})
	return safe, unsafe, &overlapped
}

func TestBatchRunsSafeRunsInParallelAndUnsafeAlone(t *testing.T) {
	safe, unsafe, overlapped := barrierTools(3)
	rec := &recorder{}
	e := &tool.Executor{Registry: tool.NewRegistry(safe, unsafe), Observe: rec.observe}
	calls := []tool.Call{
		call("safe", `{"text":"1"}`), call("safe", `{"text":"2"}`), call("safe", `{"text":"3"}`),
		call("unsafe", `{"text":"4"}`),
		call("unsafe", `{"text":"5"}`),
	}
	res := e.Batch(context.Background(), nil, calls)
	for i, r := range res {
		if r.IsError || r.TextOf() != fmt.Sprint(i+1) || r.CallID != calls[i].ID {
			t.Errorf("result %d: %+v", i, r)
		}
	}
	if *overlapped != 0 {
		t.Errorf("an unsafe call overlapped a safe one")
	}
	ev := rec.list()
	// The three safe calls all started before any ended (the barrier
	// proves it; the events confirm it).
	firstEnd := len(ev)
	for _, c := range calls[:3] {
		firstEnd = min(firstEnd, index(ev, "end:"+c.ID))
	}
	for _, c := range calls[:3] {
		if index(ev, "start:"+c.ID) > firstEnd {
			t.Errorf("safe call %s started after another ended: %v", c.ID, ev)
		}
	}
	// Each unsafe call starts after everything before it ended and ends
	// before anything after it starts.
	for _, u := range calls[3:] {
		s, en := index(ev, "start:"+u.ID), index(ev, "end:"+u.ID)
		if en != s+1 {
			t.Errorf("unsafe call %s did not run alone: %v", u.ID, ev)
		}
	}
	if index(ev, "start:"+calls[3].ID) < index(ev, "end:"+calls[2].ID) {
		t.Errorf("unsafe call overtook a safe one: %v", ev)
	}
}

func TestStreamStartsSafeCallsAtOnce(t *testing.T) {
	release := make(chan struct{})
	started := make(chan string, 10)
	slow := reportingEcho("slow", true, started, release)
	fast := reportingEcho("fast", true, started, nil)
	write := reportingEcho("write", false, started, nil)
	e := &tool.Executor{Registry: tool.NewRegistry(slow, fast, write)}
	s := e.Stream(context.Background(), nil)
	s.Submit(call("slow", `{"text":"a"}`))
	if got := <-started; got != "a" {
		t.Fatalf("first started %s", got)
	}
	// A safe call submitted while a safe call runs starts at once.
	waitB := s.Submit(call("fast", `{"text":"b"}`))
	if got := <-started; got != "b" {
		t.Fatalf("second started %s", got)
	}
	if r := waitB(); r.TextOf() != "b" {
		t.Fatalf("b: %+v", r)
	}
	// An unsafe call waits for the running safe call; a safe call after it
	// waits for the unsafe one.
	s.Submit(call("write", `{"text":"c"}`))
	s.Submit(call("fast", `{"text":"d"}`))
	select {
	case got := <-started:
		t.Fatalf("%s started while an earlier call was pending", got)
	default:
	}
	close(release)
	if got := <-started; got != "c" {
		t.Fatalf("after release started %s, want c", got)
	}
	if got := <-started; got != "d" {
		t.Fatalf("then started %s, want d", got)
	}
	var texts []string
	for _, r := range s.Wait() {
		texts = append(texts, r.TextOf())
	}
	if strings.Join(texts, "") != "abcd" {
		t.Errorf("results in order: %v", texts)
	}
}

// countingTool counts Decode calls of the tool it wraps.
type countingTool struct {
	tool.Tool
	mu      sync.Mutex
	decodes int
}

func (c *countingTool) Decode(raw json.RawMessage) (any, error) {
	c.mu.Lock()
	c.decodes++
	c.mu.Unlock()
	return c.Tool.Decode(raw)
}

func TestBatchDecodesEachCallOnce(t *testing.T) {
	ct := &countingTool{Tool: echoTool("echo", true, nil)}
	e := &tool.Executor{Registry: tool.NewRegistry(ct)}
	res := e.Batch(context.Background(), nil, []tool.Call{call("echo", `{"text":"a"}`), call("echo", `{"text":"b"}`)})
	if res[0].TextOf() != "a" || res[1].TextOf() != "b" {
		t.Fatalf("results %+v", res)
	}
	if ct.decodes != 2 {
		t.Errorf("2 calls decoded %d times, want 2", ct.decodes)
	}
	// A middleware that rewrites the call gets it decoded afresh.
	e.Middleware = []tool.Middleware{func(next tool.Handler) tool.Handler {
		return func(ctx context.Context, env *tool.Env, c tool.Call) tool.Result {
			c.Input = json.RawMessage(`{"text":"rewritten"}`)
			return next(ctx, env, c)
		}
	}}
	if got := e.Batch(context.Background(), nil, []tool.Call{call("echo", `{"text":"a"}`)})[0].TextOf(); got != "rewritten" {
		t.Errorf("rewritten call ran with %q", got)
	}
}

func TestNullArgumentIsAbsent(t *testing.T) {
	type in struct {
		Text  string `json:"text"`
		Count *int   `json:"count,omitempty"`
	}
	tl := tool.New(tool.Spec[in]{Name: "nullable"}, func(_ context.Context, _ *tool.Env, v in) (struct{}, error) { return struct{}{}, nil })
	if _, err := tl.Decode(json.RawMessage(`{"text":"a","count":null}`)); err != nil {
		t.Fatalf("null for an optional parameter: %v", err)
	}
	_, err := tl.Decode(json.RawMessage(`{"text":null}`))
	te := tool.AsError(err)
	if te.Problem == nil || te.Problem.Kind != tool.Missing || te.Message != "invalid arguments for nullable: missing required parameter text" {
		t.Fatalf("null for a required parameter: %#v", te)
	}
}

func TestProblemIsStructured(t *testing.T) {
	type item struct {
		Old string `json:"old_str"`
	}
	type in struct {
		Edits []item `json:"edits"`
	}
	tl := tool.New(tool.Spec[in]{Name: "structured"}, func(_ context.Context, _ *tool.Env, v in) (struct{}, error) { return struct{}{}, nil })
	cases := []struct {
		args string
		kind tool.ProblemKind
		at   string
		msg  string
	}{
		{`{"edits":[{"old_str":1}]}`, tool.WrongType, "edits[0].old_str", `invalid arguments for structured: parameter edits[0].old_str: 1 has type integer, want string`},
		{`{"edits":[{"old":"a"}]}`, tool.Unknown, "edits[0]", `invalid arguments for structured: unknown parameter old in edits[0]; the parameters are old_str`},
		{`{"edits":[{}]}`, tool.Missing, "edits[0]", `invalid arguments for structured: missing required parameter old_str in edits[0]`},
		{`[1]`, tool.NotObject, "", `arguments of structured must be a JSON object, got an array`},
		{`{"edits":`, tool.NotJSON, "", ``},
	}
	for _, c := range cases {
		_, err := tl.Decode(json.RawMessage(c.args))
		te := tool.AsError(err)
		if te.Problem == nil || te.Problem.Kind != c.kind || te.Problem.At != c.at || c.msg != "" && te.Message != c.msg {
			t.Errorf("%s: got %#v %q", c.args, te.Problem, te.Message)
		}
	}
	// A profile's names reach the message without parsing it.
	_, err := tl.Decode(json.RawMessage(`{"edits":[{"old_str":1}]}`))
	got := tool.AsError(err).Reword(names{}).Message
	if want := `invalid arguments for Structured: parameter EDITS[0].OLD_STR: 1 has type integer, want string`; got != want {
		t.Errorf("reworded: %q, want %q", got, want)
	}
}

type names struct{}

func (names) Tool(core string) string  { return strings.ToUpper(core[:1]) + core[1:] }
func (names) Param(core string) string { return strings.ToUpper(core) }

// TestRewrittenInputIsPermittedAgain checks that an input a PreToolUse hook
// rewrites goes through resolution, permissions and validation again, so
// the policy decides on the arguments that run.
func TestRewrittenInputIsPermittedAgain(t *testing.T) {
	type in struct {
		Text string `json:"text"`
		abs  string
	}
	var stages []string
	tl := tool.New(tool.Spec[in]{
		Name: "t",
		Resolve: func(_ context.Context, _ *tool.Env, v in) (in, error) {
			stages = append(stages, "resolve:"+v.Text)
			v.abs = "/resolved/" + v.Text
			return v, nil
		},
		Validate: func(_ context.Context, _ *tool.Env, v in) (in, error) {
			stages = append(stages, "validate:"+v.abs)
			return v, nil
		},
	}, func(_ context.Context, _ *tool.Env, v in) (echoOut, error) { return echoOut{Echo: v.abs}, nil })
	e := &tool.Executor{Registry: tool.NewRegistry(tl)}
	e.Policy = tool.PolicyFunc(func(_ context.Context, _ tool.Info, _ tool.Call, v any) (tool.Decision, string) {
		stages = append(stages, "permit:"+v.(in).abs)
		if v.(in).abs == "/resolved/secret" {
			return tool.Deny, "secret is off limits"
		}
		return tool.Allow, ""
	})
	e.Hooks.PreToolUse = []tool.PreToolUse{func(_ context.Context, _ *tool.Env, _ tool.Info, c tool.Call) tool.HookDecision {
		if string(c.Input) == `{"text":"public"}` {
			return tool.HookDecision{Input: json.RawMessage(`{"text":"secret"}`)}
		}
		return tool.HookDecision{}
	}}
	res := e.Execute(context.Background(), nil, call("t", `{"text":"public"}`))
	if res.Code != tool.PermissionDenied || !strings.Contains(res.TextOf(), "off limits") {
		t.Errorf("rewritten to a denied input: %+v", res)
	}
	want := "resolve:public,permit:/resolved/public,validate:/resolved/public,resolve:secret,permit:/resolved/secret"
	if got := strings.Join(stages, ","); got != want {
		t.Errorf("stages %s\nwant   %s", got, want)
	}
}
