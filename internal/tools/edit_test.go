package tools

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/hands-dev/hands/tool"
)

// utf16Bytes encodes s as UTF-16 with a byte order mark.
func utf16Bytes(s string, bigEndian bool) []byte {
	var out []byte
	for _, u := range utf16.Encode([]rune("\uFEFF" + s)) {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

func TestEditKeepsEncodings(t *testing.T) {
	tests := []struct {
		name      string
		before    []byte
		old, new  string
		after     []byte
		wantLabel string
	}{
		{"utf-16le crlf", utf16Bytes("naïve\r\nline two\r\n", false), "line two", "line 2\nline 3",
			utf16Bytes("naïve\r\nline 2\r\nline 3\r\n", false), "UTF-16LE with BOM, CRLF"},
		{"utf-16be", utf16Bytes("α = 1\nβ = 2\n", true), "β = 2", "β = 3 → 4",
			utf16Bytes("α = 1\nβ = 3 → 4\n", true), "UTF-16BE with BOM, LF"},
		{"latin-1", []byte("caf\xe9 = \"cr\xe8me\"\r\n"), "crème", "brûlée",
			[]byte("caf\xe9 = \"br\xfbl\xe9e\"\r\n"), "Latin-1 (Windows-1252), CRLF"},
		{"windows-1252 quotes", []byte("say \x93hi\x94\n"), "“hi”", "“bye”",
			[]byte("say \x93bye\x94\n"), "Latin-1 (Windows-1252), LF"},
		{"utf-8 bom", []byte("\xEF\xBB\xBFa\nb\n"), "b", "c", []byte("\xEF\xBB\xBFa\nc\n"), "UTF-8 with BOM, LF"},
		{"lone cr kept", []byte("a\rb\nc\n"), "c", "d", []byte("a\rb\nd\n"), ""},
		{"no final newline", []byte("a\r\nb"), "b", "c\nd", []byte("a\r\nc\r\nd"), "UTF-8, CRLF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.put("f.txt", tt.before, 0o644)
			f.read("f.txt")
			res := f.ok("edit", map[string]any{"path": "f.txt", "old_str": tt.old, "new_str": tt.new})
			if got := f.get("f.txt"); !bytes.Equal(got, tt.after) {
				t.Errorf("file is % x\nwant        % x", got, tt.after)
			}
			if out := res.Structured.(*EditOutput); out.Encoding != tt.wantLabel || out.Bytes != len(tt.after) {
				t.Errorf("encoding %q, bytes %d; want %q, %d", out.Encoding, out.Bytes, tt.wantLabel, len(tt.after))
			}
		})
	}
}

func TestEditRefusesWhatTheEncodingCannotHold(t *testing.T) {
	f := newFixture(t)
	before := []byte("caf\xe9\n")
	f.put("l1.txt", before, 0o644)
	f.read("l1.txt")
	res := f.fail(tool.InvalidInput, "edit", map[string]any{"path": "l1.txt", "old_str": "café", "new_str": "café ☕"})
	for _, want := range []string{"☕", "U+2615", "line 1", "Latin-1", f.path("l1.txt"), "nothing was changed"} {
		if !strings.Contains(res.TextOf(), want) {
			t.Errorf("message %q lacks %q", res.TextOf(), want)
		}
	}
	if got := f.get("l1.txt"); !bytes.Equal(got, before) {
		t.Errorf("file changed to %q", got)
	}
}

func TestEditRefusesAFileChangedSinceItWasRead(t *testing.T) {
	for _, name := range []string{"edit", "multi_edit"} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			f.put("a.txt", []byte("x = 1\n"), 0o644)
			f.read("a.txt")
			f.put("a.txt", []byte("x = 1\ny = 2\n"), 0o644)
			in := map[string]any{"path": "a.txt", "old_str": "x = 1", "new_str": "x = 2"}
			if name == "multi_edit" {
				in = map[string]any{"path": "a.txt", "edits": []any{map[string]any{"old_str": "x = 1", "new_str": "x = 2"}}}
			}
			f.fail(tool.FileChanged, name, in)
			if got := f.get("a.txt"); string(got) != "x = 1\ny = 2\n" {
				t.Errorf("file changed to %q", got)
			}
			f.read("a.txt")
			f.ok(name, in)
		})
	}
}

func TestEditOutputCarriesTheWholeDiff(t *testing.T) {
	f := newFixture(t)
	var b strings.Builder
	for i := range 200 {
		fmt.Fprintf(&b, "v%d = old\n", i)
	}
	f.put("big.txt", []byte(b.String()), 0o644)
	f.read("big.txt")
	res := f.ok("edit", map[string]any{"path": "big.txt", "old_str": "old", "new_str": "new", "replace_all": true})
	out := res.Structured.(*EditOutput)
	if out.Replacements != 200 || len(out.Lines) != 200 || out.Lines[199] != 200 || out.LinesAdded != 200 || out.LinesRemoved != 200 {
		t.Errorf("replacements %d, lines %d, +%d -%d", out.Replacements, len(out.Lines), out.LinesAdded, out.LinesRemoved)
	}
	if n := strings.Count(out.Diff, "\n"); n != 403 {
		t.Errorf("whole diff has %d lines, want 403", n)
	}
	text := res.TextOf()
	if !strings.Contains(text, "… 343 more lines") || strings.Count(text, "\n") > diffShownLines+5 {
		t.Errorf("shown diff is not cut:\n%s", text)
	}
	if !strings.Contains(text, "200 occurrences replaced (lines 1, 2, 3") || !strings.Contains(text, "and 180 more occurrences") {
		t.Errorf("summary line: %s", strings.SplitN(text, "\n", 2)[0])
	}
}

func TestEditDoesNotNeedARereadAfterItsOwnEdit(t *testing.T) {
	f := newFixture(t)
	f.put("a.txt", []byte("1\n"), 0o644)
	f.read("a.txt")
	for i := 1; i < 5; i++ {
		f.ok("edit", map[string]any{"path": "a.txt", "old_str": fmt.Sprint(i), "new_str": fmt.Sprint(i + 1)})
	}
	if got := f.get("a.txt"); string(got) != "5\n" {
		t.Errorf("file %q", got)
	}
}
