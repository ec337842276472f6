package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/mcpserver"
	"github.com/hands-dev/hands/tool"
	"github.com/hands-dev/hands/toolfmt"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type blockIn struct {
	Name string `json:"name"`
}

type blockOut struct {
	Name string `json:"name"`
}

// testTools returns a safe tool that blocks until cancelled or released, and
// reports when it starts and how it ended.
func testTools(started chan<- string, ended chan<- string, release <-chan struct{}) []tool.Tool {
	block := tool.New(tool.Spec[blockIn]{Name: "block", Description: "blocks", ReadOnly: true},
		func(ctx context.Context, _ *tool.Env, in blockIn) (blockOut, error) {
			started <- in.Name
			select {
			case <-ctx.Done():
				ended <- in.Name + ":cancelled"
				return blockOut{}, ctx.Err()
			case <-release:
				ended <- in.Name + ":released"
				return blockOut(in), nil
			}
		})
	return []tool.Tool{block}
}

func connect(t *testing.T, opts hands.Options) (*mcp.ClientSession, string) {
	t.Helper()
	return connectClient(t, opts, nil)
}

// connectClient is connect with the client's options (an elicitation
// handler, say).
func connectClient(t *testing.T, opts hands.Options, copts *mcp.ClientOptions) (*mcp.ClientSession, string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hello\nworld\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts.Roots = []string{root}
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
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, copts)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); srv.Close() })
	return cs, root
}

func TestListToolsHasSchemasAndAnnotations(t *testing.T) {
	cs, _ := connect(t, hands.Options{})
	rt, err := hands.New(hands.Options{Roots: []string{t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	infos := map[string]tool.Info{}
	for _, i := range rt.Tools() {
		infos[i.Name] = i
	}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != len(infos) || len(res.Tools) == 0 {
		t.Fatalf("listed %d tools, runtime has %d", len(res.Tools), len(infos))
	}
	for _, mt := range res.Tools {
		info, ok := infos[mt.Name]
		if !ok {
			t.Errorf("unexpected tool %s", mt.Name)
			continue
		}
		if mt.InputSchema == nil || mt.OutputSchema == nil {
			t.Errorf("%s: missing schemas", mt.Name)
		}
		a := mt.Annotations
		if a == nil || a.ReadOnlyHint != info.ReadOnly || a.IdempotentHint != info.Idempotent ||
			a.DestructiveHint == nil || *a.DestructiveHint != info.Destructive ||
			a.OpenWorldHint == nil || *a.OpenWorldHint != info.OpenWorld {
			t.Errorf("%s: annotations %+v do not match the spec %+v", mt.Name, a, info)
		}
		if mt.Description == "" {
			t.Errorf("%s: no description", mt.Name)
		}
	}
}

// TestListToolsIsTheMCPFormat checks that tools/list sends what
// toolfmt.MCP gives a library user (and `hands tools --format mcp` prints).
func TestListToolsIsTheMCPFormat(t *testing.T) {
	cs, _ := connect(t, hands.Options{})
	rt, err := hands.New(hands.Options{Roots: []string{t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	asJSON := func(v any) any {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var back any
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		return back
	}
	byName := func(list any) map[string]any {
		m := map[string]any{}
		for _, e := range list.([]any) {
			m[e.(map[string]any)["name"].(string)] = e
		}
		return m
	}
	// The SDK lists tools by name, not in the profile's order.
	got, want := byName(asJSON(res.Tools)), byName(asJSON(toolfmt.MCP(rt.Tools())))
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("tools/list has %d tools, toolfmt.MCP %d", len(got), len(want))
	}
	for name, w := range want {
		if !reflect.DeepEqual(got[name], w) {
			t.Errorf("%s: tools/list differs from toolfmt.MCP:\n got %v\nwant %v", name, got[name], w)
		}
	}
}

func TestCallReturnsStructuredContentMatchingTheSchema(t *testing.T) {
	cs, root := connect(t, hands.Options{})
	ctx := context.Background()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var view *mcp.Tool
	for _, tl := range list.Tools {
		if tl.Name == "view" {
			view = tl
		}
	}
	if view == nil {
		t.Fatal("no view tool")
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "view", Arguments: map[string]any{"path": "hello.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("error result: %+v", res.Content[0])
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if text != "     1\thello\n     2\tworld" {
		t.Errorf("text %q", text)
	}
	validate(t, view.OutputSchema, res.StructuredContent)
	sc := res.StructuredContent.(map[string]any)
	if sc["path"] != filepath.Join(root, "hello.txt") || sc["total_lines"] != float64(2) {
		t.Errorf("structured %v", sc)
	}

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "view", Arguments: map[string]any{"path": "/etc/passwd"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError {
		t.Fatal("reading outside the roots succeeded")
	}
	text = res.Content[0].(*mcp.TextContent).Text
	if !strings.HasPrefix(text, "[ACCESS_DENIED] ") || !strings.Contains(text, "/etc/passwd") || !strings.Contains(text, root) {
		t.Errorf("error text %q must carry the code, the path and the roots", text)
	}
	validate(t, view.OutputSchema, res.StructuredContent)
	if code := res.StructuredContent.(map[string]any)["code"]; code != "ACCESS_DENIED" {
		t.Errorf("structured error code %v", code)
	}

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "view", Arguments: map[string]any{"path": 3}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || res.StructuredContent.(map[string]any)["code"] != "INVALID_INPUT" {
		t.Errorf("mistyped argument: %+v", res)
	}
}

func validate(t *testing.T, schema, value any) {
	t.Helper()
	b, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Validate(value); err != nil {
		t.Errorf("structured content does not match the output schema: %v", err)
	}
}

func TestCancelledNotificationCancelsTheCall(t *testing.T) {
	started, ended := make(chan string, 4), make(chan string, 4)
	release := make(chan struct{})
	cs, _ := connect(t, hands.Options{Tools: testTools(started, ended, release)})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "block", Arguments: map[string]any{"name": "a"}})
		errc <- err
	}()
	if got := <-started; got != "a" {
		t.Fatalf("started %s", got)
	}
	cancel() // the client sends notifications/cancelled
	select {
	case got := <-ended:
		if got != "a:cancelled" {
			t.Errorf("ended %s", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the tool was not cancelled")
	}
	if err := <-errc; err == nil {
		t.Error("a cancelled call returned no error to the client")
	}
}

func TestConcurrentCallsOfASessionOverlapWhenSafe(t *testing.T) {
	started, ended := make(chan string, 4), make(chan string, 4)
	release := make(chan struct{})
	cs, _ := connect(t, hands.Options{Tools: testTools(started, ended, release)})
	var wg sync.WaitGroup
	for _, n := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "block", Arguments: map[string]any{"name": n}})
			if err != nil || res.IsError {
				t.Errorf("%s: %v %+v", n, err, res)
			}
		}()
	}
	// Both safe calls are inside the tool at once before either is released.
	got := map[string]bool{<-started: true, <-started: true}
	if !got["a"] || !got["b"] {
		t.Errorf("started %v", got)
	}
	close(release)
	wg.Wait()
}
