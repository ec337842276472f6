package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/tool"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fileClient is an MCP client session with the tools' definitions at hand.
type fileClient struct {
	t     *testing.T
	cs    *mcp.ClientSession
	root  string
	tools map[string]*mcp.Tool
}

func newFileClient(t *testing.T, opts hands.Options) *fileClient {
	t.Helper()
	cs, root := connect(t, opts)
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &fileClient{t: t, cs: cs, root: root, tools: map[string]*mcp.Tool{}}
	for _, tl := range list.Tools {
		c.tools[tl.Name] = tl
	}
	return c
}

// call calls a tool over MCP and checks that the structured content matches
// the tool's output schema, on success and on failure alike.
func (c *fileClient) call(name string, args map[string]any) *mcp.CallToolResult {
	c.t.Helper()
	def, ok := c.tools[name]
	if !ok {
		c.t.Fatalf("no tool %s", name)
	}
	res, err := c.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		c.t.Fatalf("%s: %v", name, err)
	}
	validate(c.t, def.OutputSchema, res.StructuredContent)
	return res
}

func (c *fileClient) ok(name string, args map[string]any) (string, map[string]any) {
	c.t.Helper()
	res := c.call(name, args)
	if res.IsError {
		c.t.Fatalf("%s %v: %s", name, args, text(res))
	}
	return text(res), res.StructuredContent.(map[string]any)
}

func (c *fileClient) fail(code, name string, args map[string]any) string {
	c.t.Helper()
	res := c.call(name, args)
	got := res.StructuredContent.(map[string]any)["code"]
	if !res.IsError || got != code {
		c.t.Fatalf("%s %v: want %s, got %v: %s", name, args, code, got, text(res))
	}
	if !strings.HasPrefix(text(res), "["+code+"] ") {
		c.t.Errorf("error text %q does not start with the code", text(res))
	}
	return text(res)
}

func (c *fileClient) file(name string) string {
	c.t.Helper()
	b, err := os.ReadFile(filepath.Join(c.root, name))
	if err != nil {
		c.t.Fatal(err)
	}
	return string(b)
}

func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func TestFileToolsAreAnnotated(t *testing.T) {
	c := newFileClient(t, hands.Options{})
	for name, destructive := range map[string]bool{
		"view": false, "create_file": true, "str_replace": true, "multi_edit": true, "notebook_edit": true,
	} {
		tl, ok := c.tools[name]
		if !ok {
			t.Errorf("native profile lacks %s", name)
			continue
		}
		a := tl.Annotations
		if a.ReadOnlyHint == destructive || a.DestructiveHint == nil || *a.DestructiveHint != destructive {
			t.Errorf("%s: annotations %+v", name, a)
		}
	}
}

