package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hands-dev/hands/internal/claudedirs"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "hands-bin-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "hands")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building hands: %v\n%s", err, out)
		os.Exit(1)
	}
	cleanup := claudedirs.Isolate()
	code := m.Run()
	cleanup()
	os.RemoveAll(dir)
	os.Exit(code)
}

func workspace(t *testing.T) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha\nbeta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func runCLI(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &o, &e)
	return o.String(), e.String(), code
}

func TestCallPrintsTextAndExitCodes(t *testing.T) {
	root := workspace(t)
	out, errOut, code := runCLI(t, "", "call", "--root", root, "view", `{"path":"a.txt"}`)
	if code != exitOK || out != "     1\talpha\n     2\tbeta\n" {
		t.Errorf("call: code %d out %q err %q", code, out, errOut)
	}
	out, _, code = runCLI(t, "", "call", "--root", root, "view", `{"path":"missing.txt"}`)
	if code != exitTool || !strings.HasPrefix(out, "[PATH_NOT_FOUND] ") {
		t.Errorf("tool error: code %d out %q", code, out)
	}
	out, _, code = runCLI(t, `{"path":"a.txt","offset":2}`, "call", "--root", root, "view", "-")
	if code != exitOK || out != "     2\tbeta\n" {
		t.Errorf("stdin arguments: code %d out %q", code, out)
	}
}

func TestUsageErrorsExitTwo(t *testing.T) {
	root := workspace(t)
	for _, args := range [][]string{
		{},
		{"frobnicate"},
		{"call", "--root", root},
		{"call", "--root", root, "view", "{not json"},
		{"call", "--root", root, "--profile", "nope", "view", "{}"},
		{"call", "--root", filepath.Join(root, "missing"), "view", "{}"},
		{"call", "--root", root, "--max-file-size", "-3", "view", "{}"},
		{"call", "--root", root, "--bash-timeout", "soon", "view", "{}"},
		{"call", "--root", root, "--disable-tools", "nosuchtool", "view", "{}"},
		{"serve", "--bogus"},
		{"serve", "extra"},
		{"tools", "--root", root, "extra"},
		{"version", "extra"},
		{"run", "--root", root, "extra"},
		{"tools", "--config", filepath.Join(root, "none.json")},
	} {
		_, errOut, code := runCLI(t, "", args...)
		if code != exitUsage {
			t.Errorf("%q: exit %d, want 2 (stderr %q)", args, code, errOut)
		}
		if errOut == "" {
			t.Errorf("%q: no message on stderr", args)
		}
	}
}

func TestHelpOnEveryCommand(t *testing.T) {
	for _, cmd := range []string{"serve", "call", "run", "tools", "version"} {
		_, errOut, code := runCLI(t, "", cmd, "--help")
		if code != exitOK || !strings.Contains(errOut, "Usage: hands "+cmd) {
			t.Errorf("%s --help: code %d, %q", cmd, code, errOut)
		}
	}
	out, _, code := runCLI(t, "", "help")
	if code != exitOK || !strings.Contains(out, "hands serve") {
		t.Errorf("help: %d %q", code, out)
	}
}

