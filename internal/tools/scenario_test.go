package tools_test

import (
	"path/filepath"
	"testing"

	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/internal/tooltest"
)

func TestScenarios(t *testing.T) {
	tooltest.RunHooks(t, "testdata", tooltest.Hooks{Before: func(t *testing.T, file string) {
		if filepath.Base(file) == "definition.txtar" && filepath.Base(filepath.Dir(file)) == "lsp" {
			needGopls(t)
		}
	}})
}

// TestEveryToolHasScenarios keeps STYLE.md's shape: each built-in tool has
// its folder of txtar scenarios, testdata/<core name>/, with more than one.
func TestEveryToolHasScenarios(t *testing.T) {
	for _, tl := range tools.Builtins(tools.Limits{}) {
		name := tl.Info().Name
		files, err := filepath.Glob(filepath.Join("testdata", name, "*.txtar"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) < 2 {
			t.Errorf("%s has %d scenarios under testdata/%s/; give it at least a success and an error scenario", name, len(files), name)
		}
	}
}
