package tools_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/internal/testproc"
	"github.com/hands-dev/hands/tool"
)

// needGopls skips the test, saying why, when gopls is not installed; .ci/run
// installs it (go install golang.org/x/tools/gopls@v0.23.0).
func needGopls(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("gopls"); err != nil {
		t.Skip("SKIP: gopls is not installed, so the lsp tool cannot be tested against a real server; install it with `go install golang.org/x/tools/gopls@v0.23.0` (as .ci/run does) and put $(go env GOPATH)/bin on PATH")
	}
}

// copyTree copies the testdata module into dir.
func copyTree(t *testing.T, from, dir string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// lspSession is a session over a copy of testdata/lsp/gomod.
func lspSession(t *testing.T, opts hands.Options) (*hands.Session, string) {
	t.Helper()
	_, sess, root := newSession(t, opts)
	copyTree(t, "testdata/lsp/gomod", root)
	return sess, root
}

func callJSON(t *testing.T, sess *hands.Session, name string, in map[string]any) tool.Result {
	t.Helper()
	b, _ := json.Marshal(in)
	return sess.Call(context.Background(), tool.Call{Name: name, Input: b})
}

func lspCall(t *testing.T, sess *hands.Session, op, path string, line, char int) tool.Result {
	t.Helper()
	return callJSON(t, sess, "lsp", map[string]any{"operation": op, "path": path, "line": line, "character": char})
}

// golden compares text with testdata/lsp/NAME.golden (-update rewrites
// it), GOROOT written as $GOROOT.
func golden(t *testing.T, name, text string) {
	t.Helper()
	text = gorootless(text)
	path := filepath.Join("testdata", "lsp", name+".golden")
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if text != string(want) {
		t.Errorf("%s differs from %s:\n--- got\n%s\n--- want\n%s", name, path, text, want)
	}
}

// gorootless writes the Go installation's directory as $GOROOT.
func gorootless(text string) string {
	if goroot, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		text = strings.ReplaceAll(text, strings.TrimSpace(string(goroot)), "$GOROOT")
	}
	return text
}

func okText(t *testing.T, res tool.Result) string {
	t.Helper()
	if res.IsError {
		t.Fatalf("unexpected error: %s", res.TextOf())
	}
	return res.TextOf()
}

// TestLSPAgainstGopls asks a real gopls, through a session's lsp tool,
// every operation on a small module of three packages.
func TestLSPAgainstGopls(t *testing.T) {
	needGopls(t)
	sess, _ := lspSession(t, hands.Options{})
	cases := []struct {
		name, op, path string
		line, char     int
	}{
		// greet.Hello in main.go, defined in another package.
		{"definition_across_packages", "goToDefinition", "main.go", 11, 20},
		{"references", "findReferences", "greet/greet.go", 5, 6},
		{"hover", "hover", "main.go", 11, 20},
		{"document_symbols", "documentSymbol", "shape/shape.go", 1, 1},
		{"implementation", "goToImplementation", "shape/shape.go", 5, 6},
		{"prepare_call_hierarchy", "prepareCallHierarchy", "main.go", 15, 6},
		{"incoming_calls", "incomingCalls", "main.go", 15, 6},
		{"outgoing_calls", "outgoingCalls", "main.go", 15, 6},
		{"no_definition", "goToDefinition", "main.go", 9, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			golden(t, c.name, okText(t, lspCall(t, sess, c.op, c.path, c.line, c.char)))
		})
	}
	t.Run("workspace_symbols", func(t *testing.T) {
		// The word at the position (Square) is looked for across the
		// workspace; the module's own symbols come first.
		text := okText(t, lspCall(t, sess, "workspaceSymbol", "main.go", 12, 16))
		for _, want := range []string{`named like "Square"`, "shape/shape.go\n  10:6: struct Square in example.com/lspdemo/shape"} {
			if !strings.Contains(text, want) {
				t.Errorf("workspaceSymbol lacks %q:\n%s", want, text)
			}
		}
	})
	t.Run("bad_position", func(t *testing.T) {
		res := lspCall(t, sess, "hover", "main.go", 99, 1)
		if !res.IsError || !strings.Contains(res.TextOf(), "line 99 is past the end of main.go, which has 18 lines") {
			t.Errorf("a line past the end: %s", res.TextOf())
		}
	})
}

