package mcpclient_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hands-dev/hands/internal/mcpclient"
)

func env(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
}

// TestParseServers reads Claude Code's entry shapes and expands ${VAR}
// and ${VAR:-default} where Claude Code does: command, args, env, url and
// headers.
func TestParseServers(t *testing.T) {
	raw := `{
	  "files": {"command": "${BIN}/server", "args": ["--root", "${HOME_DIR:-/home}", "$NOT_EXPANDED"], "env": {"TOKEN": "${TOKEN}"}},
	  "api": {"type": "http", "url": "https://${HOST}/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
	  "old": {"type": "sse", "url": "http://localhost:9/sse"},
	  "plain": {"type": "stdio", "command": "srv"}
	}`
	got, err := mcpclient.ParseServers("/p/.mcp.json", json.RawMessage(raw), env(map[string]string{"BIN": "/opt", "TOKEN": "t0k", "HOST": "example.com"}))
	if err != nil {
		t.Fatal(err)
	}
	want := []mcpclient.Server{
		{Name: "api", Source: "/p/.mcp.json", Type: "http", URL: "https://example.com/mcp", Headers: map[string]string{"Authorization": "Bearer t0k"}},
		{Name: "files", Source: "/p/.mcp.json", Type: "stdio", Command: "/opt/server", Args: []string{"--root", "/home", "$NOT_EXPANDED"}, Env: map[string]string{"TOKEN": "t0k"}},
		{Name: "old", Source: "/p/.mcp.json", Type: "sse", URL: "http://localhost:9/sse"},
		{Name: "plain", Source: "/p/.mcp.json", Type: "stdio", Command: "srv"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

// TestMalformedEntries: each malformed entry is an error naming the file,
// the server and what is wrong.
func TestMalformedEntries(t *testing.T) {
	cases := []struct{ entry, want string }{
		{`{"args": ["x"]}`, `needs a non-empty "command"`},
		{`{"command": "${EMPTY:-}"}`, `needs a non-empty "command"`},
		{`{"command": 5}`, `command and url are strings`},
		{`{"command": "x", "args": "y"}`, `args a list of strings`},
		{`{"command": "x", "comand": "y"}`, `unknown key "comand"`},
		{`{"type": "http"}`, `needs a "url"`},
		{`{"url": "http://x"}`, `needs "type": "http"`},
		{`{"type": "ws", "url": "ws://x"}`, `type "ws" is not supported`},
		{`{"type": "http", "url": "http://x", "command": "y"}`, `not command, args or env`},
		{`{"command": "x", "url": "http://x"}`, `not url or headers`},
		{`{"command": "${MISSING}", "args": ["${ALSO_MISSING}", "${MISSING}"]}`, `environment variables not set: ALSO_MISSING, MISSING`},
		{`{"type": "http", "url": "http://x", "oauth": {}}`, `OAuth is not supported`},
		{`"npx server"`, `the entry must be an object`},
		{`null`, `the entry must be an object`},
	}
	for _, c := range cases {
		_, err := mcpclient.ParseServers("/p/.mcp.json", json.RawMessage(`{"srv": `+c.entry+`}`), env(nil))
		if err == nil || !strings.Contains(err.Error(), `/p/.mcp.json: MCP server "srv": `) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming the file, the server and %q", c.entry, err, c.want)
		}
	}
	for _, doc := range []string{`[]`, `null`, `"x"`} {
		if _, err := mcpclient.ParseServers("f.json", json.RawMessage(doc), env(nil)); err == nil || !strings.Contains(err.Error(), "f.json: mcpServers must be an object") {
			t.Errorf("%s: %v", doc, err)
		}
	}
	if _, err := mcpclient.ParseServers("f.json", json.RawMessage(`{"...": {"command": "x"}}`), env(nil)); err == nil || !strings.Contains(err.Error(), `"..."`) {
		t.Errorf("a name without a letter: %v", err)
	}
}

// TestLoadFileScopes reads ~/.claude.json's user servers and its entry
// for the project (Claude Code's local scope); a missing file has none.
func TestLoadFileScopes(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, ".claude.json")
	doc := `{"mcpServers": {"u": {"command": "user"}}, "projects": {"/proj": {"mcpServers": {"l": {"command": "local"}}}, "/other": {"mcpServers": {"o": {"command": "x"}}}}, "theme": "dark"}`
	if err := os.WriteFile(f, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := mcpclient.LoadFile(f, "/proj", env(nil))
	if err != nil || len(got) != 2 || got[0].Command != "user" || got[1].Command != "local" || !strings.Contains(got[1].Source, "projects./proj") {
		t.Errorf("got %+v, %v", got, err)
	}
	if got, err := mcpclient.LoadFile(filepath.Join(dir, "none.json"), "", env(nil)); got != nil || err != nil {
		t.Errorf("missing file: %v %v", got, err)
	}
	if err := os.WriteFile(f, []byte(`{"mcpServers": {"bad": {}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := mcpclient.LoadFile(f, "", env(nil)); err == nil || !strings.Contains(err.Error(), f+`: MCP server "bad"`) {
		t.Errorf("malformed: %v", err)
	}
}

// TestMerge: a later scope replaces a server of the same name; two names
// that qualify alike are refused.
func TestMerge(t *testing.T) {
	got, err := mcpclient.Merge([]mcpclient.Server{{Name: "a", Command: "1"}, {Name: "b", Command: "1"}}, []mcpclient.Server{{Name: "a", Command: "2"}})
	if err != nil || len(got) != 2 || got[0].Command != "2" || got[1].Command != "1" {
		t.Errorf("got %+v %v", got, err)
	}
	_, err = mcpclient.Merge([]mcpclient.Server{{Name: "my.srv", Source: "x"}, {Name: "my_srv", Source: "y"}})
	if err == nil || !strings.Contains(err.Error(), "mcp__my_srv__") {
		t.Errorf("clash: %v", err)
	}
}

// FuzzParseServers: any input parses or fails with an error, never a
// panic, and what parses is a usable entry.
func FuzzParseServers(f *testing.F) {
	f.Add(`{"a": {"command": "${X:-y}", "args": ["${Y}"]}}`)
	f.Add(`{"b": {"type": "http", "url": "${U}", "headers": {"h": "${}"}}}`)
	f.Add(`{"c": {"type": "sse", "url": "x"}, "d": {"command": "${X:-}"}}`)
	f.Fuzz(func(t *testing.T, s string) {
		got, err := mcpclient.ParseServers("f", json.RawMessage(s), env(map[string]string{"X": "1", "U": "http://u"}))
		if err != nil {
			return
		}
		for _, srv := range got {
			if mcpclient.Qualify(srv.Name) == "" {
				t.Errorf("server %q has no usable name", srv.Name)
			}
			switch srv.Type {
			case "stdio":
				if srv.Command == "" {
					t.Errorf("stdio server %q without a command", srv.Name)
				}
			case "http", "sse":
				if srv.URL == "" {
					t.Errorf("%s server %q without a url", srv.Type, srv.Name)
				}
			default:
				t.Errorf("server %q of type %q", srv.Name, srv.Type)
			}
		}
	})
}
