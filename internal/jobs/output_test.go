package jobs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTruncate(t *testing.T) {
	for _, tc := range []struct {
		name       string
		in         string
		limit      int
		head, tail string
		omitted    int
	}{
		{"fits", "hello\n", 10, "hello\n", "", 0},
		{"exact", "0123456789", 10, "0123456789", "", 0},
		{"cut", "0123456789abcdef", 10, "01234", "bcdef", 6},
		{"odd limit", "0123456789abcdef", 5, "01", "def", 11},
		{"empty", "", 10, "", "", 0},
		{"zero limit", "abc", 0, "", "", 3},
		{"multibyte not split", "ééééééééé", 4, "éé", "éé", 10},
		{"emoji", "😀a😀b😀c😀", 4, "😀a", "c😀", 9},
		{"invalid bytes escaped", "a\xffb", 10, `a\xffb`, "", 0},
		{"escape counts four", "\x00\x01\x02", 8, `\x00`, `\x02`, 1},
		{"truncated rune at end", "ab\xe2\x82", 20, `ab\xe2\x82`, "", 0},
		{"kept controls", "a\tb\r\n\x1b[0m", 20, "a\tb\r\n\x1b[0m", "", 0},
		{"escaped controls", "\a\b\x7f", 20, `\x07\x08\x7f`, "", 0},
		{"legit U+FFFD kept", "\uFFFD", 5, "\uFFFD", "", 0},
		{"backslash literal", `\x41`, 10, `\x41`, "", 0},
		{"invalid at the cut", "abcd\xff\xffwxyz", 8, "abcd", "wxyz", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			head, tail, omitted := Truncate([]byte(tc.in), tc.limit)
			if head != tc.head || tail != tc.tail || omitted != tc.omitted {
				t.Errorf("Truncate(%q, %d) = %q, %q, %d; want %q, %q, %d", tc.in, tc.limit, head, tail, omitted, tc.head, tc.tail, tc.omitted)
			}
		})
	}
}

func FuzzTruncate(f *testing.F) {
	f.Add([]byte("hello world"), 5)
	f.Add([]byte("é\xff😀\x00abc"), 7)
	f.Add([]byte("\x00\x01\xe2\x82x"), 3)
	f.Fuzz(func(t *testing.T, in []byte, limit int) {
		limit = limit%100 + 50
		if limit < 0 {
			limit = -limit
		}
		rh, rt, ro := truncate(in, limit, true)
		if !utf8.ValidString(rh) || !utf8.ValidString(rt) || utf8.RuneCountInString(rh)+utf8.RuneCountInString(rt) > limit {
			t.Fatalf("raw: %q, %q out of %q for limit %d", rh, rt, in, limit)
		}
		// Whole, it holds the input's valid characters in order, with
		// U+FFFD between them for what is not.
		noFFFD := func(s string) string { return strings.ReplaceAll(s, "\uFFFD", "") }
		if ro < 0 || ro > len(in) || (ro == 0 && noFFFD(rh) != noFFFD(strings.ToValidUTF8(string(in), ""))) {
			t.Fatalf("raw: omitted %d of %d, whole %q", ro, len(in), rh)
		}
		head, tail, omitted := Truncate(in, limit)
		if !utf8.ValidString(head) || !utf8.ValidString(tail) {
			t.Fatalf("invalid UTF-8 out of %q", in)
		}
		if n := utf8.RuneCountInString(head) + utf8.RuneCountInString(tail); n > limit {
			t.Fatalf("%d characters for limit %d", n, limit)
		}
		if omitted < 0 || omitted > len(in) || (omitted == 0 && tail != "") {
			t.Fatalf("omitted %d of %d", omitted, len(in))
		}
		if omitted == 0 && head != Safe(in) {
			t.Fatalf("whole output rendered %q, Safe gives %q", head, Safe(in))
		}
	})
}

