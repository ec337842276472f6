package jobs

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestRenderLastLine(t *testing.T) {
	long := strings.Repeat("x", 300)
	for _, c := range []struct {
		name, out string
		cut       bool
		want      string
	}{
		{"empty", "", false, ""},
		{"one line", "hello\n", false, "hello"},
		{"no newline at the end", "a\nb", false, "b"},
		{"blank lines after", "a\nbuilding\n\n  \n", false, "building"},
		{"crlf", "a\r\nb\r\n", false, "b"},
		{"carriage returns show the last state", "10%\r50%\r100%\n", false, "100%"},
		{"control bytes escaped", "bell\x07 nul\x00 esc\x1b[0m\n", false, "bell\\x07 nul\\x00 esc\x1b[0m"},
		{"invalid utf-8 escaped", "caf\xe9\n", false, "caf\\xe9"},
		{"tab kept", "a\tb\n", false, "a\tb"},
		{"long line cut at its start", long + "\n", false, strings.Repeat("x", 199) + "…"},
		{"line begun before the scan shows its end", strings.Repeat("y", 250) + "END", true, "…" + strings.Repeat("y", 196) + "END"},
		{"scan starts inside a character", "\x82\xacend", true, "…end"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := renderLastLine([]byte(c.out), c.cut, 200); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// FuzzRenderLastLine: whatever a command writes, the last line is one
// line of valid UTF-8 within the limit, with no control byte but tab and
// escape (as in the result).
func FuzzRenderLastLine(f *testing.F) {
	f.Add([]byte("a\nb\n"), false, 10)
	f.Add([]byte("\xff\xfe\x00\r\r\n"), true, 3)
	f.Add([]byte(strings.Repeat("é", 100)), true, 7)
	f.Fuzz(func(t *testing.T, out []byte, cut bool, limit int) {
		limit = limit%300 + 1
		if limit < 1 {
			limit += 300
		}
		s := renderLastLine(out, cut, limit)
		if !utf8.ValidString(s) {
			t.Fatalf("invalid UTF-8 %q", s)
		}
		if n := utf8.RuneCountInString(s); n > limit {
			t.Fatalf("%d characters, limit %d: %q", n, limit, s)
		}
		for _, r := range s {
			if r < 0x20 && r != '\t' && r != 0x1b || r == 0x7f {
				t.Fatalf("control character %q in %q", r, s)
			}
		}
	})
}

// TestTailAndLastLine read the last line of a foreground command and of a
// background job, through the same buffers the results come from.
func TestTailAndLastLine(t *testing.T) {
	m := newManager(t, Config{})
	var tail Tail
	if got := tail.LastLine(200); got != "" {
		t.Errorf("before the start: %q", got)
	}
	out, err := m.RunWith(context.Background(), `printf 'first\nsecond\r\n\n'`, 20*time.Second, Options{Tail: &tail})
	if err != nil || out.ExitCode != 0 {
		t.Fatalf("run: %v %+v", err, out)
	}
	if got := tail.LastLine(200); got != "second" {
		t.Errorf("foreground last line %q", got)
	}
	// Past the scan window: a flood of lines, then the last one.
	id, err := m.Start(`seq 1 100000; printf 'done\x07\n'`, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Output(context.Background(), id, true, 0); err != nil {
		t.Fatal(err)
	}
	if got, err := m.LastLine(id, 200); err != nil || got != `done\x07` {
		t.Errorf("job last line %q, %v", got, err)
	}
	if _, err := m.LastLine("job-99", 200); err == nil {
		t.Error("no error for an unknown job")
	}
}
