//lint:file-ignore SA1019 the test client answers sampling requests, a deprecated but working MCP feature.

package mcpserver_test

import (
	"context"
	"errors"
	"github.com/hands-dev/hands/internal/testproc"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// newAgentClient starts a server with opts and connects a go-sdk client of
// protocol 2026-07-28 whose model follows m, with copts' other settings.
func newAgentClient(t *testing.T, opts hands.Options, m *scriptedModel, copts mcp.ClientOptions) *mcp.ClientSession {
	cs, _ := newAgentServer(t, opts, m, copts)
	return cs
}

// newAgentServer is newAgentClient that also returns the server.
func newAgentServer(t *testing.T, opts hands.Options, m *scriptedModel, copts mcp.ClientOptions) (*mcp.ClientSession, *mcpserver.Server) {
	t.Helper()
	opts.ProjectSettings = true
	rt, err := hands.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	srv := mcpserver.New(rt, mcpserver.Options{})
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st); err != nil {
		t.Fatal(err)
	}
	copts.CreateMessageWithToolsHandler = m.handle
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "new-host", Version: "1"}, &copts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	if err != nil {
		t.Fatal(err)
	}
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Fatalf("the client speaks %s", v)
	}
	t.Cleanup(func() { cs.Close(); srv.Close() })
	return cs, srv
}

// TestTaskOverRoundsOfANewClient: a client of protocol 2026-07-28, which
// takes no sampling request while a call runs, runs a general-purpose
// agent that reads, edits and runs a command: each of the model's turns
// comes back as the call's input request and the go-sdk client answers it
// with its sampling handler. Between turns the agent's tools run once
// each: the command's line is in the log once, the edit is on disk once,
// and the edit found the read of an earlier round (the agent's session
// lives on between rounds).
func TestTaskOverRoundsOfANewClient(t *testing.T) {
	noModelEnv(t)
	root := project(t, map[string]string{"conf.txt": "level = 1\n"})
	p := filepath.Join(root, "conf.txt")
	m := &scriptedModel{steps: []step{
		{calls: []toolUse{{"view", map[string]any{"path": p}}}},
		{calls: []toolUse{{"str_replace", map[string]any{"path": p, "old_str": "level = 1", "new_str": "level = 2"}}}},
		{calls: []toolUse{{"bash", map[string]any{"command": "echo ran >> log.txt"}}}},
		{text: "Raised the level to 2."},
	}}
	cs := newAgentClient(t, hands.Options{Roots: []string{root}}, m, mcp.ClientOptions{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	listed := false
	for _, tl := range res.Tools {
		listed = listed || tl.Name == "task"
	}
	if !listed {
		t.Fatal("task is not listed for a 2026-07-28 client that offers sampling with tools")
	}
	text, isErr := callTool(t, cs, "task", map[string]any{"description": "raise the level", "prompt": "Set level to 2 in conf.txt", "subagent_type": "general-purpose"})
	if isErr || !strings.HasPrefix(text, "Raised the level to 2.") {
		t.Fatalf("task result (error %v): %s", isErr, text)
	}
	if b, _ := os.ReadFile(p); string(b) != "level = 2\n" {
		t.Fatalf("conf.txt holds %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "log.txt")); string(b) != "ran\n" {
		t.Fatalf("log.txt holds %q: the command ran other than once", b)
	}
	if len(m.seen) != 4 {
		t.Fatalf("the model was asked %d times, want 4", len(m.seen))
	}
	for i := 1; i < 4; i++ {
		if got := m.toolResults(t, i); len(got) != 1 || !strings.HasPrefix(got[0], "error=false") {
			t.Fatalf("turn %d's tool result: %q", i, got)
		}
	}
}

// TestTaskRoundsByHand: a client that handles the rounds itself gets one
// input request a turn and a request state naming the waiting call; a
// state that names no waiting call (forged, or one already answered) is
// refused with an error saying what to do, and the waiting call is not
// disturbed by it.
func TestTaskRoundsByHand(t *testing.T) {
	noModelEnv(t)
	root := project(t, map[string]string{"a.txt": "a\n"})
	m := &scriptedModel{steps: []step{
		{calls: []toolUse{{"glob", map[string]any{"pattern": "*.txt"}}}},
		{text: "There is a.txt."},
	}}
	cs := newAgentClient(t, hands.Options{Roots: []string{root}}, m, mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}})
	ctx := context.Background()
	args := map[string]any{"description": "list", "prompt": "What is here?", "subagent_type": "Explore"}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "task", Arguments: args})
	if err != nil || len(res.InputRequests) != 1 || res.InputRequests["agent_turn_1"] == nil || !strings.HasPrefix(res.RequestState, "agent:") {
		t.Fatalf("first round: %v %+v", err, res)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "task", Arguments: args, RequestState: "agent:0123", InputResponses: mcp.InputResponseMap{}}); err == nil || !strings.Contains(err.Error(), "call the tool again without requestState") {
		t.Fatalf("a forged state: %v", err)
	}
	for round := 1; ; round++ {
		key := "agent_turn_" + string(rune('0'+round))
		params, ok := res.InputRequests[key].(*mcp.CreateMessageWithToolsParams)
		if !ok {
			t.Fatalf("round %d asks %+v", round, res.InputRequests)
		}
		answer, err := m.handle(ctx, &mcp.CreateMessageWithToolsRequest{Params: params})
		if err != nil {
			t.Fatal(err)
		}
		state := res.RequestState
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "task", Arguments: args, RequestState: state, InputResponses: mcp.InputResponseMap{key: answer}})
		if err != nil {
			t.Fatalf("round %d: %v", round+1, err)
		}
		if res.InputRequests == nil {
			// Answered once: the same state again names nothing.
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "task", Arguments: args, RequestState: state, InputResponses: mcp.InputResponseMap{key: answer}}); err == nil {
				t.Fatal("a state answered before was taken again")
			}
			break
		}
	}
	if res.IsError || !strings.HasPrefix(res.Content[0].(*mcp.TextContent).Text, "There is a.txt.") || len(m.seen) != 2 {
		t.Fatalf("result after %d turns: %+v", len(m.seen), res.Content[0])
	}
}

