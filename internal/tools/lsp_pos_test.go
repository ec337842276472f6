package tools

import (
	"testing"
	"unicode/utf8"
)

// TestLSPPositionsCountCharacters: the model's 1-based character counts
// characters; the server's counts UTF-16 units. Each converts back.
func TestLSPPositionsCountCharacters(t *testing.T) {
	line := "\tx := \"é😀\" + y"
	// y is the 14th character; before it: tab, x, space, :, =, space, ",
	// é, 😀 (two units), ", space, +, space: 13 characters, 14 units.
	if got := utf16Units(line, 13); got != 14 {
		t.Errorf("utf16Units = %d, want 14", got)
	}
	if got := runeColumn(line, 14); got != 14 {
		t.Errorf("runeColumn = %d, want 14", got)
	}
	if w := wordAt(line, 13); w != "y" {
		t.Errorf("wordAt = %q", w)
	}
	if w := wordAt("greet.Hello(x)", 8); w != "Hello" {
		t.Errorf("wordAt = %q", w)
	}
	if w := wordAt("a + b", 2); w != "" {
		t.Errorf("wordAt on an operator = %q", w)
	}
}

// FuzzLSPPositionsRoundTrip: a character converted to UTF-16 units and
// back is the same character, for any line.
func FuzzLSPPositionsRoundTrip(f *testing.F) {
	f.Add("\tx := \"é😀\" + y", 3)
	f.Fuzz(func(t *testing.T, line string, i int) {
		if !utf8.ValidString(line) {
			return
		}
		n := utf8.RuneCountInString(line)
		if i < 0 || i > n {
			return
		}
		if got := runeColumn(line, utf16Units(line, i)); got != i+1 {
			t.Fatalf("%q: character %d came back as column %d", line, i+1, got)
		}
		wordAt(line, i)
	})
}
