package mcpclient_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/internal/mcpclient"
	"github.com/hands-dev/hands/tool"
)

// The gateway through a hands.Runtime: remote tools pass the same stages
// as the built-in ones.

func runtime(t *testing.T, opts hands.Options) (*hands.Runtime, *hands.Session) {
	t.Helper()
	if opts.Roots == nil {
		opts.Roots = []string{t.TempDir()}
	}
	rt, err := hands.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	s, err := rt.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	return rt, s
}

func call(s *hands.Session, name, input string) tool.Result {
	return s.Call(context.Background(), tool.Call{ID: "c1", Name: name, Input: json.RawMessage(input)})
}

// TestRuleDeniesOneRemoteTool: a deny rule on mcp__server__tool refuses
// that tool and nothing else of the server; an mcp__server rule covers all
// of them.
func TestRuleDeniesOneRemoteTool(t *testing.T) {
	rt, s := runtime(t, hands.Options{MCPServers: []hands.MCPServer{stdio("fake"), stdio("other")},
		Permissions: hands.PermissionRules{Deny: []string{"mcp__fake__fail", "mcp__other"}}})
	names := map[string]bool{}
	for _, info := range rt.Tools() {
		names[info.Name] = true
	}
	if !names["view"] || !names["mcp__fake__echo"] || !names["mcp__other__echo"] {
		t.Fatalf("tools %v lack the built-ins or the remote ones", names)
	}
	res := call(s, "mcp__fake__fail", `{}`)
	if res.Code != tool.PermissionDenied || !strings.Contains(res.TextOf(), "mcp__fake__fail") {
		t.Errorf("denied tool: %+v", res)
	}
	if res := call(s, "mcp__fake__echo", `{"text":"a"}`); res.IsError || res.TextOf() != "echo: a" {
		t.Errorf("the server's other tool: %+v", res)
	}
	if res := call(s, "mcp__other__echo", `{"text":"a"}`); res.Code != tool.PermissionDenied || !strings.Contains(res.TextOf(), "mcp__other") {
		t.Errorf("a denied server: %+v", res)
	}
}

// TestHookRewritesRemoteInput: a PreToolUse hook matched on the qualified
// name rewrites the call's input before the server sees it; a command
// hook blocks another remote tool, and PostToolUse sees the result.
func TestHookRewritesRemoteInput(t *testing.T) {
	var post []string
	hooks := tool.Hooks{
		PreToolUse: []tool.PreToolUse{func(_ context.Context, _ *tool.Env, info tool.Info, c tool.Call) tool.HookDecision {
			if info.Name == "mcp__fake__echo" && strings.Contains(string(c.Input), "secret") {
				return tool.HookDecision{Input: json.RawMessage(`{"text":"[redacted]"}`)}
			}
			return tool.HookDecision{}
		}},
		PostToolUse: []tool.PostToolUse{func(_ context.Context, _ *tool.Env, info tool.Info, _ tool.Call, res *tool.Result) {
			post = append(post, info.Name+": "+res.TextOf())
		}},
	}
	_, s := runtime(t, hands.Options{MCPServers: []hands.MCPServer{stdio("fake")}, Hooks: hooks,
		HookCommands: []hands.HookCommand{{Event: "PreToolUse", Matcher: "mcp__fake__im.*", Command: "echo 'no pictures' >&2; exit 2"}}})
	if res := call(s, "mcp__fake__echo", `{"text":"my secret"}`); res.TextOf() != "echo: [redacted]" {
		t.Errorf("rewritten call: %+v", res)
	}
	if res := call(s, "mcp__fake__image", `{}`); res.Code != tool.PermissionDenied || !strings.Contains(res.TextOf(), "no pictures") {
		t.Errorf("blocked call: %+v", res)
	}
	if len(post) != 1 || post[0] != "mcp__fake__echo: echo: [redacted]" {
		t.Errorf("PostToolUse saw %q", post)
	}
}

