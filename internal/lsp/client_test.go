package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hands-dev/hands/internal/jobs"
	"github.com/sourcegraph/jsonrpc2"
)

// TestMain runs the test binary as a fake language server when asked to.
func TestMain(m *testing.M) {
	if mode := os.Getenv("HANDS_LSP_FAKE"); mode != "" {
		fakeServer(mode)
		return
	}
	os.Exit(m.Run())
}

type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return nil }

// fakeServer is a language server stand-in. It reports loading from
// before it answers initialize until a moment after the first didOpen,
// and answers a definition with null while loading (as servers that
// answer early do), with a location after. In mode "crash" it dies on the
// first definition, saying so on stderr.
func fakeServer(mode string) {
	var mu sync.Mutex
	loading := true
	done := make(chan struct{})
	h := jsonrpc2.HandlerWithError(func(ctx context.Context, c *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		switch req.Method {
		case "initialize":
			c.Notify(ctx, "$/progress", map[string]any{"token": "load", "value": map[string]any{"kind": "begin", "title": "Loading"}})
			return map[string]any{"capabilities": map[string]any{}}, nil
		case "textDocument/didOpen":
			go func() {
				time.Sleep(200 * time.Millisecond) // the fake's own work, not a wait in a test
				mu.Lock()
				loading = false
				mu.Unlock()
				c.Notify(context.Background(), "$/progress", map[string]any{"token": "load", "value": map[string]any{"kind": "end"}})
			}()
			return nil, nil
		case "textDocument/definition":
			if mode == "crash" {
				os.Stderr.WriteString("fake: panic: definition is broken\n")
				os.Exit(2)
			}
			mu.Lock()
			defer mu.Unlock()
			if loading {
				return nil, nil
			}
			var p TextDocumentPositionParams
			json.Unmarshal(*req.Params, &p)
			return []Location{{URI: p.TextDocument.URI, Range: Range{Start: Position{Line: 0, Character: 8}}}}, nil
		case "shutdown":
			return nil, nil
		case "exit":
			close(done)
			return nil, nil
		}
		return nil, nil
	})
	conn := jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(stdio{}, jsonrpc2.VSCodeObjectCodec{}), h)
	select {
	case <-conn.DisconnectNotify():
	case <-done:
	}
}

func fakeManager(t *testing.T, mode string) (*Manager, string) {
	t.Helper()
	jm, err := jobs.NewManager(jobs.Config{TempDir: t.TempDir(), Grace: 500 * time.Millisecond}, t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { jm.Close() })
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	m := &Manager{Table: []Server{{Name: "fake", Command: exe, ExtensionToLanguage: map[string]string{".fk": "fake"},
		Env: map[string]string{"HANDS_LSP_FAKE": mode}}}, Jobs: func() (*jobs.Manager, error) { return jm, nil }}
	t.Cleanup(m.Close)
	return m, t.TempDir()
}

func definition(ctx context.Context, c *Client, path string) ([]Location, error) {
	var raw json.RawMessage
	err := c.Call(ctx, "textDocument/definition", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{URI: FileURI(path)}}, &raw)
	if err != nil {
		return nil, err
	}
	return DecodeLocations(raw)
}

// TestQueryWaitsForALoadingServer: a server still loading the workspace
// (its progress report begun, not ended) is waited for, so the query gets
// its answer rather than "nothing found".
func TestQueryWaitsForALoadingServer(t *testing.T) {
	m, root := fakeManager(t, "ok")
	ctx := context.Background()
	srv, lang, ext, ok := m.For(root + "/a.fk")
	if !ok || lang != "fake" || ext != ".fk" {
		t.Fatalf("For: %v %q %q", ok, lang, ext)
	}
	c, err := m.Client(ctx, srv, root, ext)
	if err != nil {
		t.Fatal(err)
	}
	if c.Began() != 1 {
		t.Fatalf("the loading report was not seen before initialize returned (began %d)", c.Began())
	}
	if sent, err := c.Sync(ctx, root+"/a.fk", lang, []byte("package a\n")); err != nil || !sent {
		t.Fatalf("Sync: %v %v", sent, err)
	}
	if sent, _ := c.Sync(ctx, root+"/a.fk", lang, []byte("package a\n")); sent {
		t.Error("the same content was sent twice")
	}
	if !m.WaitReady(ctx, c) {
		t.Fatal("WaitReady gave up")
	}
	locs, err := definition(ctx, c, root+"/a.fk")
	if err != nil || len(locs) != 1 || locs[0].Range.Start.Character != 8 {
		t.Fatalf("definition after the wait: %v %v", locs, err)
	}
	if again, err := m.Client(ctx, srv, root, ext); err != nil || again != c {
		t.Errorf("the second use started another server: %v", err)
	}
}

// TestWaitReadyIsBounded: a server that never ends its loading report is
// waited for only up to the bound.
func TestWaitReadyIsBounded(t *testing.T) {
	m, root := fakeManager(t, "ok")
	m.ReadyTimeout = 50 * time.Millisecond
	srv, _, ext, _ := m.For(root + "/a.fk")
	c, err := m.Client(context.Background(), srv, root, ext)
	if err != nil {
		t.Fatal(err)
	}
	// No didOpen: the fake stays loading.
	if m.WaitReady(context.Background(), c) {
		t.Error("WaitReady reported ready while the server was loading")
	}
}

