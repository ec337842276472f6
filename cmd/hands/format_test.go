package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hands-dev/hands/toolfmt"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestToolsFormatGolden pins `hands tools --format` byte for byte: the
// shapes live in package toolfmt (whose tests check them against each
// API's documented fields), and the command prints them as indented JSON.
func TestToolsFormatGolden(t *testing.T) {
	root := workspace(t)
	for _, format := range toolfmt.Formats() {
		t.Run(format, func(t *testing.T) {
			out, errOut, code := runCLI(t, "", "tools", "--root", root, "--format", format)
			if code != exitOK {
				t.Fatalf("code %d: %s", code, errOut)
			}
			golden := filepath.Join("testdata", "tools-format", "native."+format+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if out != string(want) {
				t.Errorf("hands tools --format %s differs from %s; run go test -update and review the diff", format, golden)
			}
		})
	}
}

func TestToolsFormatUsageErrors(t *testing.T) {
	root := workspace(t)
	for _, args := range [][]string{
		{"tools", "--root", root, "--format", "cohere"},
		{"tools", "--root", root, "--format", "openai", "--json"},
	} {
		if _, errOut, code := runCLI(t, "", args...); code != exitUsage || !strings.Contains(errOut, "anthropic, openai, gemini, mcp") {
			t.Errorf("%v: code %d, %q", args, code, errOut)
		}
	}
}