// TestPlanModeAppliesToRemoteTools: in plan mode a remote tool the server
// declares read-only runs and one that is not is refused.
func TestPlanModeAppliesToRemoteTools(t *testing.T) {
	_, s := runtime(t, hands.Options{MCPServers: []hands.MCPServer{stdio("fake")}})
	if err := s.SetPermissionMode("plan"); err != nil {
		t.Fatal(err)
	}
	if res := call(s, "mcp__fake__echo", `{"text":"a"}`); res.IsError {
		t.Errorf("read-only tool in plan mode: %+v", res)
	}
	if res := call(s, "mcp__fake__image", `{}`); res.Code != tool.PermissionDenied || !strings.Contains(res.TextOf(), "Plan mode is active") {
		t.Errorf("other tool in plan mode: %+v", res)
	}
}

// TestOversizedRemoteResultIsSaved: a remote result over the limit is cut
// and kept whole in a file the message names, as for built-in tools.
func TestOversizedRemoteResultIsSaved(t *testing.T) {
	_, s := runtime(t, hands.Options{MCPServers: []hands.MCPServer{stdio("fake")}})
	res := call(s, "mcp__fake__big", `{"n":40000}`)
	text := res.TextOf()
	m := regexp.MustCompile(`saved in (\S+) `).FindStringSubmatch(text)
	if res.IsError || !strings.HasPrefix(text, strings.Repeat("x", tool.DefaultMaxResultChars)+"\n\n[result cut: showing 30000 of 40000 characters") || m == nil {
		t.Fatalf("big result: %.200q…", text[len(text)-300:])
	}
	whole, err := os.ReadFile(m[1])
	if err != nil || string(whole) != strings.Repeat("x", 40000) {
		t.Errorf("saved result %s: %d bytes, %v", m[1], len(whole), err)
	}
}

// TestMalformedConfigFailsStart: a malformed entry in a config file stops
// the runtime from starting, naming the file and the server.
func TestMalformedConfigFailsStart(t *testing.T) {
	f := filepath.Join(t.TempDir(), "servers.json")
	if err := os.WriteFile(f, []byte(`{"mcpServers": {"good": {"command": "x"}, "broken": {"type": "http"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := hands.New(hands.Options{Roots: []string{t.TempDir()}, MCPConfigFiles: []string{f}})
	if err == nil || !strings.Contains(err.Error(), f) || !strings.Contains(err.Error(), `MCP server "broken"`) || !strings.Contains(err.Error(), `needs a "url"`) {
		t.Errorf("error %v, want one naming %s and the server", err, f)
	}
	if err := os.WriteFile(f, []byte(`{"servers": {}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := hands.New(hands.Options{Roots: []string{t.TempDir()}, MCPConfigFiles: []string{f}}); err == nil || !strings.Contains(err.Error(), `"mcpServers" object`) {
		t.Errorf("a file without mcpServers: %v", err)
	}
}

// TestProjectServersNeedApproval: the project's .mcp.json servers start
// only once approved in the settings, as Claude Code's do; the user's
// ~/.claude.json servers start.
func TestProjectServersNeedApproval(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("FAKE_BIN", fakeServer)
	root := t.TempDir()
	mcpJSON := `{"mcpServers": {"proj": {"command": "${FAKE_BIN}"}}}`
	if err := os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(mcpJSON), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(`{"mcpServers": {"user": {"command": "${FAKE_BIN}"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	rt, s := runtime(t, hands.Options{Roots: []string{root}, ProjectSettings: true})
	st := rt.MCPServers()
	if len(st) != 2 || st[0].Name != "user" || st[0].State != mcpclient.StateConnected || st[1].Name != "proj" || st[1].State != "not approved" || !strings.Contains(st[1].Err, "enabledMcpjsonServers") {
		t.Errorf("status %+v", st)
	}
	if res := call(s, "mcp__proj__echo", `{"text":"x"}`); res.Code != tool.UnknownTool {
		t.Errorf("an unapproved server's tool: %+v", res)
	}
	if err := os.MkdirAll(filepath.Join(root, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".claude", "settings.local.json"), []byte(`{"enabledMcpjsonServers": ["proj"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, s = runtime(t, hands.Options{Roots: []string{root}, ProjectSettings: true})
	if res := call(s, "mcp__proj__echo", `{"text":"x"}`); res.TextOf() != "echo: x" {
		t.Errorf("an approved server's tool: %+v", res)
	}
}
