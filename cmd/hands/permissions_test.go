package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPermissionFlags: --settings, --permission-mode and --allow-bypass
// reach the runtime; a malformed rule and bypass without --allow-bypass
// stop the start-up naming the problem.
func TestPermissionFlags(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	root := workspace(t)
	settings := filepath.Join(t.TempDir(), "s.json")
	os.WriteFile(settings, []byte(`{"permissions":{"deny":["Bash(touch:*)"]}}`), 0o644)
	out, _, code := runCLI(t, "", "call", "--root", root, "--settings", settings, "bash", `{"command":"echo ok; touch x"}`)
	if code != exitTool || !strings.Contains(out, "deny rule Bash(touch:*) ("+settings+")") {
		t.Errorf("--settings deny: code %d, %s", code, out)
	}
	if _, err := os.Stat(filepath.Join(root, "x")); err == nil {
		t.Error("the denied command ran")
	}
	out, _, code = runCLI(t, "", "call", "--root", root, "--permission-mode", "plan", "create_file", `{"path":"p.txt","content":"p"}`)
	if code != exitTool || !strings.Contains(out, "Plan mode is active") {
		t.Errorf("--permission-mode plan: code %d, %s", code, out)
	}
	_, errOut, code := runCLI(t, "", "call", "--root", root, "--permission-mode", "bypassPermissions", "view", `{"path":"."}`)
	if code == exitOK || !strings.Contains(errOut, "--allow-bypass") {
		t.Errorf("bypass without --allow-bypass: code %d, %s", code, errOut)
	}
	if _, errOut, code := runCLI(t, "", "call", "--root", root, "--permission-mode", "bypassPermissions", "--allow-bypass", "view", `{"path":"."}`); code != exitOK {
		t.Errorf("bypass with --allow-bypass: code %d, %s", code, errOut)
	}
	os.WriteFile(settings, []byte(`{"permissions":{"allow":["Bash(git diff"]}}`), 0o644)
	_, errOut, code = runCLI(t, "", "call", "--root", root, "--settings", settings, "view", `{"path":"."}`)
	if code == exitOK || !strings.Contains(errOut, settings) || !strings.Contains(errOut, `"Bash(git diff"`) {
		t.Errorf("malformed rule: code %d, %s", code, errOut)
	}
	os.WriteFile(settings, []byte(`{"permissions":{"deny":["Bash(touch:*)"],"ask":["Bash(git push:*)"]}}`), 0o644)
	out, _, _ = runCLI(t, "", "doctor", "--root", root, "--settings", settings)
	if !strings.Contains(out, "permissions: mode default; 0 allow, 1 ask, 1 deny rules from "+settings) {
		t.Errorf("doctor: %s", out)
	}
	config := filepath.Join(t.TempDir(), "c.json")
	os.WriteFile(config, []byte(`{"permissions":{"deny":["Write"],"defaultMode":"acceptEdits"}}`), 0o644)
	out, _, code = runCLI(t, "", "call", "--root", root, "--config", config, "create_file", `{"path":"c.txt","content":"c"}`)
	if code != exitTool || !strings.Contains(out, "deny rule Write") {
		t.Errorf("--config permissions: code %d, %s", code, out)
	}
}
