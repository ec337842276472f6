package lsp

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
)

// Each server is found on PATH (its command or an alternative) or said to
// be missing, with how to install it.
func TestStatuses(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("an executable found on PATH needs a .exe name on Windows")
	}
	dir := t.TempDir()
	fake := filepath.Join(dir, "fake-ls")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	table := []Server{
		{Name: "a", Command: "fake-ls", ExtensionToLanguage: map[string]string{".b": "b", ".a": "a"}},
		{Name: "b", Command: "missing-1", Alternatives: [][]string{{"missing-2", "--stdio"}}, Install: "get b",
			ExtensionToLanguage: map[string]string{".b": "b"}},
		{Name: "c", Command: "missing-3", Alternatives: [][]string{{"fake-ls", "--x"}}, ExtensionToLanguage: map[string]string{".c": "c"}},
		{Name: "d", Command: "missing-4", ExtensionToLanguage: map[string]string{".d": "d"}},
	}
	var got []string
	for _, st := range Statuses(table) {
		got = append(got, st.String())
	}
	want := []string{
		"a (.a .b): " + fake,
		"b (.b): not installed (neither missing-1 nor missing-2 found on PATH); install it with `get b`",
		"c (.c): " + fake,
		"d (.d): not installed (missing-4 not found on PATH)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}
