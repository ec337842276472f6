package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLoadLoops: seed 004's taskdaemon.yml shape, the same under "loops",
// and JSON are read; an unknown key or an empty tool list is an error.
func TestLoadLoops(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	seed := write("taskdaemon.yml", `# In loop definition (taskdaemon.yml)
phase:
  tools:
    - read_file
    - write_file
    - edit_file
    - list_directory
    - glob
    - grep
    - run_command
    - complete_task

# Plan loop might exclude command execution
plan:
  tools:
    - read_file
    - write_file
    - glob
    - grep
    - complete_task
`)
	for _, p := range []string{seed, write("nested.yml", "loops:\n  plan:\n    tools: [read_file, write_file, glob, grep, complete_task]\n"),
		write("loops.json", `{"plan":{"tools":["read_file","write_file","glob","grep","complete_task"]}}`)} {
		l, err := loadLoops(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if !slices.Equal(l["plan"].Tools, []string{"read_file", "write_file", "glob", "grep", "complete_task"}) {
			t.Errorf("%s: plan = %v", p, l["plan"])
		}
	}
	for body, want := range map[string]string{
		"plan:\n  tool: [read_file]\n": "field tool not found",
		"plan:\n  tools: []\n":         "lists no tools",
		"plan: [read_file]\n":          "cannot unmarshal",
	} {
		if _, err := loadLoops(write("bad.yml", body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v", body, err)
		}
	}
}

// TestServeLoopFlags: --loop chooses the tool set from --loops, and an
// unknown tool in a loop type stops start-up naming it.
func TestServeLoopFlags(t *testing.T) {
	dir := t.TempDir()
	loops := filepath.Join(dir, "loops.yml")
	os.WriteFile(loops, []byte("plan:\n  tools: [read_file, glob, complete_task]\n"), 0o644)
	var out, errb strings.Builder
	if code := run(t.Context(), []string{"tools", "--root", dir, "--profile", "taskdaemon", "--loops", loops, "--loop", "plan"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if got := out.String(); !strings.Contains(got, "read_file") || strings.Contains(got, "run_command") || !strings.Contains(got, "complete_task") {
		t.Errorf("plan loop tools:\n%s", got)
	}
	os.WriteFile(loops, []byte("plan:\n  tools: [read_file, bash]\n"), 0o644)
	errb.Reset()
	if code := run(t.Context(), []string{"tools", "--root", dir, "--profile", "taskdaemon", "--loops", loops, "--loop", "plan"}, nil, &out, &errb); code == 0 || !strings.Contains(errb.String(), `"bash"`) {
		t.Errorf("unknown tool: exit %d, %s", code, errb.String())
	}
}