// Raw text (Config.RawText) is the bytes as Node decodes them for Claude
// Code: control characters kept, each byte that is not UTF-8 one U+FFFD,
// each character one of the limit.
func TestTruncateRaw(t *testing.T) {
	in := []byte("\x00\x01\b\t\n\x1b\x7f é\xff!")
	head, tail, omitted := truncate(in, 100, true)
	if want := "\x00\x01\b\t\n\x1b\x7f é\uFFFD!"; head != want || tail != "" || omitted != 0 {
		t.Errorf("raw whole = %q, %q, %d; want %q", head, tail, omitted, want)
	}
	// One U+FFFD for a sequence cut short, as Node's decoder gives (probed
	// with Claude Code 2.1.7: printf 'a\342\202x\377b' shows "a�x�b").
	for in, want := range map[string]string{
		"a\xe2\x82x\xffb":   "a\uFFFDx\uFFFDb",
		"\xed\xa0\x80":      "\uFFFD\uFFFD\uFFFD", // a surrogate: ED takes 80-9F only
		"\xf0\x9f\x98":      "\uFFFD",             // cut short at the end
		"\xf0\x80\x80":      "\uFFFD\uFFFD\uFFFD", // overlong: F0 takes 90-BF only
		"\xc0\xaf":          "\uFFFD\uFFFD",
		"\xf4\x8f\xbf\xbfz": "\U0010FFFFz",
	} {
		if got, _, _ := truncate([]byte(in), 100, true); got != want {
			t.Errorf("raw %q = %q, want %q", in, got, want)
		}
	}
	head, tail, omitted = truncate(in, 4, true)
	if head != "\x00\x01" || tail != "\uFFFD!" || omitted != len(in)-2-2 {
		t.Errorf("raw cut = %q, %q, %d", head, tail, omitted)
	}
}

func TestTextString(t *testing.T) {
	if s := (Text{Head: "all"}).String(); s != "all" {
		t.Errorf("whole: %q", s)
	}
	s := Text{Head: "h", Tail: "t", Omitted: 42, Path: "/tmp/x"}.String()
	if s != "h\n\n[... 42 bytes of output omitted; the whole output is in /tmp/x ...]\n\nt" {
		t.Errorf("cut: %q", s)
	}
}

// The buffer gives the same text however the stream was written, and its
// spill file holds the stream byte for byte up to the limit.
func TestBufferAcrossWrites(t *testing.T) {
	dir := t.TempDir()
	var stream bytes.Buffer
	for i := range 5000 {
		stream.WriteString(strings.Repeat("é", i%7))
		stream.WriteString("\xff line\n")
	}
	data := stream.Bytes()
	wantHead, wantTail, wantOmitted := Truncate(data, 300)
	for _, chunk := range []int{1, 3, 7, 4096, len(data)} {
		n := 0
		b := &buffer{window: window(300), fileLimit: 1 << 30, spill: func() (*os.File, error) {
			n++
			return os.Create(filepath.Join(dir, "spill"))
		}}
		for p := data; len(p) > 0; {
			k := min(chunk, len(p))
			b.write(p[:k])
			p = p[k:]
		}
		tx := b.text(0, b.size, 300)
		if tx.Head != wantHead || tx.Tail != wantTail || tx.Omitted != int64(wantOmitted) {
			t.Errorf("chunk %d: head/tail/omitted differ: %d %d %d", chunk, len(tx.Head), len(tx.Tail), tx.Omitted)
		}
		got, _ := os.ReadFile(tx.Path)
		if !bytes.Equal(got, data) || n != 1 {
			t.Errorf("chunk %d: spill file %d bytes of %d, made %d times", chunk, len(got), len(data), n)
		}
		// A range in the middle reads from the file.
		mid := b.text(1000, 50000, 300)
		h, tl, om := Truncate(data[1000:50000], 300)
		if mid.Head != h || mid.Tail != tl || mid.Omitted != int64(om) {
			t.Errorf("chunk %d: middle range differs", chunk)
		}
		b.close()
	}
}

func TestBufferMemoryOnly(t *testing.T) {
	b := &buffer{window: 4096}
	for range 1000 {
		b.write(bytes.Repeat([]byte("x"), 1000))
	}
	b.write([]byte("END"))
	if len(b.head) != 4096 || len(b.tail) > 2*4096 {
		t.Errorf("memory grew: head %d tail %d", len(b.head), len(b.tail))
	}
	tx := b.text(0, b.size, 100)
	if !strings.HasSuffix(tx.Tail, "xEND") || tx.Path != "" || tx.Omitted != b.size-100 {
		t.Errorf("%+v", tx)
	}
}