// TestLSPQueryAfterEditSeesTheEdit edits two files with the edit tool and
// asks at once: the server answers from the edited text (didOpen and
// didChange before the query), not from what it loaded before.
func TestLSPQueryAfterEditSeesTheEdit(t *testing.T) {
	needGopls(t)
	sess, root := lspSession(t, hands.Options{})
	// Warm the server on the files as they are.
	golden(t, "references", okText(t, lspCall(t, sess, "findReferences", "greet/greet.go", 5, 6)))

	for _, p := range []string{"main.go", "greet/greet.go"} {
		okText(t, callJSON(t, sess, "view", map[string]any{"path": filepath.Join(root, p)}))
	}
	okText(t, callJSON(t, sess, "str_replace", map[string]any{"path": filepath.Join(root, "greet/greet.go"),
		"old_str": "// Hello returns", "new_str": "// Bye says goodbye.\nfunc Bye() string { return \"bye\" }\n\n// Hello returns"}))
	okText(t, callJSON(t, sess, "str_replace", map[string]any{"path": filepath.Join(root, "main.go"),
		"old_str": "\treport(shape.Square{Side: 2})\n", "new_str": "\treport(shape.Square{Side: 2})\n\tfmt.Println(greet.Bye(), greet.Hello(\"again\"))\n"}))

	// Bye exists only in the edited greet.go, called only from the edited
	// main.go, which the server has open since the first query.
	golden(t, "definition_after_edit", okText(t, lspCall(t, sess, "goToDefinition", "main.go", 13, 20)))
	golden(t, "references_after_edit", okText(t, lspCall(t, sess, "findReferences", "greet/greet.go", 8, 6)))
}

