package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hands doctor lists the language servers the lsp tool would start, each
// found on PATH or not with how to install it, configured ones first.
func TestDoctorListsLanguageServers(t *testing.T) {
	root := workspace(t)
	cfg := filepath.Join(t.TempDir(), "config.json")
	body := `{"lspServers": {"zz-ls": {"command": "hands-missing-zz-ls", "extensionToLanguage": {".zz": "zz"}, "install": "get zz-ls"}}}`
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "", "doctor", "--root", root, "--config", cfg)
	if code != exitOK {
		t.Fatalf("doctor: %d %s", code, errOut)
	}
	_, section, ok := strings.Cut(out, "language servers of the lsp tool:\n")
	if !ok {
		t.Fatalf("no language servers section:\n%s", out)
	}
	if !strings.HasPrefix(section, "  zz-ls (.zz): not installed (hands-missing-zz-ls not found on PATH); install it with `get zz-ls`\n") {
		t.Errorf("the configured server is not first, or not said missing:\n%s", section)
	}
	for _, name := range []string{"gopls (.go): ", "typescript-language-server (", "pyright (.py .pyi): ", "rust-analyzer (.rs): ", "clangd ("} {
		if !strings.Contains(section, "\n  "+name) {
			t.Errorf("doctor does not list %q:\n%s", name, section)
		}
	}
}
