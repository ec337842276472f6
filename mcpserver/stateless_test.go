package mcpserver_test

import (
	"context"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// answerEveryQuestion accepts each elicitation, choosing the first value
// of each enum field and yes for each boolean one.
func answerEveryQuestion(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	content := map[string]any{}
	if props, ok := req.Params.RequestedSchema.(map[string]any)["properties"].(map[string]any); ok {
		for name, p := range props {
			p, _ := p.(map[string]any)
			if e, ok := p["enum"].([]any); ok && len(e) > 0 {
				content[name] = e[0]
			} else if p["type"] == "boolean" {
				content[name] = true
			} else if items, ok := p["items"].(map[string]any); ok {
				if e, ok := items["enum"].([]any); ok && len(e) > 0 {
					content[name] = []any{e[0]}
				}
			}
		}
	}
	return &mcp.ElicitResult{Action: "accept", Content: content}, nil
}

type protocolServer struct {
	root string
	srv  *mcpserver.Server
	http *httptest.Server
}

func newProtocolServer(t *testing.T) *protocolServer {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	rt, err := hands.New(hands.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	srv := mcpserver.New(rt, mcpserver.Options{})
	p := &protocolServer{root: root, srv: srv, http: httptest.NewServer(srv.HTTPHandler())}
	t.Cleanup(func() {
		p.http.CloseClientConnections()
		p.http.Close()
		srv.Close()
		rt.Close()
	})
	return p
}

// connectVersion connects a go-sdk client asking for version over
// transport ("stdio" or "http").
func (p *protocolServer) connectVersion(t *testing.T, transport, version string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "protocol-test", Version: "1"}, &mcp.ClientOptions{ElicitationHandler: answerEveryQuestion})
	var tr mcp.Transport
	switch transport {
	case "stdio":
		cr, sw := io.Pipe()
		sr, cw := io.Pipe()
		go func() {
			_ = p.srv.ServeIO(ctx, sr, sw)
			sw.Close()
		}()
		t.Cleanup(func() { cw.Close() })
		tr = &mcp.IOTransport{Reader: cr, Writer: cw}
	case "http":
		tr = &mcp.StreamableClientTransport{Endpoint: p.http.URL}
	}
	cs, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect %s %s: %v", transport, version, err)
	}
	t.Cleanup(func() { cs.Close() })
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("%s: negotiated %s, want %s", transport, got, version)
	}
	return cs
}

func resultCode(res *mcp.CallToolResult) string {
	if m, ok := res.StructuredContent.(map[string]any); ok {
		s, _ := m["code"].(string)
		return s
	}
	return ""
}

