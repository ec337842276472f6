package textedit

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// applyAllWhole is ApplyAll as it was before ApplyAllParts: each edit
// applied to the whole text the previous one built.
func applyAllWhole(text string, edits []Edit) (Result, error) {
	if len(edits) == 0 {
		return Result{}, ErrNoEdits
	}
	res := Result{Text: text}
	var norms []string
	for i, e := range edits {
		r, err := Apply(res.Text, e)
		if err != nil {
			return Result{}, &EditError{Index: i, Err: err}
		}
		res.Text = r.Text
		res.Count += r.Count
		res.Lines = append(res.Lines, r.Lines...)
		if r.Normalization != "" {
			norms = append(norms, fmt.Sprintf("edits[%d]: %s", i, r.Normalization))
		}
	}
	if res.Text == text {
		return Result{}, ErrNoChange
	}
	res.Normalization = strings.Join(norms, "; ")
	return res, nil
}

// applyRegions builds the text the regions make of text.
func applyRegions(t *testing.T, text string, regions []Region) string {
	var sb strings.Builder
	at := 0
	for _, r := range regions {
		if r.Start < at || r.End < r.Start || r.End > len(text) {
			t.Fatalf("regions out of order or range: %+v in %d bytes", regions, len(text))
		}
		sb.WriteString(text[at:r.Start])
		sb.WriteString(r.New)
		at = r.End
	}
	sb.WriteString(text[at:])
	return sb.String()
}

// FuzzApplyAllParts: the edits applied in pieces give what they give
// applied each to the whole text (the same text, counts, lines,
// normalisations and errors), and the regions rebuild that text.
func FuzzApplyAllParts(f *testing.F) {
	f.Add("a\nb\nc\n", "b", "B", false, "B\nc", "x", false)
	f.Add("abab\nab\n", "ab", "a", true, "aa", "b", true)
	f.Add("one two\r\nthree\r\n", "two", "2", false, "2\r\nthr", "X\r\nY", false)
	f.Add("x  \ny\n", "y", "z", false, "x\nz", "w", false)
	f.Add("ab", "a", "b", false, "bb", "ab", false)
	f.Add("     1\tfoo\n", "o", "0", true, "1\tf00", "1\tbar", false)
	f.Add("‘q’ x", "x", "y", false, "'q' y", "z", false)
	f.Fuzz(func(t *testing.T, text, o1, n1 string, all1 bool, o2, n2 string, all2 bool) {
		for _, edits := range [][]Edit{
			{{Old: o1, New: n1, ReplaceAll: all1}},
			{{Old: o1, New: n1, ReplaceAll: all1}, {Old: o2, New: n2, ReplaceAll: all2}},
			{{Old: o1, New: n1, ReplaceAll: all1}, {Old: o2, New: n2, ReplaceAll: all2}, {Old: n2, New: o1}},
		} {
			want, werr := applyAllWhole(text, edits)
			got, gerr := ApplyAllParts(text, edits)
			if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
				t.Fatalf("%+v: errors: whole %v, parts %v", edits, werr, gerr)
			}
			if werr != nil {
				continue
			}
			joined := strings.Join(got.Parts, "")
			if joined != want.Text || got.Count != want.Count || !slices.Equal(got.Lines, want.Lines) || got.Normalization != want.Normalization {
				t.Fatalf("%+v: parts give %q (%d at %v, %q), whole %q (%d at %v, %q)", edits, joined, got.Count, got.Lines, got.Normalization, want.Text, want.Count, want.Lines, want.Normalization)
			}
			if r := applyRegions(t, text, got.Regions); r != want.Text {
				t.Fatalf("%+v: regions %+v give %q, want %q", edits, got.Regions, r, want.Text)
			}
			if all, err := ApplyAll(text, edits); err != nil || all.Text != want.Text {
				t.Fatalf("ApplyAll: %q %v", all.Text, err)
			}
		}
	})
}
