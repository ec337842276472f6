package hands_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/hands-dev/hands/internal/testproc"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/model"
	"github.com/hands-dev/hands/tool"
)

// clearModelEnv keeps the machine's model keys out of a test.
func clearModelEnv(t *testing.T) {
	t.Helper()
	for _, k := range []string{hands.EnvAnthropicKey, hands.EnvAnthropicURL, hands.EnvOpenAIKey, hands.EnvOpenAIBaseURL} {
		t.Setenv(k, "")
	}
}

// sse writes events as a server-sent event stream.
func sse(w http.ResponseWriter, events []string) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, e := range events {
		io.WriteString(w, e+"\n\n")
	}
}

// anthropicFake replays two recorded Messages API streams: a tool_use of
// glob, then the final text; it checks the key and the tool result sent.
func anthropicFake(t *testing.T, key string) (*httptest.Server, *[]map[string]any) {
	var mu sync.Mutex
	var bodies []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/messages" || r.Header.Get("X-Api-Key") != key {
			http.Error(w, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`, http.StatusUnauthorized)
			return
		}
		var body map[string]any
		json.NewDecoder(r.Body).Decode(&body)
		mu.Lock()
		bodies = append(bodies, body)
		n := len(bodies)
		mu.Unlock()
		if n == 1 {
			sse(w, []string{
				`event: message_start` + "\n" + `data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-haiku-4-5","content":[],"stop_reason":null,"usage":{"input_tokens":120,"output_tokens":1}}}`,
				`event: content_block_start` + "\n" + `data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
				`event: content_block_delta` + "\n" + `data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Looking."}}`,
				`event: content_block_stop` + "\n" + `data: {"type":"content_block_stop","index":0}`,
				`event: content_block_start` + "\n" + `data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"glob","input":{}}}`,
				`event: content_block_delta` + "\n" + `data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"pattern\":"}}`,
				`event: content_block_delta` + "\n" + `data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":" \"*.md\"}"}}`,
				`event: content_block_stop` + "\n" + `data: {"type":"content_block_stop","index":1}`,
				`event: message_delta` + "\n" + `data: {"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":30}}`,
				`event: message_stop` + "\n" + `data: {"type":"message_stop"}`,
			})
			return
		}
		sse(w, []string{
			`event: message_start` + "\n" + `data: {"type":"message_start","message":{"id":"msg_2","type":"message","role":"assistant","model":"claude-haiku-4-5","content":[],"stop_reason":null,"usage":{"input_tokens":200,"output_tokens":1}}}`,
			`event: content_block_start` + "\n" + `data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			`event: content_block_delta` + "\n" + `data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"There is one: README.md."}}`,
			`event: content_block_stop` + "\n" + `data: {"type":"content_block_stop","index":0}`,
			`event: message_delta` + "\n" + `data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":12}}`,
			`event: message_stop` + "\n" + `data: {"type":"message_stop"}`,
		})
	}))
	t.Cleanup(srv.Close)
	return srv, &bodies
}

