package textedit

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func utf16le(s string) []byte {
	b := []byte{0xFF, 0xFE}
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			hi, lo := 0xD800+(r>>10), 0xDC00+(r&0x3FF)
			b = append(b, byte(hi), byte(hi>>8), byte(lo), byte(lo>>8))
			continue
		}
		b = append(b, byte(r), byte(r>>8))
	}
	return b
}

func utf16be(s string) []byte {
	le := utf16le(s)
	for i := 0; i+1 < len(le); i += 2 {
		le[i], le[i+1] = le[i+1], le[i]
	}
	return le
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		text string
		enc  Encoding
	}{
		{"empty", nil, "", Encoding{Kind: UTF8}},
		{"utf8", []byte("héllo\nwörld\n"), "héllo\nwörld\n", Encoding{Kind: UTF8}},
		{"utf8 no final newline", []byte("a\nb"), "a\nb", Encoding{Kind: UTF8}},
		{"utf8 bom", []byte("\xEF\xBB\xBFhi\n"), "hi\n", Encoding{Kind: UTF8, BOM: true}},
		{"utf8 bom only", []byte("\xEF\xBB\xBF"), "", Encoding{Kind: UTF8, BOM: true}},
		{"crlf", []byte("a\r\nb\r\n"), "a\nb\n", Encoding{Kind: UTF8, CRLF: true}},
		{"crlf bom", []byte("\xEF\xBB\xBFa\r\nb"), "a\nb", Encoding{Kind: UTF8, BOM: true, CRLF: true}},
		{"lone cr kept", []byte("a\rb\n"), "a\rb\n", Encoding{Kind: UTF8}},
		{"cr cr lf", []byte("a\r\r\nb\r\n"), "a\r\nb\n", Encoding{Kind: UTF8, CRLF: true}},
		{"utf16le", utf16le("hé 😀\r\nx\r\n"), "hé 😀\nx\n", Encoding{Kind: UTF16LE, BOM: true, CRLF: true}},
		{"utf16be", utf16be("hé\nx"), "hé\nx", Encoding{Kind: UTF16BE, BOM: true}},
		{"latin1", []byte("caf\xe9 na\xefve\n"), "café naïve\n", Encoding{Kind: Latin1}},
		{"windows-1252 quotes", []byte("\x93hi\x94 costs \x80 5, \x81 is undefined\n"), "“hi” costs € 5, \u0081 is undefined\n", Encoding{Kind: Latin1}},
		{"latin1 crlf", []byte("\xe9\r\n"), "é\n", Encoding{Kind: Latin1, CRLF: true}},
		{"escape and backspace are text", []byte("\x1b[31mred\x1b[0m a\bb\f\n"), "\x1b[31mred\x1b[0m a\bb\f\n", Encoding{Kind: UTF8}},
		{"utf8 bom then invalid is latin1", []byte("\xEF\xBB\xBF\xff"), "ï»¿ÿ", Encoding{Kind: Latin1}},
		{"mixed mostly lf", []byte("a\r\nb\nc\n"), "a\nb\nc\n", Encoding{Kind: UTF8, Mixed: true}},
		{"mixed mostly crlf", []byte("a\nb\r\nc\r\n"), "a\nb\nc\n", Encoding{Kind: UTF8, CRLF: true, Mixed: true}},
		{"mixed tie first decides", []byte("a\r\nb\n"), "a\nb\n", Encoding{Kind: UTF8, CRLF: true, Mixed: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, enc, err := Decode(tt.in)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if text != tt.text {
				t.Errorf("text = %q, want %q", text, tt.text)
			}
			enc.mixed = nil
			if enc != tt.enc {
				t.Errorf("encoding = %+v, want %+v", enc, tt.enc)
			}
			_, enc, _ = Decode(tt.in)
			back, err := Encode(text, enc)
			if err != nil {
				t.Fatalf("Encode: %v", err)
			}
			if !bytes.Equal(back, tt.in) && !(len(back) == 0 && len(tt.in) == 0) {
				t.Errorf("Encode(Decode(b)) = %q, want %q", back, tt.in)
			}
		})
	}
}

func TestDecodeBinary(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
	}{
		{"nul", []byte("abc\x00def")},
		{"nul far in", append(bytes.Repeat([]byte("text\n"), 100000), 0)},
		{"nul in latin1", []byte("\xe9\x00")},
		{"controls", []byte("\x01\x02\x03\x04abcdef")},
		{"png header", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")},
		{"utf16 odd length", append(utf16le("ab"), 'c')},
		{"utf16 unpaired surrogate", append(utf16le("a"), 0x00, 0xD8, 'b', 0)},
		{"utf16 nul", utf16le("a\x00b")},
		{"utf16be low surrogate first", append(utf16be("a"), 0xDC, 0x00, 0xD8, 0x00)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Decode(tt.in)
			if !errors.Is(err, ErrBinary) {
				t.Fatalf("Decode(%q) error = %v, want ErrBinary", tt.in, err)
			}
		})
	}
}