// TestLSPClaudeTexts runs the claude profile's LSP on the calls recorded
// from Claude Code 2.1.7 with gopls (testdata/lsp/claude_code_2.1.7.jsonl,
// recorded by a copy of ../shared/oracles/claude given a plugin whose
// lspServers runs gopls) and wants its texts byte for byte. The
// differences, deliberate: Claude Code's workspaceSymbol sends the query
// "", so gopls finds nothing, where Hands looks for the name at the
// position; Claude Code names a plugin's server "plugin:NAME:SERVER"; and
// where Claude Code answers a failed request or a file type without a
// server as a plain result, Hands marks it an error (with its code in the
// structured content), as every failure is.
func TestLSPClaudeTexts(t *testing.T) {
	needGopls(t)
	sess, _ := lspSession(t, hands.Options{Profile: "claude"})
	b, err := os.ReadFile("testdata/lsp/claude_code_2.1.7.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var rec struct {
			ID      string         `json:"id"`
			Args    map[string]any `json:"args"`
			IsError bool           `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		t.Run(rec.ID, func(t *testing.T) {
			res := callJSON(t, sess, "LSP", rec.Args)
			got := gorootless(res.TextOf())
			if rec.ID == "lsp_workspace_symbols" {
				if !strings.HasPrefix(got, "Found ") || !strings.Contains(got, "shape/shape.go:\n  Square (Struct) - Line 10 in example.com/lspdemo/shape") {
					t.Errorf("workspaceSymbol:\n%s", got)
				}
				return
			}
			want := strings.ReplaceAll(rec.Content[0].Text, "'plugin:gopls-lsp:gopls'", "'gopls'")
			wantErr := rec.IsError || strings.HasPrefix(want, "Error performing") || strings.HasPrefix(want, "No LSP server available")
			if got != want || res.IsError != wantErr {
				t.Errorf("differs from Claude Code 2.1.7:\n--- got (error %v)\n%s\n--- Claude Code (error %v)\n%s", res.IsError, got, wantErr, want)
			}
		})
	}
}

// goplsChildren returns the pids of the gopls processes this test process
// started (its children), so a test never touches anyone else's.
func goplsChildren() []int {
	return testproc.Children(func(comm, _ string) bool { return strings.HasPrefix(comm, "gopls") })
}

// waitPidGone waits (bounded) until pid has exited and been reaped.
func waitPidGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err != nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("process %d still exists", pid)
}

// TestLSPServerCrashIsRestarted kills gopls under a session: the next
// call starts a new one and answers.
func TestLSPServerCrashIsRestarted(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("finds its gopls in /proc")
	}
	needGopls(t)
	sess, _ := lspSession(t, hands.Options{})
	golden(t, "definition_across_packages", okText(t, lspCall(t, sess, "goToDefinition", "main.go", 11, 20)))
	pids := goplsChildren()
	if len(pids) != 1 {
		t.Fatalf("want one gopls child, have %v", pids)
	}
	if err := syscall.Kill(pids[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitPidGone(t, pids[0])
	res := lspCall(t, sess, "goToDefinition", "main.go", 11, 20)
	if res.IsError {
		// The call raced the news of the death: it says so, and the one
		// after starts the server anew.
		if res.Code != tool.LSPServerUnavailable || !strings.Contains(res.TextOf(), "exited") || !strings.Contains(res.TextOf(), "the next call starts it anew") {
			t.Fatalf("the call after the crash: %s", res.TextOf())
		}
		res = lspCall(t, sess, "goToDefinition", "main.go", 11, 20)
	}
	golden(t, "definition_across_packages", okText(t, res))
	if now := goplsChildren(); len(now) != 1 || now[0] == pids[0] {
		t.Errorf("after the restart the gopls children are %v (the killed one was %d)", now, pids[0])
	}
}

// TestLSPServersEndWithTheSession: closing the session shuts its gopls
// down; no process is left.
func TestLSPServersEndWithTheSession(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("finds its gopls in /proc")
	}
	needGopls(t)
	sess, _ := lspSession(t, hands.Options{})
	okText(t, lspCall(t, sess, "hover", "main.go", 11, 20))
	pids := goplsChildren()
	if len(pids) != 1 {
		t.Fatalf("want one gopls child, have %v", pids)
	}
	if err := sess.Close(); err != nil {
		t.Fatal(err)
	}
	waitPidGone(t, pids[0])
	res := lspCall(t, sess, "hover", "main.go", 11, 20)
	if !res.IsError {
		t.Errorf("a call after Close answered: %s", res.TextOf())
	}
}

// TestLSPMissingServer names the missing binary and how to install it.
func TestLSPMissingServer(t *testing.T) {
	servers, err := hands.ParseLSPServers("test", json.RawMessage(`{"gopls": {"command": "gopls-not-installed-h6", "extensionToLanguage": {".go": "go"}, "install": "go install golang.org/x/tools/gopls@latest"}}`))
	if err != nil {
		t.Fatal(err)
	}
	sess, _ := lspSession(t, hands.Options{LSPServers: servers})
	res := lspCall(t, sess, "hover", "main.go", 11, 20)
	want := "[LSP_SERVER_UNAVAILABLE] the language server for .go files, gopls, is not installed: gopls-not-installed-h6 not found on PATH; install it with `go install golang.org/x/tools/gopls@latest`, or name another server for .go in lspServers of --config"
	if !res.IsError || res.TextOf() != want {
		t.Errorf("got %s\nwant %s", res.TextOf(), want)
	}
}

// TestLSPNoServerForTheFileType says which extensions have servers.
func TestLSPNoServerForTheFileType(t *testing.T) {
	sess, _ := lspSession(t, hands.Options{})
	res := lspCall(t, sess, "hover", "go.mod", 1, 1)
	if !res.IsError || res.Code != tool.LSPServerUnavailable || !strings.Contains(res.TextOf(), "no language server is configured for .mod files") || !strings.Contains(res.TextOf(), ".go") {
		t.Errorf("got %s", res.TextOf())
	}
	for _, bad := range []map[string]any{
		{"operation": "rename", "path": "main.go", "line": 1, "character": 1},
		{"operation": "hover", "path": "main.go", "line": 0, "character": 1},
		{"operation": "hover", "path": "../outside.go", "line": 1, "character": 1},
		{"operation": "hover", "path": "missing.go", "line": 1, "character": 1},
	} {
		if res := callJSON(t, sess, "lsp", bad); !res.IsError {
			t.Errorf("%v: answered %s", bad, res.TextOf())
		}
	}
}
