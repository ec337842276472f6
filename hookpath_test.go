package hands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A hook runs what the configuration named when it was loaded: programs
// become absolute paths, and none may lie where shell commands can write.
func TestResolveHookCommand(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, outside := filepath.Join(base, "root"), filepath.Join(base, "hooks")
	for _, d := range []string{root + "/scripts", outside} {
		os.MkdirAll(d, 0o755)
	}
	for _, f := range []string{root + "/scripts/check.sh", root + "/hook.py", outside + "/audit.sh"} {
		if err := os.WriteFile(f, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.Symlink(root+"/scripts/check.sh", outside+"/link-into-root.sh")
	writable := []string{root}

	ok := map[string]string{
		outside + "/audit.sh --flag":     outside + "/audit.sh --flag",
		"echo hi && exit 2":              "echo hi && exit 2",
		"cat | " + outside + "/audit.sh": "/cat | " + outside + "/audit.sh",
		"FOO=1 " + outside + "/audit.sh": "FOO=1 " + outside + "/audit.sh",
		"sh -c true":                     "/", // on PATH: now absolute
		"../hooks/audit.sh":              outside + "/audit.sh",
	}
	t.Setenv("HOME", base)
	ok["~/hooks/audit.sh x"] = outside + "/audit.sh x"
	for cmd, want := range ok {
		got, err := resolveHookCommand(cmd, root, writable)
		if err != nil || !strings.Contains(got, want) || strings.HasPrefix(cmd, "sh ") && !strings.HasPrefix(got, "/") {
			t.Errorf("resolveHookCommand(%q) = %q, %v; want it to hold %q", cmd, got, err, want)
		}
	}
	refused := map[string]string{
		"./scripts/check.sh":                   "inside " + root,
		"scripts/check.sh":                     "inside " + root,
		root + "/scripts/check.sh":             "inside " + root,
		"$CLAUDE_PROJECT_DIR/scripts/check.sh": "inside " + root,
		"python3 hook.py":                      "operand " + root + "/hook.py",
		"sh " + root + "/hook.py":              "operand",
		outside + "/link-into-root.sh":         "inside " + root,
		"$HOOK_DIR/audit.sh":                   "not a plain word",
		"no-such-program-anywhere":             "not on PATH",
		"echo 'unclosed":                       "does not parse",
	}
	for cmd, want := range refused {
		if strings.HasPrefix(cmd, "python3") {
			if _, err := resolveHookCommand("python3 -V", root, writable); err != nil {
				continue // no python3 on PATH
			}
		}
		got, err := resolveHookCommand(cmd, root, writable)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("resolveHookCommand(%q) = %q, %v; want an error saying %q", cmd, got, err, want)
		}
	}
}

// The runtime refuses, at start-up, a hook a command could rewrite.
func TestHookInRootRefusedAtStartup(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "hook.sh"), []byte("#!/bin/sh\n"), 0o755)
	_, err := New(Options{Roots: []string{root}, HookCommands: []HookCommand{{Event: "PreToolUse", Command: "./hook.sh"}}})
	if err == nil || !strings.Contains(err.Error(), "which shell commands can write") {
		t.Fatalf("New = %v; want the hook refused", err)
	}
}

func FuzzResolveHookCommand(f *testing.F) {
	for _, s := range []string{"./x.sh", "echo hi && exit 2", "$CLAUDE_PROJECT_DIR/h.sh a b", "python3 h.py", "a | b; c &", "FOO=1 cat"} {
		f.Add(s)
	}
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, cmd string) {
		out, err := resolveHookCommand(cmd, root, []string{root})
		if err != nil {
			return
		}
		if again, err := resolveHookCommand(out, root, []string{root}); err != nil || again != out {
			t.Errorf("resolving %q gave %q, which resolves to %q, %v", cmd, out, again, err)
		}
	})
}