// exercise lists the tools and calls every one of them, in an order where
// each call depends on the state the calls before it left: the read
// ledger, the working directory, a background job, the todo list, the
// permission mode.
func exercise(t *testing.T, cs *mcp.ClientSession, root string) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	if err := os.WriteFile(filepath.Join(root, "sub", "x.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	called := map[string]bool{}
	call := func(name string, args map[string]any, wantCode string) *mcp.CallToolResult {
		t.Helper()
		called[name] = true
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := resultCode(res); res.IsError != (wantCode != "") || got != wantCode {
			t.Fatalf("%s %v: isError %v code %q, want %q: %s", name, args, res.IsError, got, wantCode, text(res))
		}
		return res
	}
	call("view", map[string]any{"path": "sub/x.txt"}, "")
	call("str_replace", map[string]any{"path": "sub/x.txt", "old_str": "one", "new_str": "uno"}, "")
	call("multi_edit", map[string]any{"path": "sub/x.txt", "edits": []any{map[string]any{"old_str": "two", "new_str": "dos"}}}, "")
	if b, _ := os.ReadFile(filepath.Join(root, "sub", "x.txt")); string(b) != "uno\ndos\n" {
		t.Errorf("after the edits: %q", b)
	}
	call("create_file", map[string]any{"path": "n.ipynb", "content": `{"cells":[{"cell_type":"code","id":"c1","metadata":{},"source":["1"],"outputs":[],"execution_count":null}],"metadata":{},"nbformat":4,"nbformat_minor":5}`}, "")
	call("notebook_edit", map[string]any{"path": "n.ipynb", "cell_id": "c1", "new_source": "2"}, "")
	if res := call("glob", map[string]any{"pattern": "**/*.txt"}, ""); !strings.Contains(text(res), "x.txt") {
		t.Errorf("glob: %s", text(res))
	}
	if res := call("grep", map[string]any{"pattern": "dos", "output_mode": "content"}, ""); !strings.Contains(text(res), "dos") {
		t.Errorf("grep: %s", text(res))
	}
	call("bash", map[string]any{"command": "cd sub"}, "")
	if res := call("bash", map[string]any{"command": "pwd"}, ""); !strings.Contains(text(res), filepath.Join(root, "sub")) {
		t.Errorf("the working directory did not carry over: %s", text(res))
	}
	res := call("bash", map[string]any{"command": "sleep 60", "run_in_background": true}, "")
	id, _ := res.StructuredContent.(map[string]any)["task_id"].(string)
	call("task_output", map[string]any{"task_id": id, "block": false}, "")
	call("task_kill", map[string]any{"task_id": id}, "")
	todos := []any{map[string]any{"content": "ship", "status": "pending", "activeForm": "shipping"}}
	call("todo_write", map[string]any{"todos": todos}, "")
	res = call("todo_write", map[string]any{"todos": todos}, "")
	if old, _ := res.StructuredContent.(map[string]any)["old_todos"].([]any); len(old) != 1 {
		t.Errorf("the todo list did not carry over: %v", res.StructuredContent)
	}
	call("enter_plan_mode", map[string]any{}, "")
	call("create_file", map[string]any{"path": "plan-mode.txt", "content": "x"}, "PERMISSION_DENIED")
	call("exit_plan_mode", map[string]any{"plan": "1. ship"}, "")
	call("ask_user_question", map[string]any{"questions": []any{map[string]any{"question": "Which one?", "header": "Pick",
		"multiSelect": false, "options": []any{map[string]any{"label": "red", "description": "R"}, map[string]any{"label": "blue", "description": "B"}}}}}, "")
	call("web_fetch", map[string]any{"url": "http://127.0.0.1:1/", "prompt": "summary"}, "NETWORK_BLOCKED")
	call("web_search", map[string]any{"query": "hands"}, "SEARCH_NOT_CONFIGURED")
	call("skill", map[string]any{"skill": "pdf"}, "INVALID_INPUT")
	call("lsp", map[string]any{"operation": "hover", "path": "x.txt", "line": 1, "character": 1}, "LSP_SERVER_UNAVAILABLE")
	for _, tl := range tools.Tools {
		if !called[tl.Name] {
			t.Errorf("tool %s was listed but not called; add it to exercise", tl.Name)
		}
	}
	if len(called) != len(tools.Tools) {
		t.Errorf("called %d tools, %d listed", len(called), len(tools.Tools))
	}
}

// TestProtocolVersions: a go-sdk client asking for the stateless revision
// 2026-07-28, or for an older one, lists and calls every tool over stdio
// and over HTTP, with state carried from call to call.
func TestProtocolVersions(t *testing.T) {
	t.Setenv("SEARXNG_URL", "")
	t.Setenv("BRAVE_API_KEY", "")
	t.Setenv("TAVILY_API_KEY", "")
	for _, version := range []string{"2026-07-28", "2025-11-25", "2025-06-18"} {
		for _, transport := range []string{"stdio", "http"} {
			t.Run(version+"/"+transport, func(t *testing.T) {
				p := newProtocolServer(t)
				cs := p.connectVersion(t, transport, version)
				if stateless := version >= "2026-07-28"; transport == "http" && (cs.ID() == "") != stateless {
					t.Errorf("session id %q; want one only before 2026-07-28", cs.ID())
				}
				exercise(t, cs, p.root)
			})
		}
	}
}

// TestStatelessHTTPStateIsPerServer: over HTTP, the stateless clients of
// one server share its session (what one writes in the todo list the next
// finds), while a client of an older revision has a session of its own.
func TestStatelessHTTPStateIsPerServer(t *testing.T) {
	p := newProtocolServer(t)
	ctx := context.Background()
	todo := func(cs *mcp.ClientSession, content string) []any {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "todo_write", Arguments: map[string]any{
			"todos": []any{map[string]any{"content": content, "status": "pending", "activeForm": content}}}})
		if err != nil || res.IsError {
			t.Fatalf("todo_write: %v %v", err, res)
		}
		old, _ := res.StructuredContent.(map[string]any)["old_todos"].([]any)
		return old
	}
	a := p.connectVersion(t, "http", "2026-07-28")
	b := p.connectVersion(t, "http", "2026-07-28")
	old := p.connectVersion(t, "http", "2025-11-25")
	if got := todo(a, "first"); len(got) != 0 {
		t.Errorf("a fresh server's list: %v", got)
	}
	if got := todo(b, "second"); len(got) != 1 || got[0].(map[string]any)["content"] != "first" {
		t.Errorf("a second stateless client sees %v, want the first's list", got)
	}
	if got := todo(old, "own"); len(got) != 0 {
		t.Errorf("a 2025-11-25 client sees %v, want a session of its own", got)
	}
}
