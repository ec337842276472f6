package profile

import (
	"errors"
	"strings"
	"testing"

	"github.com/hands-dev/hands/tool"
)

// Claude Code's size format (its xD), as the oracle recorded it (106.3KB,
// 34.5KB, 2KB) and at its edges.
func TestClaudeSize(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 bytes", 1023: "1023 bytes", 1024: "1KB", 1536: "1.5KB", 2000: "2KB",
		108894: "106.3KB", 35327: "34.5KB", 1 << 20: "1MB", 3 << 29: "1.5GB",
	} {
		if got := claudeSize(n); got != want {
			t.Errorf("claudeSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// The preview is the first 2,000 UTF-16 units, cut back to the last line
// break when it lies past the first 1,000; a text that fits is whole.
func TestClaudePreview(t *testing.T) {
	line := strings.Repeat("x", 99) + "\n" // 100 units a line
	for _, c := range []struct {
		name, text, want string
		more             bool
	}{
		{"fits", strings.Repeat("y", 2000), strings.Repeat("y", 2000), false},
		{"one line", strings.Repeat("y", 2001), strings.Repeat("y", 2000), true},
		{"lines", strings.Repeat(line, 30), strings.Repeat(line, 19) + strings.Repeat("x", 99), true},
		{"break in the first half", strings.Repeat("y", 900) + "\n" + strings.Repeat("z", 1500), strings.Repeat("y", 900) + "\n" + strings.Repeat("z", 1099), true},
		{"astral characters count twice", strings.Repeat("😀", 1001), strings.Repeat("😀", 1000), true},
	} {
		got, more := claudePreview(c.text)
		if got != c.want || more != c.more {
			t.Errorf("%s: preview of %d bytes is %d bytes (more %v), want %d (more %v)", c.name, len(c.text), len(got), more, len(c.want), c.more)
		}
	}
}

// A result over the bound is saved through Rendering.Save and replaced by
// the note; one under it, an error, or a failed save leave it alone.
func TestClaudePersistLarge(t *testing.T) {
	big := strings.Repeat("1:line 1\n", 3000)
	var saved []string
	save := func(id, text string) (string, error) {
		saved = append(saved, id+"="+text)
		return "/saved/" + id + ".txt", nil
	}
	r := &Rendering{Entry: Entry{Core: "grep"}, Res: &tool.Result{CallID: "c1", Content: []tool.Content{tool.Text(big)}}, Save: save}
	claudePersistLarge(r)
	if len(saved) != 1 || saved[0] != "c1="+big {
		t.Fatalf("saved %d texts, want the whole result once", len(saved))
	}
	if got := r.Res.TextOf(); !strings.HasPrefix(got, "<persisted-output>\nOutput too large (26.4KB). Full output saved to: /saved/c1.txt\n\nPreview (first 2KB):\n1:line 1\n") || !strings.HasSuffix(got, "1:line 1\n...\n</persisted-output>") {
		t.Fatalf("note:\n%s", got)
	}

	for name, r := range map[string]*Rendering{
		"read under its bound":  {Entry: Entry{Core: "read"}, Res: &tool.Result{Content: []tool.Content{tool.Text(big)}}, Save: save},
		"bash persists its own": {Entry: Entry{Core: "bash"}, Res: &tool.Result{Content: []tool.Content{tool.Text(big + big + big)}}, Save: save},
		"error":                 {Entry: Entry{Core: "grep"}, Res: &tool.Result{IsError: true, Content: []tool.Content{tool.Text(big)}}, Save: save},
		"no save":               {Entry: Entry{Core: "grep"}, Res: &tool.Result{Content: []tool.Content{tool.Text(big)}}},
		"save fails": {Entry: Entry{Core: "grep"}, Res: &tool.Result{Content: []tool.Content{tool.Text(big)}},
			Save: func(string, string) (string, error) { return "", errors.New("disk full") }},
	} {
		saved = nil
		before := r.Res.TextOf()
		claudePersistLarge(r)
		if r.Res.TextOf() != before || len(saved) != 0 {
			t.Errorf("%s: result changed or saved", name)
		}
	}
}
