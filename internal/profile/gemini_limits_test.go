package profile_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/internal/profile"
	"github.com/hands-dev/hands/internal/tools"
)

// TestGeminiReadsUpTo20MB: Gemini CLI 0.1.13 reads files up to 20 MB and
// refuses larger ones in its words; the gemini profile's Limits say so,
// and a host's own limit still wins.
func TestGeminiReadsUpTo20MB(t *testing.T) {
	s, root := session(t, "gemini", nil)
	big := filepath.Join(root, "huge.txt")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(21 << 20); err != nil { // sparse: no 21 MB written
		t.Fatal(err)
	}
	f.Close()
	res := call(s, "read_file", `{"absolute_path":"`+big+`"}`)
	want := "Error reading file " + big + ": File size exceeds the 20MB limit: " + big + " (21.00MB)"
	if got := res.TextOf(); got != want {
		t.Errorf("21 MB file:\n got %q\nwant %q", got, want)
	}
	if err := os.Truncate(big, 15<<20); err != nil {
		t.Fatal(err)
	}
	if res := call(s, "read_file", `{"absolute_path":"`+big+`"}`); strings.Contains(res.TextOf(), "limit") {
		t.Errorf("a 15 MB file is refused: %.200s", res.TextOf())
	}
	if got := profile.LimitsOf("gemini", tools.Limits{}).MaxFileSize; got != 20<<20 {
		t.Errorf("gemini's file limit is %d, want 20 MiB", got)
	}
	if got := profile.LimitsOf("gemini", tools.Limits{MaxFileSize: 1 << 20}).MaxFileSize; got != 1<<20 {
		t.Errorf("a host's 1 MiB limit became %d under gemini", got)
	}
	if got := profile.LimitsOf("native", tools.Limits{}).MaxFileSize; got != 0 {
		t.Errorf("native sets a file limit of its own: %d", got)
	}
	rt, err := hands.New(hands.Options{Roots: []string{root}, Profile: "gemini", Limits: hands.Limits{MaxFileSize: 1 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	if got := rt.Limits().MaxFileSize; got != 1<<20 {
		t.Errorf("runtime limit %d, want the host's 1 MiB", got)
	}
}

// TestGeminiShellShowsLongOutputWhole: 0.1.13 gives the model a command's
// whole output (seq 1 8300 is 38,894 bytes), past the 30,000 characters
// other profiles show.
func TestGeminiShellShowsLongOutputWhole(t *testing.T) {
	s, _ := session(t, "gemini", nil)
	res := call(s, "run_shell_command", `{"command":"seq 1 8300"}`)
	text := res.TextOf()
	if !strings.Contains(text, "\n8299\n8300\n\nStderr: (empty)") || strings.Contains(text, "omitted") {
		t.Errorf("output not whole: %d chars, ends %q", len(text), text[max(0, len(text)-300):])
	}
}