// openAIFake replays two recorded Chat Completions streams.
func openAIFake(t *testing.T, key string) (*httptest.Server, *[]map[string]any) {
	var mu sync.Mutex
	var bodies []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer "+key {
			http.Error(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`, http.StatusUnauthorized)
			return
		}
		var body map[string]any
		json.NewDecoder(r.Body).Decode(&body)
		mu.Lock()
		bodies = append(bodies, body)
		n := len(bodies)
		mu.Unlock()
		chunk := func(delta, finish string) string {
			return `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"qwen3","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]}`
		}
		usage := `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"qwen3","choices":[],"usage":{"prompt_tokens":90,"completion_tokens":20,"total_tokens":110}}`
		if n == 1 {
			sse(w, []string{
				chunk(`{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"glob","arguments":""}}]}`, "null"),
				chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"pattern\":\"*.md\"}"}}]}`, "null"),
				chunk(`{}`, `"tool_calls"`),
				usage, "data: [DONE]",
			})
			return
		}
		sse(w, []string{
			chunk(`{"role":"assistant","content":"There is one: "}`, "null"),
			chunk(`{"content":"README.md."}`, "null"),
			chunk(`{}`, `"stop"`),
			usage, "data: [DONE]",
		})
	}))
	t.Cleanup(srv.Close)
	return srv, &bodies
}

// runTask runs a task call in a fresh session of rt.
func runTask(t *testing.T, rt *hands.Runtime, args string) tool.Result {
	t.Helper()
	s, err := rt.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	return s.Call(context.Background(), tool.Call{Name: "task", Input: json.RawMessage(args)})
}

func text(r tool.Result) string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// TestTaskOnAnthropicAPI: Task runs on a configured Anthropic Messages API
// (a local fake replaying a recorded stream): the key goes in the header
// only, the tool result goes back, the usage figures are in the result,
// and the key appears in no result.
func TestTaskOnAnthropicAPI(t *testing.T) {
	clearModelEnv(t)
	const key = "sk-ant-test-0123456789"
	srv, bodies := anthropicFake(t, key)
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "README.md"), []byte("# hi\n"), 0o644)
	t.Setenv(hands.EnvAnthropicKey, key)
	t.Setenv(hands.EnvAnthropicURL, srv.URL)
	rt, err := hands.New(hands.Options{Roots: []string{root}, ModelAPI: hands.ModelOptions{Agents: map[string]string{"Explore": "claude-haiku-4-5"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	if !rt.HasModel() {
		t.Fatal("the runtime has no model with ANTHROPIC_API_KEY set")
	}
	res := runTask(t, rt, `{"description":"find docs","prompt":"Which markdown files are there?","subagent_type":"Explore"}`)
	got := text(res)
	if res.IsError || !strings.HasPrefix(got, "Looking.\nThere is one: README.md.") && !strings.HasPrefix(got, "There is one: README.md.") ||
		!strings.Contains(got, "<usage>total_tokens: 362\ntool_uses: 1\n") || strings.Contains(got, key) {
		t.Fatalf("result (error %v):\n%s", res.IsError, got)
	}
	if len(*bodies) != 2 {
		t.Fatalf("%d requests", len(*bodies))
	}
	first, second := (*bodies)[0], (*bodies)[1]
	if first["model"] != "claude-haiku-4-5" || first["stream"] != true {
		t.Fatalf("first request: model %v stream %v", first["model"], first["stream"])
	}
	b, _ := json.Marshal(second["messages"])
	if !strings.Contains(string(b), `"tool_use_id":"toolu_1"`) || !strings.Contains(string(b), "README.md") {
		t.Fatalf("second request's messages: %s", b)
	}
}

// TestTaskOnOpenAICompatibleAPI: the same over a Chat Completions stream,
// configured with a base URL as for a local server.
func TestTaskOnOpenAICompatibleAPI(t *testing.T) {
	clearModelEnv(t)
	const key = "sk-openai-test-987"
	srv, bodies := openAIFake(t, key)
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "README.md"), []byte("# hi\n"), 0o644)
	rt, err := hands.New(hands.Options{Roots: []string{root}, ModelAPI: hands.ModelOptions{OpenAIAPIKey: key, OpenAIBaseURL: srv.URL + "/v1", Model: "qwen3"}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	res := runTask(t, rt, `{"description":"find docs","prompt":"Which markdown files are there?","subagent_type":"general-purpose"}`)
	got := text(res)
	if res.IsError || !strings.HasPrefix(got, "There is one: README.md.\n\nagentId: ") || !strings.Contains(got, "<usage>total_tokens: 220\ntool_uses: 1\n") {
		t.Fatalf("result (error %v):\n%s", res.IsError, got)
	}
	second, _ := json.Marshal((*bodies)[1]["messages"])
	if (*bodies)[0]["model"] != "qwen3" || !strings.Contains(string(second), `"tool_call_id":"call_1"`) || !strings.Contains(string(second), "README.md") {
		t.Fatalf("requests: %v\n%s", (*bodies)[0]["model"], second)
	}
}

// TestModelKeyNotShown: a wrong key's error names no key, and commands do
// not see the model variables.
func TestModelKeyNotShown(t *testing.T) {
	clearModelEnv(t)
	srv, _ := anthropicFake(t, "the-right-key")
	t.Setenv(hands.EnvAnthropicKey, "sk-ant-wrong-key-555")
	t.Setenv(hands.EnvAnthropicURL, srv.URL)
	rt, err := hands.New(hands.Options{Roots: []string{t.TempDir()}, ModelAPI: hands.ModelOptions{HTTPClient: srv.Client()}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	res := runTask(t, rt, `{"description":"x","prompt":"x","subagent_type":"Explore"}`)
	if !res.IsError || res.Code != tool.AgentFailed || strings.Contains(text(res), "sk-ant-wrong-key-555") {
		t.Fatalf("result: %s", text(res))
	}
	s, _ := rt.NewSession()
	defer s.Close()
	out := text(s.Call(context.Background(), tool.Call{Name: "bash", Input: json.RawMessage(`{"command":"env"}`)}))
	if strings.Contains(out, "sk-ant-wrong-key-555") || strings.Contains(out, hands.EnvAnthropicKey) {
		t.Fatalf("a command sees the key:\n%s", out)
	}
}

// TestTaskCancelStopsLoopAndCommands: cancelling a task call while its
// agent's command runs stops the loop, and the command's process is gone
// when the call returns.
func TestTaskCancelStopsLoopAndCommands(t *testing.T) {
	clearModelEnv(t)
	root := t.TempDir()
	fifo := filepath.Join(root, "started")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	turns := 0
	chat := model.ChatFunc(func(ctx context.Context, req *model.Request) (*model.Reply, error) {
		mu.Lock()
		turns++
		n := turns
		mu.Unlock()
		if n > 1 {
			return nil, errors.New("the loop went on after the cancel")
		}
		return &model.Reply{Content: []model.Block{{Type: model.ToolUse, ID: "c1", Name: "bash",
			Input: json.RawMessage(`{"command":"echo $$ > started; exec sleep 300.4711"}`)}}}, nil
	})
	rt, err := hands.New(hands.Options{Roots: []string{root}, Model: chat})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	s, _ := rt.NewSession()
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
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
		cancel()
	}()
	res := s.Call(ctx, tool.Call{Name: "task", Input: json.RawMessage(`{"description":"wait","prompt":"wait","subagent_type":"general-purpose"}`)})
	p := <-pid
	if p == 0 {
		t.Fatal("the command did not start")
	}
	if res.Code != tool.Canceled {
		t.Fatalf("result %v: %s", res.Code, text(res))
	}
	// In the sandbox's namespaces $$ is not the server's view of the
	// command: on Linux the command is looked for by its arguments.
	if runtime.GOOS == "linux" {
		if left := testproc.PIDsOf("sleep 300.4711"); len(left) > 0 {
			t.Fatalf("the agent's command is still there after the cancel: %v", left)
		}
	} else if err := syscall.Kill(p, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("the agent's command %d is still there after the cancel: %v", p, err)
	}
	if turns != 1 {
		t.Fatalf("%d turns", turns)
	}
}

// TestTaskResume: an agent resumed by its id continues its conversation.
func TestTaskResume(t *testing.T) {
	clearModelEnv(t)
	var seen [][]model.Message
	chat := model.ChatFunc(func(_ context.Context, req *model.Request) (*model.Reply, error) {
		seen = append(seen, append([]model.Message(nil), req.Messages...))
		return &model.Reply{Content: []model.Block{{Type: model.Text, Text: fmt.Sprintf("answer %d", len(seen))}}}, nil
	})
	rt, err := hands.New(hands.Options{Roots: []string{t.TempDir()}, Model: chat})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	s, _ := rt.NewSession()
	defer s.Close()
	first := text(s.Call(context.Background(), tool.Call{Name: "task", Input: json.RawMessage(`{"description":"a","prompt":"first","subagent_type":"Plan"}`)}))
	id := strings.Fields(first[strings.Index(first, "agentId: ")+len("agentId: "):])[0]
	second := s.Call(context.Background(), tool.Call{Name: "task", Input: json.RawMessage(fmt.Sprintf(`{"description":"a","prompt":"second","subagent_type":"Plan","resume":%q}`, id))})
	if second.IsError || !strings.HasPrefix(text(second), "answer 2") || len(seen[1]) != 3 || seen[1][2].Content[0].Text != "second" {
		t.Fatalf("resume: %s; messages %+v", text(second), seen[1])
	}
}

// TestTaskInBackground: a background agent's result is read with
// task_output; one still working is stopped with task_kill.
func TestTaskInBackground(t *testing.T) {
	clearModelEnv(t)
	chat := model.ChatFunc(func(ctx context.Context, req *model.Request) (*model.Reply, error) {
		if req.Messages[0].Content[0].Text == "hang" {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return &model.Reply{Content: []model.Block{{Type: model.Text, Text: "background answer"}}}, nil
	})
	rt, err := hands.New(hands.Options{Roots: []string{t.TempDir()}, Model: chat})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	s, _ := rt.NewSession()
	defer s.Close()
	ctx := context.Background()
	idOf := func(r tool.Result) string {
		txt := text(r)
		i := strings.Index(txt, "agentId: ")
		if r.IsError || i < 0 || !strings.HasPrefix(txt, "Async agent launched successfully.") {
			t.Fatalf("launch: %s", txt)
		}
		return strings.Fields(txt[i+len("agentId: "):])[0]
	}
	id := idOf(s.Call(ctx, tool.Call{Name: "task", Input: json.RawMessage(`{"description":"bg","prompt":"go","subagent_type":"Plan","run_in_background":true}`)}))
	out := s.Call(ctx, tool.Call{Name: "task_output", Input: json.RawMessage(fmt.Sprintf(`{"task_id":%q,"timeout":60000}`, id))})
	file := filepath.Join(filepath.Dir(s.TempDir()), "tasks", id+".output")
	if out.IsError || !strings.HasPrefix(text(out), "task "+id+" (agent: bg): completed\ntranscript: "+file+"\nbackground answer") {
		t.Fatalf("task_output: %s", text(out))
	}
	// The output file is the agent's transcript: the prompt, then the answer.
	lines := strings.Split(strings.TrimSuffix(readFile(t, file), "\n"), "\n")
	var prompt, answer struct {
		ParentUUID *string `json:"parentUuid"`
		AgentID    string  `json:"agentId"`
		Type       string  `json:"type"`
		UUID       string  `json:"uuid"`
		Message    struct {
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	if len(lines) != 2 || json.Unmarshal([]byte(lines[0]), &prompt) != nil || json.Unmarshal([]byte(lines[1]), &answer) != nil ||
		prompt.Type != "user" || prompt.ParentUUID != nil || string(prompt.Message.Content) != `"go"` || prompt.AgentID != id ||
		answer.Type != "assistant" || answer.ParentUUID == nil || *answer.ParentUUID != prompt.UUID || string(answer.Message.Content) != `[{"type":"text","text":"background answer"}]` {
		t.Fatalf("output file %s:\n%s", file, strings.Join(lines, "\n"))
	}
	// Resumed in the background again, it appends to the same file.
	again := idOf(s.Call(ctx, tool.Call{Name: "task", Input: json.RawMessage(fmt.Sprintf(`{"description":"bg","prompt":"more","subagent_type":"Plan","run_in_background":true,"resume":%q}`, id))}))
	if again != id {
		t.Fatalf("resumed as %s, not %s", again, id)
	}
	if out := s.Call(ctx, tool.Call{Name: "task_output", Input: json.RawMessage(fmt.Sprintf(`{"task_id":%q,"timeout":60000}`, id))}); out.IsError {
		t.Fatalf("task_output of the resumed agent: %s", text(out))
	}
	if lines := strings.Count(readFile(t, file), "\n"); lines != 4 {
		t.Fatalf("after the resumed run the output file has %d lines, want 4:\n%s", lines, readFile(t, file))
	}
	id = idOf(s.Call(ctx, tool.Call{Name: "task", Input: json.RawMessage(`{"description":"hangs","prompt":"hang","subagent_type":"Plan","run_in_background":true}`)}))
	// An agent still running cannot be resumed.
	busy := s.Call(ctx, tool.Call{Name: "task", Input: json.RawMessage(fmt.Sprintf(`{"description":"again","prompt":"x","subagent_type":"Plan","resume":%q}`, id))})
	if !busy.IsError || !strings.Contains(text(busy), "is still running in the background") {
		t.Fatalf("resuming a running agent: %s", text(busy))
	}
	kill := s.Call(ctx, tool.Call{Name: "task_kill", Input: json.RawMessage(fmt.Sprintf(`{"task_id":%q}`, id))})
	if kill.IsError || !strings.Contains(text(kill), "killed") {
		t.Fatalf("task_kill: %s", text(kill))
	}
	out = s.Call(ctx, tool.Call{Name: "task_output", Input: json.RawMessage(fmt.Sprintf(`{"task_id":%q,"block":false}`, id))})
	if !strings.Contains(text(out), "killed") {
		t.Fatalf("task_output after the kill: %s", text(out))
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