// TestCrashedServerIsRestarted: a server that dies mid-request gives an
// error saying how, with its last words; the next Client starts a new one.
func TestCrashedServerIsRestarted(t *testing.T) {
	m, root := fakeManager(t, "crash")
	ctx := context.Background()
	srv, _, ext, _ := m.For(root + "/a.fk")
	c, err := m.Client(ctx, srv, root, ext)
	if err != nil {
		t.Fatal(err)
	}
	_, err = definition(ctx, c, root+"/a.fk")
	var ee *ExitedError
	if !errors.As(err, &ee) || !errors.Is(err, ErrServerExited) || ee.How != "exit status 2" || !strings.Contains(ee.Stderr, "definition is broken") {
		t.Fatalf("the crash: %v", err)
	}
	if !c.Dead() {
		t.Error("the client does not know its server died")
	}
	c2, err := m.Client(ctx, srv, root, ext)
	if err != nil || c2 == c || c2.Dead() || c2.Pid() == c.Pid() {
		t.Fatalf("after the crash: %v (same client %v)", err, c2 == c)
	}
}

// TestMissingServerNamesIt: a server not on PATH (nor its alternatives)
// is an error naming each and how to install it.
func TestMissingServerNamesIt(t *testing.T) {
	m := &Manager{Jobs: func() (*jobs.Manager, error) { return nil, errors.New("unused") }}
	srv := Server{Name: "pyright", Command: "pyright-langserver-h6", Alternatives: [][]string{{"basedpyright-langserver-h6", "--stdio"}},
		ExtensionToLanguage: map[string]string{".py": "python"}, Install: "npm install -g pyright"}
	_, err := m.Client(context.Background(), srv, "/", ".py")
	want := "the language server for .py files, pyright, is not installed: pyright-langserver-h6 nor basedpyright-langserver-h6 not found on PATH; install it with `npm install -g pyright`, or name another server for .py in lspServers of --config"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// TestManagerClosedRefuses: after Close, no server starts.
func TestManagerClosedRefuses(t *testing.T) {
	m, root := fakeManager(t, "ok")
	m.Close()
	srv, _, ext, _ := m.For(root + "/a.fk")
	if _, err := m.Client(context.Background(), srv, root, ext); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
}

func TestTableMergeAndParse(t *testing.T) {
	got, err := ParseServers("test", json.RawMessage(`{"gopls": {"command": "my-gopls", "extensionToLanguage": {".go": "go"}}, "zig": {"command": "zls", "extensionToLanguage": {".zig": "zig"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	table := Merge(got, Defaults())
	if s, _, ok := For(table, "/x/A.GO"); !ok || s.Command != "my-gopls" {
		t.Errorf(".go is served by %+v", s)
	}
	if s, lang, ok := For(table, "/x/a.tsx"); !ok || s.Name != "typescript-language-server" || lang != "typescriptreact" {
		t.Errorf(".tsx is served by %+v %q", s, lang)
	}
	for _, bad := range []string{`[]`, `{"x": {"command": ""}}`, `{"x": {"command": "x", "extensionToLanguage": {"go": "go"}}}`, `{"x": {"command": "x", "extensionToLanguage": {".go": "go"}, "bogus": 1}}`} {
		if _, err := ParseServers("test", json.RawMessage(bad)); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

func TestDecodeLocationsAndHover(t *testing.T) {
	for raw, n := range map[string]int{
		`null`: 0,
		`{"uri":"file:///a","range":{"start":{"line":1,"character":2},"end":{"line":1,"character":3}}}`:                                                                                                        1,
		`[{"targetUri":"file:///b","targetRange":{"start":{"line":0,"character":0},"end":{"line":9,"character":0}},"targetSelectionRange":{"start":{"line":3,"character":5},"end":{"line":3,"character":9}}}]`: 1,
		`[{"uri":""},{"range":null}]`: 0,
	} {
		locs, err := DecodeLocations(json.RawMessage(raw))
		if err != nil || len(locs) != n {
			t.Errorf("%s: %v %v", raw, locs, err)
		}
	}
	for raw, want := range map[string]string{
		`{"kind":"markdown","value":"**x**"}`: "**x**",
		`"plain"`:                             "plain",
		`[{"language":"go","value":"func F()"},"doc"]`: "```go\nfunc F()\n```\n\ndoc",
	} {
		if got := (&Hover{Contents: json.RawMessage(raw)}).Text(); got != want {
			t.Errorf("%s: %q, want %q", raw, got, want)
		}
	}
	if p := URIPath(FileURI("/a b/c#d.go")); p != "/a b/c#d.go" {
		t.Errorf("URI round trip: %q", p)
	}
}

// FuzzDecodeLocations: any answer decodes or fails, never panics.
func FuzzDecodeLocations(f *testing.F) {
	f.Add([]byte(`[{"uri":"file:///a","range":{"start":{"line":1,"character":2},"end":{"line":1,"character":3}}}]`))
	f.Add([]byte(`{"targetUri":"file:///b","targetRange":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		DecodeLocations(json.RawMessage(b))
		(&Hover{Contents: json.RawMessage(b)}).Text()
	})
}

// FuzzParseServers: any config decodes or fails with an error, never
// panics, and what it accepts has a command and dotted extensions.
func FuzzParseServers(f *testing.F) {
	f.Add([]byte(`{"gopls": {"command": "gopls", "extensionToLanguage": {".go": "go"}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := ParseServers("fuzz", json.RawMessage(b))
		if err != nil {
			return
		}
		for _, s := range got {
			if strings.TrimSpace(s.Command) == "" || len(s.ExtensionToLanguage) == 0 {
				t.Fatalf("accepted %+v", s)
			}
		}
	})
}

var _ io.Closer = stdio{}
