package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hands-dev/hands"
)

func TestGlobAndGrepOverMCP(t *testing.T) {
	c := newFileClient(t, hands.Options{})
	os.MkdirAll(filepath.Join(c.root, "pkg"), 0o755)
	os.WriteFile(filepath.Join(c.root, "pkg", "x.go"), []byte("package pkg\n\nfunc Hello() {}\n"), 0o644)

	text, sc := c.ok("glob", map[string]any{"pattern": "**/*.go"})
	if text != filepath.Join(c.root, "pkg", "x.go") || sc["total"] != float64(1) {
		t.Errorf("glob: %q %v", text, sc)
	}
	c.fail("GLOB_INVALID_TYPE", "glob", map[string]any{"pattern": "*", "type": "socket"})

	text, sc = c.ok("grep", map[string]any{"pattern": "func \\w+", "output_mode": "content"})
	if !strings.Contains(text, "x.go:3:func Hello() {}") || sc["num_matches"] != float64(1) {
		t.Errorf("grep: %q %v", text, sc)
	}
	c.fail("GREP_INVALID_PATTERN", "grep", map[string]any{"pattern": "("})
	c.fail("GREP_INVALID_OUTPUT_MODE", "grep", map[string]any{"pattern": "x", "output_mode": "bogus"})
}

func TestBashOverMCP(t *testing.T) {
	c := newFileClient(t, hands.Options{})
	text, sc := c.ok("bash", map[string]any{"command": "echo out; echo err >&2; exit 4"})
	if !strings.Contains(text, "out\nerr") || !strings.Contains(text, "[exit code: 4]") || sc["exit_code"] != float64(4) {
		t.Errorf("bash: %q %v", text, sc)
	}
	c.fail("BASH_EMPTY_COMMAND", "bash", map[string]any{"command": ""})
	_, sc = c.ok("bash", map[string]any{"command": "sleep 0.1; echo bg", "run_in_background": true})
	id, _ := sc["task_id"].(string)
	text, sc = c.ok("task_output", map[string]any{"task_id": id})
	if !strings.Contains(text, "bg") || sc["status"] != "exited" {
		t.Errorf("task_output: %q %v", text, sc)
	}
	c.fail("BASH_TASK_NOT_FOUND", "task_output", map[string]any{"task_id": "job-404"})
	c.fail("BASH_TASK_NOT_FOUND", "task_kill", map[string]any{"task_id": "job-404"})
}
