package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// structuredClient serves a runtime over one root holding a.txt with the
// server options given.
func structuredClient(t *testing.T, mo mcpserver.Options) (*mcp.ClientSession, string) {
	t.Helper()
	return namedClient(t, mo, "test")
}

// namedClient is structuredClient with the client's clientInfo name.
func namedClient(t *testing.T, mo mcpserver.Options, client string) (*mcp.ClientSession, string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha secret-line\nbeta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rt, err := hands.New(hands.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	srv := mcpserver.New(rt, mo)
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: client, Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); srv.Close() })
	return cs, root
}

// structuredOf calls a tool and returns its text and its structured
// content as a JSON object.
func structuredOf(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, map[string]any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("%s: %v", name, res.Content)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if res.StructuredContent == nil {
		return text, nil
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return text, m
}

// TestStructuredContentIsMetadataNotASecondCopy pins that a read's, a
// command's, a glob's and a search's structured content carries their
// metadata and never the file's lines or the command's output, which the
// text already carries.
func TestStructuredContentIsMetadataNotASecondCopy(t *testing.T) {
	cs, root := structuredClient(t, mcpserver.Options{})
	a := filepath.Join(root, "a.txt")
	cases := []struct {
		tool string
		args map[string]any
		// want are keys the structured content must have, with their
		// values when not nil; gone are keys it must not have.
		want map[string]any
		gone []string
	}{
		{"view", map[string]any{"path": a}, map[string]any{"path": a, "kind": "text", "start_line": 1.0, "total_lines": 2.0, "encoding": "UTF-8", "size": 23.0}, []string{"lines"}},
		{"view", map[string]any{"path": root}, map[string]any{"path": root, "kind": "directory"}, []string{"lines"}},
		{"bash", map[string]any{"command": "echo secret-$((1))line; exit 3"}, map[string]any{"exit_code": 3.0, "pgid": nil, "cwd": root, "output_bytes": 13.0}, []string{"output", "stdout", "stderr"}},
		{"glob", map[string]any{"pattern": "*.txt"}, map[string]any{"total": 1.0, "dir": root}, []string{"paths"}},
		{"grep", map[string]any{"pattern": "secret", "output_mode": "content"}, map[string]any{"num_files": 1.0, "num_matches": 1.0, "files": nil}, []string{"lines"}},
	}
	for _, c := range cases {
		text, m := structuredOf(t, cs, c.tool, c.args)
		if !strings.Contains(text, "secret-") && !strings.Contains(text, "a.txt") {
			t.Errorf("%s %v: the text lost the payload: %q", c.tool, c.args, text)
		}
		for k, v := range c.want {
			got, ok := m[k]
			if !ok || (v != nil && got != v) {
				t.Errorf("%s %v: structured %q = %v (present %v), want %v; all: %v", c.tool, c.args, k, got, ok, v, m)
			}
		}
		for _, k := range c.gone {
			if _, ok := m[k]; ok {
				t.Errorf("%s %v: structured content carries %q again: %v", c.tool, c.args, k, m)
			}
		}
		if b, _ := json.Marshal(m); strings.Contains(string(b), "secret-line") || strings.Contains(string(b), "secret-1line") {
			t.Errorf("%s %v: structured content repeats the payload: %s", c.tool, c.args, b)
		}
	}
}

// TestStructuredContentNone pins the text-only mode: no output schema in
// the tool list, no structured content in a result, the text unchanged.
func TestStructuredContentNone(t *testing.T) {
	full, root := structuredClient(t, mcpserver.Options{})
	none, root2 := structuredClient(t, mcpserver.Options{StructuredContent: mcpserver.StructuredNone})
	tools, err := none.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		if tl.OutputSchema != nil {
			t.Errorf("%s declares an output schema in mode none", tl.Name)
		}
	}
	want, _ := structuredOf(t, full, "view", map[string]any{"path": "a.txt"})
	got, m := structuredOf(t, none, "view", map[string]any{"path": "a.txt"})
	if m != nil {
		t.Errorf("mode none sent structured content %v", m)
	}
	if strings.ReplaceAll(got, root2, root) != want {
		t.Errorf("mode none changed the text:\n%s\nwant\n%s", got, want)
	}
}

func TestParseStructuredContent(t *testing.T) {
	for in, want := range map[string]mcpserver.StructuredContent{"": mcpserver.StructuredAuto, "auto": mcpserver.StructuredAuto, "metadata": mcpserver.StructuredMetadata, "none": mcpserver.StructuredNone} {
		if got, err := mcpserver.ParseStructuredContent(in); err != nil || got != want {
			t.Errorf("ParseStructuredContent(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := mcpserver.ParseStructuredContent("full"); err == nil || !strings.Contains(err.Error(), "auto, metadata or none") {
		t.Errorf("ParseStructuredContent(full) = %v; want an error naming the modes", err)
	}
}

// TestStructuredContentAutoIsTextOnlyForClaudeCode pins the default mode:
// Claude Code (clientInfo claude-code) hands the model the structured
// content in place of the text, so it gets no output schemas and no
// structured content and its model reads the text; another client gets the
// schemas and the metadata.
func TestStructuredContentAutoIsTextOnlyForClaudeCode(t *testing.T) {
	for _, c := range []struct {
		client   string
		textOnly bool
	}{{"claude-code", true}, {"other-client", false}} {
		cs, _ := namedClient(t, mcpserver.Options{}, c.client)
		tools, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		schemas := 0
		for _, tl := range tools.Tools {
			if tl.OutputSchema != nil {
				schemas++
			}
		}
		if (schemas == 0) != c.textOnly {
			t.Errorf("%s: %d of %d tools declare an output schema; text only %v", c.client, schemas, len(tools.Tools), c.textOnly)
		}
		text, m := structuredOf(t, cs, "view", map[string]any{"path": "a.txt"})
		if (m == nil) != c.textOnly {
			t.Errorf("%s: structured content %v; text only %v", c.client, m, c.textOnly)
		}
		if !strings.Contains(text, "alpha secret-line") {
			t.Errorf("%s: the text lost the file: %q", c.client, text)
		}
	}
}
