package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAllowHostsFlag: without --allow-hosts a loopback fetch is refused
// before any connection; with it the guard lets the connection through
// (to a closed port here, so the error is the network's).
func TestAllowHostsFlag(t *testing.T) {
	root := workspace(t)
	args := `{"url":"https://127.0.0.1:1/","prompt":"x"}`
	out, _, code := runCLI(t, "", "call", "--root", root, "web_fetch", args)
	if code != exitTool || !strings.HasPrefix(out, "[NETWORK_BLOCKED]") || !strings.Contains(out, "--allow-hosts 127.0.0.1") {
		t.Fatalf("without the flag: %d %q", code, out)
	}
	out, _, code = runCLI(t, "", "call", "--root", root, "--allow-hosts", "localhost,127.0.0.1", "web_fetch", args)
	if code != exitTool || !strings.HasPrefix(out, "[NETWORK_ERROR]") {
		t.Fatalf("with the flag: %d %q", code, out)
	}
	_, errOut, code := runCLI(t, "", "call", "--root", root, "--allow-hosts", "http://x", "web_fetch", args)
	if code == 0 || !strings.Contains(errOut, "allowed host") {
		t.Fatalf("bad allowed host: %d %q", code, errOut)
	}
}

// TestSearchConfigAndSecretKey: the config file's search section reaches
// web_search, and a search key in the server's environment is invisible to
// the commands it runs.
func TestSearchConfigAndSecretKey(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"results": []map[string]string{{"title": "Go", "url": "https://go.dev/", "content": "Go."}}})
	}))
	defer srv.Close()
	root := workspace(t)
	cfg := filepath.Join(t.TempDir(), "hands.json")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf(`{"roots":[%q],"search":{"backend":"searxng","url":%q}}`, root, srv.URL)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI(t, "", "call", "--config", cfg, "web_search", `{"query":"golang"}`)
	if code != 0 || !strings.Contains(out, `Links: [{"title":"Go","url":"https://go.dev/"}]`) {
		t.Fatalf("search: %d %q", code, out)
	}
	for _, k := range []string{"BRAVE_API_KEY", "TAVILY_API_KEY", "SEARXNG_URL"} {
		cmd := exec.Command(binary, "call", "--root", root, "--no-sandbox", "bash", `{"command":"echo [$`+k+`]"}`)
		cmd.Env = append(os.Environ(), k+"=http://secret-value-42.invalid")
		b, _ := cmd.CombinedOutput()
		if strings.Contains(string(b), "secret-value-42") || !strings.Contains(string(b), "[]") {
			t.Errorf("%s reached a command: %q", k, b)
		}
	}
}