func TestEncodeErrors(t *testing.T) {
	_, err := Encode("ok\nsay → no\n", Encoding{Kind: Latin1})
	var ee *EncodeError
	if !errors.As(err, &ee) {
		t.Fatalf("Encode error = %v, want *EncodeError", err)
	}
	if ee.Rune != '→' || ee.Line != 2 || ee.Column != 5 {
		t.Errorf("EncodeError = %+v, want → at 2:5", ee)
	}
	if !strings.Contains(ee.Error(), "line 2") || !strings.Contains(ee.Error(), "U+2192") {
		t.Errorf("message %q lacks the line or the character", ee.Error())
	}
	for _, k := range []Kind{UTF8, UTF16LE, Latin1} {
		_, err := Encode("ok\nbad \xff", Encoding{Kind: k})
		if !errors.As(err, &ee) || !ee.Invalid || ee.Line != 2 || ee.Column != 5 {
			t.Errorf("Encode of invalid UTF-8 to %v: %v", k, err)
		}
	}
	if b, err := Encode("\uFFFD", Encoding{Kind: UTF8}); err != nil || string(b) != "\uFFFD" {
		t.Errorf("Encode of U+FFFD: %q, %v", b, err)
	}
	if b, err := Encode("€ “x” é\n", Encoding{Kind: Latin1, CRLF: true}); err != nil || string(b) != "\x80 \x93x\x94 \xe9\r\n" {
		t.Errorf("Encode Windows-1252 = %q, %v", b, err)
	}
}

func TestLatin1RoundTripsEveryByte(t *testing.T) {
	var all []byte
	for c := 1; c < 256; c++ {
		if c == '\r' {
			continue
		}
		all = append(all, byte(c))
	}
	all = append(bytes.Repeat([]byte("text "), 100), all...) // keep the control ratio low
	text, enc, err := Decode(all)
	if err != nil {
		t.Fatal(err)
	}
	if enc.Kind != Latin1 {
		t.Fatalf("kind = %v, want Latin1", enc.Kind)
	}
	back, err := Encode(text, enc)
	if err != nil || !bytes.Equal(back, all) {
		t.Fatalf("round trip failed: %v", err)
	}
}

// TestMixedEndingsKeptAcrossEdit checks that an edit of a file with mixed
// line endings changes only the ending of the lines it touched.
func TestMixedEndingsKeptAcrossEdit(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		old, new string
		want     string
	}{
		{"change a crlf line", "a\r\nb\nc\r\nd\n", "c", "C", "a\r\nb\nC\r\nd\n"},
		{"change an lf line", "a\r\nb\nc\r\nd\n", "b", "B", "a\r\nB\nc\r\nd\n"},
		{"add lines after a crlf line", "a\r\nb\nc\r\nd\n", "c\n", "c\nc2\nc3\n", "a\r\nb\nc\r\nc2\r\nc3\r\nd\n"},
		{"add lines after an lf line", "a\r\nb\nc\r\nd\n", "b\n", "b\nb2\n", "a\r\nb\nb2\nc\r\nd\n"},
		{"replace two lines by three", "a\r\nb\nc\r\nd\n", "b\nc\n", "x\ny\nz\n", "a\r\nx\ny\r\nz\r\nd\n"},
		{"delete a line", "a\r\nb\nc\r\nd\n", "b\n", "", "a\r\nc\r\nd\n"},
		{"insert at start", "a\r\nb\nc\r\nd\n", "a\n", "0\na\n", "0\r\na\r\nb\nc\r\nd\n"},
		{"change last line without newline", "a\r\nb\nc", "c", "c\nd", "a\r\nb\nc\nd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, enc, err := Decode([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if !enc.Mixed {
				t.Fatalf("not detected as mixed: %+v", enc)
			}
			res, err := Apply(text, Edit{Old: tt.old, New: tt.new})
			if err != nil {
				t.Fatal(err)
			}
			out, err := Encode(res.Text, enc)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want {
				t.Errorf("got %q, want %q", out, tt.want)
			}
		})
	}
	// A Mixed encoding built by hand falls back to the majority.
	out, _ := Encode("a\nb\n", Encoding{Mixed: true, CRLF: true})
	if string(out) != "a\r\nb\r\n" {
		t.Errorf("hand-built mixed encoding: got %q", out)
	}
}

func TestEncodingString(t *testing.T) {
	tests := map[string]Encoding{
		"UTF-8, LF":             {},
		"UTF-8 with BOM, CRLF":  {BOM: true, CRLF: true},
		"UTF-16LE with BOM, LF": {Kind: UTF16LE, BOM: true},
		"Latin-1 (Windows-1252), mixed line endings (mostly CRLF)": {Kind: Latin1, CRLF: true, Mixed: true},
	}
	for want, enc := range tests {
		if got := enc.String(); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
	}
}

// TestEditEncodings runs the read-edit-write path on files in every
// encoding and checks that the encoding, BOM and line endings survive.
func TestEditEncodings(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		edit Edit
		want []byte
	}{
		{"crlf, old written with lf", []byte("one\r\ntwo\r\nthree\r\n"), Edit{Old: "one\ntwo\n", New: "1\n2\n2.5\n"}, []byte("1\r\n2\r\n2.5\r\nthree\r\n")},
		{"crlf, old written with crlf", []byte("one\r\ntwo\r\n"), Edit{Old: "one\r\ntwo", New: "1\r\n2"}, []byte("1\r\n2\r\n")},
		{"bom kept", []byte("\xEF\xBB\xBFx = 1\n"), Edit{Old: "1", New: "2"}, []byte("\xEF\xBB\xBFx = 2\n")},
		{"utf16le kept", utf16le("a\r\nb\r\n"), Edit{Old: "b", New: "ß"}, utf16le("a\r\nß\r\n")},
		{"utf16be kept", utf16be("a\nb\n"), Edit{Old: "a\n", New: ""}, utf16be("b\n")},
		{"latin1 kept", []byte("caf\xe9\n"), Edit{Old: "café", New: "thé"}, []byte("th\xe9\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, enc, err := Decode(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Apply(text, tt.edit)
			if err != nil {
				t.Fatal(err)
			}
			out, err := Encode(res.Text, enc)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, tt.want) {
				t.Errorf("got %q, want %q", out, tt.want)
			}
		})
	}
}
