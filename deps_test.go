package hands_test

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// TestImportDirection keeps the dependency direction of DESIGN.md: engines
// know nothing of tools, the contract imports neither the built-ins nor the
// MCP SDK, only mcpserver (serving) and internal/mcpclient (other servers'
// tools) import the SDK (the command included: it serves through
// mcpserver), and toolfmt, which a Go agent imports for the model
// APIs' shapes, depends on the contract alone.
func TestImportDirection(t *testing.T) {
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/hands-dev/hands"
	const sdk = "github.com/modelcontextprotocol/go-sdk"
	engines := []string{"internal/sandbox", "internal/textedit", "internal/notebook", "internal/jobs",
		"internal/ignore", "internal/walk", "internal/glob", "internal/match", "internal/search", "internal/shellword", "internal/web"}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := 0
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		seen++
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, mod), "/")
		for _, imp := range p.Imports {
			irel, ours := strings.CutPrefix(imp, mod+"/")
			if strings.HasPrefix(imp, sdk) && rel != "mcpserver" && rel != "internal/mcpclient" && !strings.HasPrefix(rel, "bench") {
				t.Errorf("%s imports the MCP SDK; only mcpserver and internal/mcpclient may", p.ImportPath)
			}
			if rel == "toolfmt" && ours && irel != "tool" {
				t.Errorf("toolfmt imports %s; it depends on the contract alone", imp)
			}
			if rel == "tool" && ours {
				t.Errorf("tool imports %s; the contract imports nothing of Hands", imp)
			}
			if rel == "internal/permission" && ours && (strings.HasPrefix(irel, "internal/tools") || irel == "internal/profile") {
				t.Errorf("internal/permission imports %s; rules know tools only by tool.Info", imp)
			}
			if rel == "mcpserver" && ours && strings.HasPrefix(irel, "internal/tools") {
				t.Errorf("mcpserver imports the built-ins (%s) directly", imp)
			}
			for _, e := range engines {
				if rel == e || strings.HasPrefix(rel, e+"/") {
					if ours && (irel == "tool" || strings.HasPrefix(irel, "internal/tools") || irel == "internal/profile" || irel == "mcpserver" || imp == mod) {
						t.Errorf("engine %s imports %s; engines know nothing of tools", p.ImportPath, imp)
					}
				}
			}
		}
	}
	if seen < 5 {
		t.Fatalf("go list saw only %d packages", seen)
	}
}
