package tools

import (
	"fmt"
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