func TestViewOverMCP(t *testing.T) {
	c := newFileClient(t, hands.Options{})
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(c.root, "pic.png"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	res := c.call("view", map[string]any{"path": "pic.png"})
	img, ok := res.Content[0].(*mcp.ImageContent)
	if res.IsError || !ok || img.MIMEType != "image/png" || !bytes.Equal(img.Data, buf.Bytes()) {
		t.Fatalf("image result %+v", res.Content)
	}
	got, sc := c.ok("view", map[string]any{"path": "hello.txt", "offset": 2})
	if got != "     2\tworld" || sc["kind"] != "text" || sc["start_line"] != float64(2) {
		t.Errorf("window: %q %v", got, sc)
	}
	c.fail("PATH_NOT_FOUND", "view", map[string]any{"path": "nope.txt"})
}

func TestCreateFileOverMCP(t *testing.T) {
	c := newFileClient(t, hands.Options{})
	got, sc := c.ok("create_file", map[string]any{"path": "src/new.go", "content": "package src\n"})
	if sc["action"] != "created" || sc["bytes"] != float64(12) || sc["path"] != filepath.Join(c.root, "src/new.go") {
		t.Errorf("structured %v", sc)
	}
	if !strings.HasPrefix(got, "Created "+filepath.Join(c.root, "src/new.go")) || c.file("src/new.go") != "package src\n" {
		t.Errorf("text %q, file %q", got, c.file("src/new.go"))
	}
	msg := c.fail("FILE_NOT_VIEWED", "create_file", map[string]any{"path": "hello.txt", "content": "bye\n"})
	if !strings.Contains(msg, "read it first") || c.file("hello.txt") != "hello\nworld\n" {
		t.Errorf("message %q; file %q", msg, c.file("hello.txt"))
	}
	c.ok("view", map[string]any{"path": "hello.txt"})
	if _, sc := c.ok("create_file", map[string]any{"path": "hello.txt", "content": "bye\n"}); sc["action"] != "overwrote" {
		t.Errorf("structured %v", sc)
	}
	c.fail("INVALID_INPUT", "create_file", map[string]any{"path": "x.txt"})
	c.fail("ACCESS_DENIED", "create_file", map[string]any{"path": "/etc/hands.txt", "content": "x"})
}

func TestStrReplaceOverMCP(t *testing.T) {
	c := newFileClient(t, hands.Options{})
	if err := os.WriteFile(filepath.Join(c.root, "win.txt"), []byte("a = 1\r\nb = 2\r\nb = 2\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.fail("FILE_NOT_VIEWED", "str_replace", map[string]any{"path": "win.txt", "old_str": "a = 1", "new_str": "a = 3"})
	c.ok("view", map[string]any{"path": "win.txt"})
	got, sc := c.ok("str_replace", map[string]any{"path": "win.txt", "old_str": "a = 1\nb = 2", "new_str": "a = 3\nb = 2"})
	if sc["replacements"] != float64(1) || !strings.Contains(sc["diff"].(string), "+a = 3") || !strings.Contains(got, "-a = 1\n+a = 3") {
		t.Errorf("text %q, structured %v", got, sc)
	}
	if c.file("win.txt") != "a = 3\r\nb = 2\r\nb = 2\r\n" {
		t.Errorf("file %q", c.file("win.txt"))
	}
	msg := c.fail("STR_REPLACE_AMBIGUOUS", "str_replace", map[string]any{"path": "win.txt", "old_str": "b = 2", "new_str": "b = 4"})
	if !strings.Contains(msg, "2 times") || !strings.Contains(msg, "replace_all") || !strings.Contains(msg, "lines 2 and 3") {
		t.Errorf("message %q", msg)
	}
	c.fail("STR_REPLACE_NOT_FOUND", "str_replace", map[string]any{"path": "win.txt", "old_str": "c = 3", "new_str": "c = 4"})
	c.ok("str_replace", map[string]any{"path": "win.txt", "old_str": "b = 2", "new_str": "b = 4", "replace_all": true})
	if c.file("win.txt") != "a = 3\r\nb = 4\r\nb = 4\r\n" {
		t.Errorf("file %q", c.file("win.txt"))
	}
}

func TestMultiEditOverMCP(t *testing.T) {
	c := newFileClient(t, hands.Options{})
	c.ok("view", map[string]any{"path": "hello.txt"})
	edits := []any{
		map[string]any{"old_str": "hello", "new_str": "goodbye"},
		map[string]any{"old_str": "goodbye\nworld", "new_str": "goodbye\ncruel world"},
	}
	_, sc := c.ok("multi_edit", map[string]any{"path": "hello.txt", "edits": edits})
	if sc["edits"] != float64(2) || c.file("hello.txt") != "goodbye\ncruel world\n" {
		t.Errorf("structured %v, file %q", sc, c.file("hello.txt"))
	}
	edits = append(edits[:1:1], map[string]any{"old_str": "absent", "new_str": "x"})
	c.fail("STR_REPLACE_NOT_FOUND", "multi_edit", map[string]any{"path": "hello.txt", "edits": edits})
	if c.file("hello.txt") != "goodbye\ncruel world\n" {
		t.Errorf("a failed multi-edit changed the file to %q", c.file("hello.txt"))
	}
}

func TestNotebookEditOverMCP(t *testing.T) {
	c := newFileClient(t, hands.Options{})
	nb := `{"cells": [{"cell_type": "code", "execution_count": null, "id": "c1", "metadata": {}, "outputs": [], "source": ["x = 1"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`
	if err := os.WriteFile(filepath.Join(c.root, "nb.ipynb"), []byte(nb), 0o644); err != nil {
		t.Fatal(err)
	}
	got, _ := c.ok("view", map[string]any{"path": "nb.ipynb"})
	if !strings.Contains(got, `<cell index="0" id="c1" type="code">`) {
		t.Errorf("notebook read as %q", got)
	}
	_, sc := c.ok("notebook_edit", map[string]any{"path": "nb.ipynb", "cell_id": "c1", "new_source": "x = 2"})
	if sc["cell_index"] != float64(0) || sc["edit_mode"] != "replace" || !strings.Contains(c.file("nb.ipynb"), `"source": ["x = 2"]`) {
		t.Errorf("structured %v, file %s", sc, c.file("nb.ipynb"))
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(c.file("nb.ipynb")), &v); err != nil {
		t.Errorf("notebook is no longer JSON: %v", err)
	}
	c.fail("INVALID_INPUT", "notebook_edit", map[string]any{"path": "nb.ipynb", "cell_id": "zz", "new_source": "y"})
}

// TestListOverMCP serves the core list tool, which the native profile does
// not expose (it lists directories through view), as an extra tool.
func TestListOverMCP(t *testing.T) {
	c := newFileClient(t, hands.Options{Tools: []tool.Tool{tools.List()}})
	for name, data := range map[string]string{".git/HEAD": "ref: refs/heads/main\n", ".gitignore": "*.log\n", "app.log": "x", "sub/a.txt": "a"} {
		p := filepath.Join(c.root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if a := c.tools["list"].Annotations; !a.ReadOnlyHint || !a.IdempotentHint {
		t.Errorf("annotations %+v", a)
	}
	got, sc := c.ok("list", map[string]any{"path": "."})
	want := c.root + "/\n- .gitignore\n- hello.txt\n- sub/\n\n(2 ignored entries not shown)"
	if got != want || sc["ignored"] != float64(2) || len(sc["entries"].([]any)) != 3 {
		t.Errorf("text %q, want %q; structured %v", got, want, sc)
	}
	c.fail("INVALID_INPUT", "list", map[string]any{"path": "hello.txt"})
}

// TestViewHonoursGitignoresAbove: a directory listed below a repository's
// top hides what the .gitignore files of the directories above it and its
// own ignore; outside a repository (its .git gone) they do not apply.
func TestViewHonoursGitignoresAbove(t *testing.T) {
	c := newFileClient(t, hands.Options{})
	write := func(files map[string]string) {
		for name, data := range files {
			p := filepath.Join(c.root, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	write(map[string]string{".git/HEAD": "ref: refs/heads/main\n", ".gitignore": "*.log\n", "sub/.gitignore": "*.tmp\n",
		"sub/deep/a.txt": "a", "sub/deep/b.log": "b", "sub/deep/c.tmp": "c", "sub/deep/.gitignore": "/d.md\n", "sub/deep/d.md": "d"})
	dir := filepath.Join(c.root, "sub", "deep")
	got, _ := c.ok("view", map[string]any{"path": "sub/deep"})
	if want := dir + "/\n  - .gitignore\n  - a.txt"; got != want {
		t.Errorf("in a repository:\n%s\nwant\n%s", got, want)
	}
	if err := os.RemoveAll(filepath.Join(c.root, ".git")); err != nil {
		t.Fatal(err)
	}
	got, _ = c.ok("view", map[string]any{"path": "sub/deep"})
	if want := dir + "/\n  - .gitignore\n  - a.txt\n  - b.log\n  - c.tmp\n  - d.md"; got != want {
		t.Errorf("outside a repository:\n%s\nwant\n%s", got, want)
	}
}