// TestTaskInBackgroundRefusedOnANewClient: a background agent cannot
// run on a 2026-07-28 client's model; the call says why and what to
// configure, and the model is never asked.
func TestTaskInBackgroundRefusedOnANewClient(t *testing.T) {
	noModelEnv(t)
	m := &scriptedModel{steps: []step{{text: "never"}}}
	cs := newAgentClient(t, hands.Options{Roots: []string{project(t, nil)}}, m, mcp.ClientOptions{})
	text, isErr := callTool(t, cs, "task", map[string]any{"description": "bg", "prompt": "p", "subagent_type": "Plan", "run_in_background": true})
	if !isErr || !strings.Contains(text, "2026-07-28") || !strings.Contains(text, "run_in_background false") || !strings.Contains(text, "ANTHROPIC_API_KEY") || len(m.seen) != 0 {
		t.Fatalf("background on a new client (error %v, asked %d): %s", isErr, len(m.seen), text)
	}
}

// TestParkedTaskStoppedWithTheServer: a task call waiting for its
// client's next turn, whose agent started a background command, is
// stopped when the server closes: the command is gone.
func TestParkedTaskStoppedWithTheServer(t *testing.T) {
	noModelEnv(t)
	root := project(t, nil)
	fifo := filepath.Join(root, "started")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	m := &scriptedModel{steps: []step{
		{calls: []toolUse{{"bash", map[string]any{"command": "echo $$ > started; exec sleep 300.2718", "run_in_background": true}}}},
		{text: "never"},
	}}
	cs, srv := newAgentServer(t, hands.Options{Roots: []string{root}}, m, mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}})
	ctx := context.Background()
	args := map[string]any{"description": "wait", "prompt": "wait", "subagent_type": "general-purpose"}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "task", Arguments: args})
	if err != nil || res.InputRequests["agent_turn_1"] == nil {
		t.Fatalf("first round: %v %+v", err, res)
	}
	answer, _ := m.handle(ctx, &mcp.CreateMessageWithToolsRequest{Params: res.InputRequests["agent_turn_1"].(*mcp.CreateMessageWithToolsParams)})
	pid := make(chan int, 1)
	go func() {
		f, err := os.Open(fifo) // blocks until the command writes
		if err != nil {
			pid <- 0
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		pid <- n
	}()
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "task", Arguments: args, RequestState: res.RequestState, InputResponses: mcp.InputResponseMap{"agent_turn_1": answer}})
	if err != nil || res.InputRequests["agent_turn_2"] == nil {
		t.Fatalf("second round: %v %+v", err, res)
	}
	p := <-pid
	if p == 0 {
		t.Fatal("the command did not start")
	}
	// In the sandbox's namespaces $$ is not the server's view of the
	// command: on Linux the command is looked for by its arguments.
	if runtime.GOOS == "linux" {
		if len(testproc.PIDsOf("300.2718")) == 0 {
			t.Fatal("the command is not running while the call waits")
		}
		srv.Close()
		if left := testproc.PIDsOf("300.2718"); len(left) > 0 {
			t.Fatalf("the parked agent's command is still there after the server closed: %v", left)
		}
		return
	}
	if err := syscall.Kill(p, 0); err != nil {
		t.Fatalf("the command %d is not running while the call waits: %v", p, err)
	}
	srv.Close()
	if err := syscall.Kill(p, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("the parked agent's command %d is still there after the server closed: %v", p, err)
	}
}
