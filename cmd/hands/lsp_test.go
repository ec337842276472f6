package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigLSPServers: lspServers of --config replaces a default server;
// a missing one is named with its install hint, and a malformed entry is
// a usage error naming the key.
func TestConfigLSPServers(t *testing.T) {
	root := workspace(t)
	if err := os.WriteFile(filepath.Join(root, "x.go"), []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "hands.json")
	body := `{"lspServers": {"gopls": {"command": "gopls-missing-h6", "extensionToLanguage": {".go": "go"}, "install": "go install golang.org/x/tools/gopls@latest"}}}`
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI(t, "", "call", "--config", cfg, "--root", root, "lsp", `{"operation":"hover","path":"x.go","line":1,"character":9}`)
	if code != exitTool || !strings.HasPrefix(out, "[LSP_SERVER_UNAVAILABLE]") || !strings.Contains(out, "gopls-missing-h6 not found on PATH; install it with `go install golang.org/x/tools/gopls@latest`") {
		t.Errorf("missing server: %d %q", code, out)
	}
	if err := os.WriteFile(cfg, []byte(`{"lspServers": {"gopls": {"command": "gopls"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runCLI(t, "", "tools", "--config", cfg)
	if code != exitUsage || !strings.Contains(errOut, "lspServers.gopls: extensionToLanguage is empty") {
		t.Errorf("malformed lspServers: %d %q", code, errOut)
	}
}
