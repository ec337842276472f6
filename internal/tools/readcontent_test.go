package tools

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestReadContentNumbersLinesAsFmt pins the hand-written line numbering of
// the read's text to fmt's "%6d\t%s\n", on both sides of six digits.
func TestReadContentNumbersLinesAsFmt(t *testing.T) {
	for _, start := range []int{1, 9, 99995, 999998, 1234567} {
		o := &ReadOutput{Kind: "text", StartLine: start, Lines: []string{"a", "", "\tb \"c\"", "d"}}
		var want strings.Builder
		for i, l := range o.Lines {
			fmt.Fprintf(&want, "%6d\t%s\n", start+i, l)
		}
		if got := o.Content()[0].Text; got != strings.TrimSuffix(want.String(), "\n") {
			t.Errorf("start %d:\n%q\nwant\n%q", start, got, want.String())
		}
	}
}

// TestTextLinesAsSplitLines pins textLines to splitLines, which it stands
// in for without splitting the whole text.
func TestTextLinesAsSplitLines(t *testing.T) {
	for _, text := range []string{"", "\n", "a", "a\n", "a\nb", "a\nb\n", "\n\n", "a\n\nb\n\n", "x\r\ny"} {
		want := splitLines(text)
		lines := textLines(text)
		if got := lines.count(); got != len(want) {
			t.Errorf("count(%q) = %d, want %d", text, got, len(want))
		}
		for start := 1; start <= len(want); start++ {
			for end := start; end <= len(want)+1; end++ {
				var got []string
				for l := range lines.between(start, end) {
					got = append(got, l)
				}
				if w := want[start-1 : min(end, len(want))]; !slices.Equal(got, w) {
					t.Errorf("between(%q, %d, %d) = %q, want %q", text, start, end, got, w)
				}
			}
		}
	}
}