func TestConfigFileAndFlagsOverride(t *testing.T) {
	root := workspace(t)
	other := workspace(t)
	cfg := filepath.Join(t.TempDir(), "hands.json")
	body := fmt.Sprintf(`{"roots":[%q],"deny":["a.txt"],"max_file_size":1000}`, root)
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI(t, "", "call", "--config", cfg, "view", `{"path":"a.txt"}`)
	if code != exitTool || !strings.HasPrefix(out, "[ACCESS_DENIED]") {
		t.Errorf("config deny: %d %q", code, out)
	}
	out, _, code = runCLI(t, "", "call", "--config", cfg, "--root", other, "view", `{"path":"b.txt"}`)
	if code != exitTool || !strings.Contains(out, other) {
		t.Errorf("--root overrides config roots: %d %q", code, out)
	}
	if err := os.WriteFile(cfg, []byte(`{"rootz":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runCLI(t, "", "tools", "--config", cfg)
	if code != exitUsage || !strings.Contains(errOut, "rootz") {
		t.Errorf("unknown config key: %d %q", code, errOut)
	}
}

func TestRunReadsJSONLines(t *testing.T) {
	root := workspace(t)
	in := `{"id":"1","name":"view","input":{"path":"a.txt"}}
[{"id":"2","name":"view","input":{"path":"a.txt","offset":2}},{"id":"3","name":"view","input":{"path":"nope"}}]
not json
`
	out, _, code := runCLI(t, in, "run", "--root", root)
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("got %d lines: %s", len(lines), out)
	}
	var r resultLine
	if err := json.Unmarshal([]byte(lines[2]), &r); err != nil {
		t.Fatal(err)
	}
	if r.ID != "3" || !r.IsError || r.Code != "PATH_NOT_FOUND" {
		t.Errorf("third result %+v", r)
	}
	if !strings.Contains(lines[3], "error") {
		t.Errorf("bad line must produce an error line: %s", lines[3])
	}
}

func TestToolsJSON(t *testing.T) {
	root := workspace(t)
	out, _, code := runCLI(t, "", "tools", "--root", root, "--json")
	var defs []map[string]any
	if code != exitOK || json.Unmarshal([]byte(out), &defs) != nil || len(defs) == 0 {
		t.Fatalf("tools --json: %d %q", code, out)
	}
	if defs[0]["name"] != "view" || defs[0]["input_schema"] == nil {
		t.Errorf("first tool %v", defs[0])
	}
}

// TestServeOverRealStdio runs the built binary and talks MCP to it through
// its stdin and stdout, with the SDK's client.
func TestServeOverRealStdio(t *testing.T) {
	root := workspace(t)
	cmd := exec.Command(binary, "serve", "--root", root)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "stdio-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v (stderr %s)", err, stderr.String())
	}
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Errorf("the SDK's default client negotiated %s, want the stateless 2026-07-28", v)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) == 0 {
		t.Fatalf("list: %v", err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "view", Arguments: map[string]any{"path": "a.txt"}})
	if err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "     1\talpha\n     2\tbeta" {
		t.Errorf("text %q", got)
	}
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
}

// TestServeOlderProtocolVersion speaks raw JSON-RPC as a client of the
// 2024-11-05 protocol would, and checks stdout carries only JSON-RPC.
func TestServeOlderProtocolVersion(t *testing.T) {
	for _, version := range []string{"2024-11-05", "2025-03-26", "2025-06-18"} {
		t.Run(version, func(t *testing.T) {
			root := workspace(t)
			cmd := exec.Command(binary, "serve", "--root", root, "--log-level", "debug")
			stdin, _ := cmd.StdinPipe()
			stdout, _ := cmd.StdoutPipe()
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			r := bufio.NewReader(stdout)
			send := func(s string) { io.WriteString(stdin, s+"\n") }
			recv := func() map[string]any {
				line, err := r.ReadString('\n')
				if err != nil {
					t.Fatalf("reading: %v (stderr %s)", err, stderr.String())
				}
				var m map[string]any
				if err := json.Unmarshal([]byte(line), &m); err != nil {
					t.Fatalf("stdout line is not JSON-RPC: %q", line)
				}
				return m
			}
			send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"old","version":"0"}}}`)
			init := recv()
			if got := init["result"].(map[string]any)["protocolVersion"]; got != version {
				t.Errorf("negotiated %v, want %s", got, version)
			}
			send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"view","arguments":{"path":"a.txt"}}}`)
			res := recv()["result"].(map[string]any)
			if res["isError"] == true {
				t.Errorf("call failed: %v", res)
			}
			stdin.Close()
			done := make(chan error)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatal("server did not exit when stdin closed")
			}
		})
	}
}

// TestServeOverHTTP runs the built binary with --http and talks to it with
// the SDK's Streamable HTTP client.
func TestServeOverHTTP(t *testing.T) {
	root := workspace(t)
	cmd := exec.Command(binary, "serve", "--root", root, "--http", "127.0.0.1:0", "--http-token", "s3cret")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan error)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Error("server did not stop on SIGINT")
		}
	}()
	line, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(line, "http://")
	if i < 0 {
		t.Fatalf("no address in %q", line)
	}
	url := strings.TrimSpace(line[i:])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := http.Post(url, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("request without the token: status %d, want 401", resp.StatusCode)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil)
	hc := &http.Client{Transport: authTransport{"s3cret"}}
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" || cs.ID() != "" {
		t.Errorf("the SDK's default client negotiated %s with session %q, want the stateless 2026-07-28", v, cs.ID())
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "view", Arguments: map[string]any{"path": "a.txt"}})
	if err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "     1\talpha\n     2\tbeta" {
		t.Errorf("text %q", got)
	}
}

type authTransport struct{ token string }

func (a authTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+a.token)
	return http.DefaultTransport.RoundTrip(r)
}

func TestServeHTTPOffLoopbackNeedsAToken(t *testing.T) {
	t.Setenv("HANDS_HTTP_TOKEN", "")
	_, errOut, code := runCLI(t, "", "serve", "--root", workspace(t), "--http", "0.0.0.0:0")
	if code != exitUsage || !strings.Contains(errOut, "--http-token") {
		t.Errorf("code %d, %q", code, errOut)
	}
}

// TestJobsDieWithTheServer starts a background job over MCP, then ends the
// server by closing its stdin or by a signal, and checks /proc for the job.
func TestJobsDieWithTheServer(t *testing.T) {
	for _, how := range []string{"stdin-closed", "SIGTERM", "SIGKILL"} {
		t.Run(how, func(t *testing.T) {
			root := workspace(t)
			cmd := exec.Command(binary, "serve", "--root", root)
			stdin, _ := cmd.StdinPipe()
			stdout, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			r := bufio.NewReader(stdout)
			send := func(s string) { io.WriteString(stdin, s+"\n") }
			recv := func() string {
				line, err := r.ReadString('\n')
				if err != nil {
					t.Fatalf("reading: %v", err)
				}
				return line
			}
			n := time.Now().UnixNano()
			marker := fmt.Sprintf("%d.%06d", 7000+n%1000, n/1000%1000000)
			send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
			recv()
			send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"bash","arguments":{"command":"sleep ` + marker + ` & sleep ` + marker + `","run_in_background":true}}}`)
			if line := recv(); !strings.Contains(line, "job-1") {
				t.Fatalf("no job started: %s", line)
			}
			deadline := time.Now().Add(30 * time.Second) // a loaded machine starts processes slowly
			for len(sleepers(marker)) < 2 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if len(sleepers(marker)) < 2 {
				t.Fatal("the job's processes did not start")
			}
			switch how {
			case "stdin-closed":
				stdin.Close()
			case "SIGTERM":
				cmd.Process.Signal(syscall.SIGTERM)
			case "SIGKILL":
				cmd.Process.Kill()
			}
			cmd.Wait()
			deadline = time.Now().Add(15 * time.Second)
			for len(sleepers(marker)) > 0 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if pids := sleepers(marker); len(pids) > 0 {
				t.Errorf("job processes outlived the server: %v", pids)
			}
		})
	}
}

func sleepers(marker string) []string {
	var pids []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(strings.ReplaceAll(string(b), "\x00", " "), "sleep "+marker) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

func TestConfigHooksInClaudeCodeShape(t *testing.T) {
	root := workspace(t)
	cfg := filepath.Join(t.TempDir(), "hands.json")
	body := `{"hooks":{"PreToolUse":[{"matcher":"view","hooks":[{"type":"command","command":"echo read-blocked >&2; exit 2","timeout":5}]}]}}`
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI(t, "", "call", "--config", cfg, "--root", root, "view", `{"path":"a.txt"}`)
	if code != exitTool || !strings.Contains(out, "read-blocked") {
		t.Errorf("hook from config: %d %q", code, out)
	}
	os.WriteFile(cfg, []byte(`{"hooks":{"PreToolUse":[{"hooks":[{"type":"prompt","command":"x"}]}]}}`), 0o644)
	if _, errOut, code := runCLI(t, "", "tools", "--config", cfg, "--root", root); code != exitUsage || !strings.Contains(errOut, "prompt") {
		t.Errorf("unsupported hook type: %d %q", code, errOut)
	}
}
