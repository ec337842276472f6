package textedit

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzDecodeEncode(f *testing.F) {
	for _, s := range []string{
		"", "a\nb\n", "a\r\nb\r\n", "a\r\nb\nc", "a\r\r\n\r", "\xEF\xBB\xBFx\r\n",
		"caf\xe9\r\n", "\x93q\x94\n", "\xff\xfea\x00\r\x00\n\x00", "\xfe\xff\x00a\x00\n",
		"\xff\xfe=\xd8\x00\xde", "\x00", "\x01\x02", "\xEF\xBB\xBF\xff",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		text, enc, err := Decode(b)
		if err != nil {
			if !errors.Is(err, ErrBinary) {
				t.Fatalf("Decode error %v is not ErrBinary", err)
			}
			return
		}
		if !utf8.ValidString(text) {
			t.Fatalf("Decode returned invalid UTF-8 %q", text)
		}
		out, err := Encode(text, enc)
		if err != nil {
			t.Fatalf("Encode(Decode(%q)): %v", b, err)
		}
		if !bytes.Equal(out, b) {
			t.Fatalf("Encode(Decode(%q)) = %q (encoding %v)", b, out, enc)
		}
	})
}

func FuzzApply(f *testing.F) {
	f.Add("a\nb\nc\n", "b", "B", false, 0)
	f.Add("x x\n", "x", "y", true, 0)
	f.Add("x x\n", "x", "y", false, 2)
	f.Add("a  \nb\n", "a\nb", "c", false, 0)
	f.Add("a\r\nb\r\n", "a\nb", "c\nd", false, 0)
	f.Add("a\nb\n", "1\ta\n2\tb", "1\tc", false, 0)
	f.Add("“q” ‘s’\n", "\"q\" 's'", "\"r\" 's'", false, 0)
	f.Add("foo bar\n", "foo  ", "x", false, 0)
	f.Fuzz(func(t *testing.T, text, old, new string, all bool, expected int) {
		e := Edit{Old: old, New: new, ReplaceAll: all, Expected: expected % 4}
		res, err := Apply(text, e)
		if err != nil {
			var nf *NotFoundError
			var ae *AmbiguousError
			var ce *CountMismatchError
			if !errors.As(err, &nf) && !errors.As(err, &ae) && !errors.As(err, &ce) &&
				!errors.Is(err, ErrEmptyOld) && !errors.Is(err, ErrNoChange) && !errors.Is(err, ErrNegativeExpected) {
				t.Fatalf("unexpected error type %T: %v", err, err)
			}
			return
		}
		if res.Text == text {
			t.Fatalf("success without a change")
		}
		if res.Count < 1 || len(res.Lines) != res.Count {
			t.Fatalf("count %d, lines %v", res.Count, res.Lines)
		}
		if !all && e.Expected <= 0 && res.Normalization == "" {
			if n := strings.Count(text, old); n != 1 {
				t.Fatalf("replaced without normalisation but old occurs %d times", n)
			}
			i := strings.Index(text, old)
			if want := text[:i] + new + text[i+len(old):]; res.Text != want {
				t.Fatalf("Text = %q, want %q", res.Text, want)
			}
		}
	})
}

// FuzzEditRoundTrip checks that writing an edited file back and reading it
// again gives the edited text, in every encoding and with mixed endings.
func FuzzEditRoundTrip(f *testing.F) {
	f.Add([]byte("a\r\nb\nc\r\nd\n"), "b\nc", "x\ny\nz")
	f.Add([]byte("a\r\nb\r\n"), "a", "a\nnew")
	f.Add([]byte("\xff\xfea\x00\n\x00"), "a", "é")
	f.Add([]byte("caf\xe9\n"), "café", "tea")
	f.Fuzz(func(t *testing.T, b []byte, old, new string) {
		text, enc, err := Decode(b)
		if err != nil || strings.Contains(text+old+new, "\r") {
			return
		}
		res, err := Apply(text, Edit{Old: old, New: new})
		if err != nil {
			return
		}
		out, err := Encode(res.Text, enc)
		if err != nil {
			var ee *EncodeError
			if !errors.As(err, &ee) || enc.Kind == UTF8 && !ee.Invalid {
				t.Fatalf("Encode: %v", err)
			}
			return
		}
		back, enc2, err := Decode(out)
		if err != nil {
			return // an edit may make a text look binary (a NUL, many controls)
		}
		if enc2.Kind != enc.Kind || enc2.BOM != enc.BOM {
			// Latin-1 text can turn into valid UTF-8 or start with "þÿ",
			// a UTF-16 byte order mark; text can start with U+FEFF. The
			// bytes are right, but they read back as another encoding.
			if enc.Kind == Latin1 || strings.HasPrefix(res.Text, "\uFEFF") {
				return
			}
			t.Fatalf("encoding changed from %v to %v", enc, enc2)
		}
		if back != res.Text {
			t.Fatalf("read back %q, want %q", back, res.Text)
		}
	})
}

func FuzzDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nc\n", 3)
	f.Add("a", "a\n", 0)
	f.Add("", "x\ny", 1)
	f.Fuzz(func(t *testing.T, a, b string, context int) {
		context %= 5
		d := Diff("f", a, b, context)
		got, err := patch(a, d)
		if err != nil || got != b {
			t.Fatalf("patch(a, Diff(a, b)) = %q, %v; want %q\n%s", got, err, b, d)
		}
		_ = Summarize(d, 5)
	})
}
