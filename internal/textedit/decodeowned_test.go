package textedit

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf16"
)

func utf16LE(s string) []byte {
	b := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

// FuzzDecodeOwned: DecodeOwned, which may decode UTF-16 in place, gives
// what Decode gives, and leaves the bytes as they were when it fails.
func FuzzDecodeOwned(f *testing.F) {
	f.Add(utf16LE("hello\nworld\n"))
	f.Add(utf16LE("a\r\nb\r\n"))
	f.Add(utf16LE("€€€ three bytes each"))    // UTF-8 runs ahead: copied
	f.Add(utf16LE("x𝄞y, a surrogate pair\n")) // four bytes either way
	f.Add(utf16LE("\x01\x02\x03\x04\x05\x06\x07\x08 binary"))
	f.Add([]byte{0xFE, 0xFF, 0, 'a', 0, '\n'})
	f.Add([]byte{0xFF, 0xFE, 'a', 0, 0, 0})
	f.Add([]byte("plain\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		wantText, wantEnc, wantErr := Decode(bytes.Clone(b))
		owned := bytes.Clone(b)
		text, enc, err := DecodeOwned(owned)
		if (err == nil) != (wantErr == nil) || text != wantText || enc.String() != wantEnc.String() {
			t.Fatalf("DecodeOwned %q %v %v, Decode %q %v %v", text, enc, err, wantText, wantEnc, wantErr)
		}
		if err != nil && !bytes.Equal(owned, b) {
			t.Fatalf("a failed DecodeOwned changed the bytes: %q, was %q", owned, b)
		}
	})
}

// TestDecodeOwnedInPlace: a large UTF-16 file of mostly ASCII text is
// decoded into its own bytes, not a copy; one whose UTF-8 runs ahead is
// copied; both give Decode's text.
func TestDecodeOwnedInPlace(t *testing.T) {
	for _, c := range []struct {
		text    string
		inPlace bool
	}{
		{strings.Repeat("line of text é 𝄞\n", 5000), true},
		{strings.Repeat("€", 5000), false},
	} {
		b := utf16LE(c.text)
		text, _, err := DecodeOwned(b)
		if err != nil || text != c.text {
			t.Fatalf("DecodeOwned: %v, text equal %v", err, text == c.text)
		}
		// Decoded in place, the bytes after the BOM now start with the text.
		inPlace := bytes.HasPrefix(b[2:], []byte(c.text[:100]))
		if inPlace != c.inPlace {
			t.Errorf("%.20q…: decoded in place %v, want %v", c.text, inPlace, c.inPlace)
		}
	}
}
