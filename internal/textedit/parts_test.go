package textedit

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
)

// FuzzParts checks that what ApplyParts gives, and what is built from its
// parts without joining them (DiffParts, EncodeParts, LineWindow), is what
// Apply, Diff, Encode and strings.Split give for the whole new text.
func FuzzParts(f *testing.F) {
	f.Add([]byte("a\nb\nc\n"), "b", "B", false, 1, 2)
	f.Add([]byte("x x\nx\n"), "x", "y\nz", true, 0, 3)
	f.Add([]byte("a\r\nb\r\nc"), "b", "", false, 2, 1)
	f.Add([]byte("\xEF\xBB\xBFone\ntwo\r\nthree\n"), "two", "2\n2", false, 2, 4)
	f.Add([]byte("caf\xe9\nx\n"), "x", "y", false, 1, 9)
	f.Add([]byte("\xff\xfea\x00\n\x00"), "a", "bb", false, 1, 2)
	f.Add([]byte("ababab\nab\n"), "ab", "abab", true, 1, 3)
	f.Fuzz(func(t *testing.T, b []byte, old, new string, all bool, from, n int) {
		text, enc, err := Decode(b)
		if err != nil {
			return
		}
		e := Edit{Old: old, New: new, ReplaceAll: all}
		want, werr := Apply(text, e)
		got, gerr := ApplyParts(text, e)
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Fatalf("errors: Apply %v, ApplyParts %v", werr, gerr)
		}
		if werr != nil {
			return
		}
		if joined := strings.Join(got.Parts, ""); joined != want.Text || got.Count != want.Count || !slices.Equal(got.Lines, want.Lines) {
			t.Fatalf("ApplyParts gives %q (%d at %v), Apply %q (%d at %v)", joined, got.Count, got.Lines, want.Text, want.Count, want.Lines)
		}
		if r := applyRegions(t, text, got.Regions); r != want.Text {
			t.Fatalf("regions %+v give %q, want %q", got.Regions, r, want.Text)
		}
		for _, ctx := range []int{0, 1, 3} {
			if d, w := DiffParts("f", text, got.Parts, ctx), Diff("f", text, want.Text, ctx); d != w {
				t.Fatalf("context %d: DiffParts\n%s\nDiff\n%s", ctx, d, w)
			}
		}
		data, werr := Encode(want.Text, enc)
		size, write, gerr := EncodeParts(got.Parts, enc)
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Fatalf("errors: Encode %v, EncodeParts %v", werr, gerr)
		}
		if werr == nil {
			var buf bytes.Buffer
			if err := write(&buf); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), data) || size != int64(len(data)) {
				t.Fatalf("EncodeParts wrote %q (size %d), Encode %q", buf.Bytes(), size, data)
			}
		}
		from = 1 + abs(from)%8
		to := from + 1 + abs(n)%8
		all1 := strings.Split(want.Text, "\n")
		wantLines := all1[min(from-1, len(all1)):min(to-1, len(all1))]
		gotLines := strings.Split(LineWindow(got.Parts, from, to), "\n")
		if len(wantLines) == 0 {
			wantLines = []string{""} // Split of "" is one empty line
		}
		if !slices.Equal(gotLines, wantLines) {
			t.Fatalf("LineWindow(%d, %d) of %q: %q, want %q", from, to, want.Text, gotLines, wantLines)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// DecodeOwned gives the text Decode gives, sharing b's memory when it can.
func TestDecodeOwned(t *testing.T) {
	for _, s := range []string{"a\nb\n", "a\r\nb\r\n", "\xEF\xBB\xBFx\n", "caf\xe9\n", "", "\x00"} {
		want, wenc, werr := Decode([]byte(s))
		got, genc, gerr := DecodeOwned([]byte(s))
		if got != want || wenc.String() != genc.String() || !errors.Is(gerr, werr) {
			t.Errorf("%q: DecodeOwned %q %v %v, Decode %q %v %v", s, got, genc, gerr, want, wenc, werr)
		}
	}
	b := []byte("shared\n")
	text, _, _ := DecodeOwned(b)
	b[0] = 'S'
	if text != "Shared\n" {
		t.Errorf("DecodeOwned copied a UTF-8 text with LF endings: %q", text)
	}
}

// TestEncodePartsLarge: parts larger than the chunks EncodeParts encodes
// at a time, with characters of every UTF-8 length across the cuts, give
// Encode's bytes in every encoding and line ending it streams.
func TestEncodePartsLarge(t *testing.T) {
	line := "a é € 𝄞 line\n"
	text := strings.Repeat(line, 20000) // about 360 KB
	cut := len(line) * 5000
	parts := []string{text[:cut], "new 𝄞\n", text[cut+len(line):]}
	joined := strings.Join(parts, "")
	for _, enc := range []Encoding{
		{Kind: UTF8}, {Kind: UTF8, BOM: true, CRLF: true},
		{Kind: UTF16LE, BOM: true}, {Kind: UTF16LE, CRLF: true}, {Kind: UTF16BE, BOM: true, CRLF: true},
	} {
		want, err := Encode(joined, enc)
		if err != nil {
			t.Fatal(err)
		}
		size, write, err := EncodeParts(parts, enc)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), want) || size != int64(len(want)) {
			t.Errorf("%v: EncodeParts wrote %d bytes (size %d), Encode %d, equal %v", enc, buf.Len(), size, len(want), bytes.Equal(buf.Bytes(), want))
		}
	}
}
