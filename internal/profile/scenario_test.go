package profile_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/hands-dev/hands/internal/tooltest"
	"github.com/hands-dev/hands/tool"
)

// TestScenarios runs the txtar scenarios of every profile through the real
// executor (the harness of package tooltest: "!profile NAME" selects the
// profile). Beyond the text the model reads, it checks what a client
// reads: every error's structured content carries its code, and an
// envelope's structured content is the object its text holds.
func TestScenarios(t *testing.T) {
	tooltest.RunHooks(t, "testdata", tooltest.Hooks{
		Check: checkStructured,
		Scrub: func(s string) string {
			s = pgid.ReplaceAllString(s, "Process Group PGID: $$PGID")
			return cellID.ReplaceAllString(s, "$1{CELL_ID}")
		},
	})
}

// pgid matches seed 001's PGID line, whose number changes from run to run;
// TestGeminiShellReportsTheRealProcessGroup checks the number itself.
var pgid = regexp.MustCompile(`Process Group PGID: [0-9]+`)

// cellID matches the random id of a notebook cell that an insert made, as
// Claude Code's NotebookEdit and Read show it.
var cellID = regexp.MustCompile(`(Inserted cell |<cell id="|</cell id="|"id": ")[0-9a-f]{8}\b`)

// checkStructured checks what a client reads of a result: an error's code
// in its structured content; an envelope that is the text's JSON.
func checkStructured(t *testing.T, profile string, res tool.Result) {
	t.Helper()
	b, err := json.Marshal(res.Structured)
	if err != nil {
		t.Fatalf("%s: structured content does not marshal: %v", res.Tool, err)
	}
	var sc map[string]any
	if err := json.Unmarshal(b, &sc); err != nil {
		t.Fatalf("%s: structured content %s is not an object", res.Tool, b)
	}
	if res.IsError && sc["code"] != res.Code.String() {
		t.Errorf("%s: error %s has structured content %s without its code", res.Tool, res.Code, b)
	}
	if profile != "envelope" {
		return
	}
	var text map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].Text), &text); err != nil {
		t.Fatalf("%s: envelope text %q is not JSON: %v", res.Tool, res.Content[0].Text, err)
	}
	if res.IsError {
		// The code is in the structured content only.
		delete(sc, "code")
	}
	tb, _ := json.Marshal(text)
	sb, _ := json.Marshal(sc)
	if !bytes.Equal(tb, sb) {
		t.Errorf("%s: structured content %s is not the envelope of the text %s", res.Tool, sb, tb)
	}
}
