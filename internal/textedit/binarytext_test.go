package textedit

import (
	"testing"
	"unicode/utf8"
)

// binaryTextRef is binaryText as it was, decoding every rune: the
// reference the faster one must agree with.
func binaryTextRef(b []byte) bool {
	if len(b) > sniffLen {
		b = b[:sniffLen]
	}
	n, controls := 0, 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		if r == utf8.RuneError && size == 1 && len(b) < utf8.UTFMax {
			break
		}
		n++
		switch {
		case r == '\t', r == '\n', r == '\v', r == '\f', r == '\r', r == '\b', r == 0x1b:
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
			controls++
		}
	}
	return controls*10 > n
}

// FuzzBinaryText: binaryText, which skips decoding ASCII, says what
// decoding every rune says, for any bytes (controls, C1 controls, invalid
// and cut UTF-8, NULs).
func FuzzBinaryText(f *testing.F) {
	for _, s := range []string{"", "plain text\n", "\x00\x01\x02abc", "\t\n\v\f\r\b\x1b", "é\u0085\u009f\u00a0", "\xff\xfe\x00a", "abc\xe2\x82", "\x7f\x7fx"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := binaryText(b), binaryTextRef(b); got != want {
			t.Fatalf("binaryText(%q) = %v, decoding each rune says %v", b, got, want)
		}
	})
}

func BenchmarkBinaryText(b *testing.B) {
	var text []byte
	for len(text) < sniffLen {
		text = append(text, "\tfunc (d *dirRef) readDir(buf []byte) ([]dirent, error) { // é\n"...)
	}
	for b.Loop() {
		binaryText(text)
	}
}
