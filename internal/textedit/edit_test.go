package textedit

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestApply(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		edit  Edit
		want  string
		count int
		lines []int
		norm  string
	}{
		{"exact", "a\nb\nc\n", Edit{Old: "b", New: "B"}, "a\nB\nc\n", 1, []int{2}, ""},
		{"delete", "a\nb\nc\n", Edit{Old: "b\n", New: ""}, "a\nc\n", 1, []int{2}, ""},
		{"multi-line", "func f() {\n\treturn 1\n}\n", Edit{Old: "\treturn 1\n}", New: "\treturn 2\n}"}, "func f() {\n\treturn 2\n}\n", 1, []int{2}, ""},
		{"replace all", "x y x\nx\n", Edit{Old: "x", New: "z", ReplaceAll: true}, "z y z\nz\n", 3, []int{1, 1, 2}, ""},
		{"replace all single", "x y\n", Edit{Old: "x", New: "z", ReplaceAll: true}, "z y\n", 1, []int{1}, ""},
		{"expected count", "x y x\n", Edit{Old: "x", New: "z", Expected: 2}, "z y z\n", 2, []int{1, 1}, ""},
		{"non-overlapping", "aaaa\n", Edit{Old: "aa", New: "b", ReplaceAll: true}, "bb\n", 2, []int{1, 1}, ""},
		{"new contains old", "ab\n", Edit{Old: "ab", New: "abab"}, "abab\n", 1, []int{1}, ""},

		// line-endings
		{"old has crlf, text lf", "one\ntwo\nthree\n", Edit{Old: "one\r\ntwo", New: "1\r\n2"}, "1\n2\nthree\n", 1, []int{1}, NormLineEndings},
		{"raw crlf text, old lf", "one\r\ntwo\r\nthree\r\n", Edit{Old: "one\ntwo\n", New: "1\n2\n"}, "1\r\n2\r\nthree\r\n", 1, []int{1}, NormLineEndings},
		{"raw crlf text, old starts with newline", "a\r\nb\r\nc", Edit{Old: "\nb\nc", New: "\nB\nC"}, "a\r\nB\r\nC", 1, []int{1}, NormLineEndings},

		// trailing-whitespace
		{"file has trailing spaces", "if x {  \n\ty()\t\n}\n", Edit{Old: "if x {\n\ty()\n}", New: "if x {\n\tz()\n}"}, "if x {\n\tz()\n}\n", 1, []int{1}, NormTrailingWhitespace},
		{"old has trailing spaces", "a\nb\nc\n", Edit{Old: "a  \nb", New: "A\nB"}, "A\nB\nc\n", 1, []int{1}, NormTrailingWhitespace},
		{"old ends with spaces at a line end", "foo\nfoo bar\n", Edit{Old: "foo  ", New: "baz"}, "baz\nfoo bar\n", 1, []int{1}, NormTrailingWhitespace},
		{"trailing whitespace inside the region is replaced", "a  \nb\n", Edit{Old: "a\nb", New: "A\nB"}, "A\nB\n", 1, []int{1}, NormTrailingWhitespace},
		{"trailing spaces at end of file", "x  \ny  ", Edit{Old: "x\ny", New: "z"}, "z  ", 1, []int{1}, NormTrailingWhitespace},

		// line-number-prefix
		{"cat -n prefix", "package p\n\nfunc f() {}\n", Edit{Old: "     2\t\n     3\tfunc f() {}", New: "\nfunc g() {}"}, "package p\n\nfunc g() {}\n", 1, []int{2}, NormLineNumberPrefix},
		{"cat -n prefix in new too", "a\nb\nc\n", Edit{Old: "     2\tb\n     3\tc", New: "     2\tB\n     3\tC"}, "a\nB\nC\n", 1, []int{2}, NormLineNumberPrefix},
		{"arrow prefix", "a\nb\nc\n", Edit{Old: "  1→a\n  2→b\n", New: "  1→x\n"}, "x\nc\n", 1, []int{1}, NormLineNumberPrefix},
		{"box prefix", "a\nb\n", Edit{Old: "    12│b", New: "B"}, "a\nB\n", 1, []int{2}, NormLineNumberPrefix},
		{"prefix in new only on some lines is kept", "a\nb\n", Edit{Old: "1→a", New: "1→a\nnew"}, "1→a\nnew\nb\n", 1, []int{1}, NormLineNumberPrefix},
		{"new with blank lines still stripped", "a\nb\n", Edit{Old: "1→a", New: "1→x\n\n2→y"}, "x\n\ny\nb\n", 1, []int{1}, NormLineNumberPrefix},

		// typographic-quotes
		{"file curly, old straight", "say “hi” and ‘bye’ now\n", Edit{Old: `say "hi" and`, New: `shout "hey" and`}, "shout “hey” and ‘bye’ now\n", 1, []int{1}, NormTypographicQuotes},
		{"apostrophe closes", "it’s here\n", Edit{Old: "it's", New: "'tis what's"}, "‘tis what’s here\n", 1, []int{1}, NormTypographicQuotes},
		{"only the kind old needed", "“don’t”\n", Edit{Old: `"don’t"`, New: `"won't"`}, "“won't”\n", 1, []int{1}, NormTypographicQuotes},
		{"file straight, old curly", "x = \"a\"\n", Edit{Old: "x = “a”", New: "x = “b”"}, "x = \"b\"\n", 1, []int{1}, NormTypographicQuotes},
		{"replace all with quotes", "‘a’ ‘a’\n", Edit{Old: "'a'", New: "'b'", ReplaceAll: true}, "‘b’ ‘b’\n", 2, []int{1, 1}, NormTypographicQuotes},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Apply(tt.text, tt.edit)
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if res.Text != tt.want {
				t.Errorf("text = %q, want %q", res.Text, tt.want)
			}
			if res.Count != tt.count || !reflect.DeepEqual(res.Lines, tt.lines) {
				t.Errorf("count, lines = %d, %v, want %d, %v", res.Count, res.Lines, tt.count, tt.lines)
			}
			if res.Normalization != tt.norm {
				t.Errorf("normalization = %q, want %q", res.Normalization, tt.norm)
			}
		})
	}
}

func TestApplyErrors(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		edit  Edit
		check func(t *testing.T, err error)
	}{
		{"empty old", "abc", Edit{Old: "", New: "x"}, is(ErrEmptyOld, "old string is empty; to create a file use write")},
		{"old equals new", "abc", Edit{Old: "b", New: "b"}, is(ErrNoChange, "identical")},
		{"no change after normalising", "a\nb\n", Edit{Old: "a\r\nb", New: "a\nb"}, is(ErrNoChange, "after normalising line-endings")},
		{"negative expected", "abc", Edit{Old: "b", New: "c", Expected: -1}, is(ErrNegativeExpected, "negative")},
		{"ambiguous", "x\ny\nx\nx\n", Edit{Old: "x", New: "z"}, func(t *testing.T, err error) {
			var ae *AmbiguousError
			if !errors.As(err, &ae) || ae.Count != 3 || !reflect.DeepEqual(ae.Lines, []int{1, 3, 4}) {
				t.Fatalf("err = %#v, want AmbiguousError{3, [1 3 4]}", err)
			}
			contains(t, err, "occurs 3 times (lines 1, 3, 4)")
		}},
		{"count mismatch", "x x x\n", Edit{Old: "x", New: "z", Expected: 2}, func(t *testing.T, err error) {
			var ce *CountMismatchError
			if !errors.As(err, &ce) || ce.Expected != 2 || ce.Found != 3 {
				t.Fatalf("err = %#v, want CountMismatchError{2, 3}", err)
			}
			contains(t, err, "expected 2 occurrences of old string but found 3")
		}},
		{"count mismatch replace all", "x\n", Edit{Old: "x", New: "z", Expected: 2, ReplaceAll: true}, func(t *testing.T, err error) {
			var ce *CountMismatchError
			if !errors.As(err, &ce) || ce.Found != 1 {
				t.Fatalf("err = %#v, want CountMismatchError", err)
			}
		}},
		{"not found, closest line", "func main() {\n\tfmt.Println(\"hello\")\n}\n", Edit{Old: "fmt.Printf(\"hello\")", New: "x"}, func(t *testing.T, err error) {
			notFound(t, err, "the most similar line is line 2: `fmt.Println(\"hello\")`")
		}},
		{"not found, nothing close", "alpha\nbeta\n", Edit{Old: "zzzzzz", New: "x"}, func(t *testing.T, err error) {
			var nf *NotFoundError
			if !errors.As(err, &nf) || nf.Hint != "" || nf.Old != "zzzzzz" {
				t.Fatalf("err = %#v, want NotFoundError without hint", err)
			}
			if err.Error() != "old string not found in the file" {
				t.Errorf("message = %q", err.Error())
			}
		}},
		{"not found, whitespace differs", "if x {\n    y()\n}\n", Edit{Old: "if x {\n\ty()\n}", New: "z"}, func(t *testing.T, err error) {
			notFound(t, err, "whitespace differs: it matches the text at line 1 when spaces, tabs and line breaks are ignored")
		}},
		{"not found, whitespace inside a line", "a = b + c\n", Edit{Old: "a = b+c", New: "z"}, func(t *testing.T, err error) {
			notFound(t, err, "whitespace differs: it matches the text at line 1")
		}},
		{"not found, later line differs", "one\ntwo\nthree\nfour\n", Edit{Old: "two\nthree\nfive", New: "z"}, func(t *testing.T, err error) {
			notFound(t, err, "the first 2 line(s) of old match at line 2, but line 4 differs: the file has `four`, old has `five`")
		}},
		{"normalisation ambiguous", "a  \nb\na\t\nb\n", Edit{Old: "a \nb", New: "z"}, func(t *testing.T, err error) {
			notFound(t, err, "after normalising trailing whitespace it occurs 2 times (lines 1, 3)")
		}},
		{"line numbers must be consecutive", "a\nb\nc\n", Edit{Old: "1\ta\n3\tc", New: "z"}, func(t *testing.T, err error) {
			var nf *NotFoundError
			if !errors.As(err, &nf) {
				t.Fatalf("err = %v, want NotFoundError", err)
			}
		}},
		{"trailing space of old at mid-line does not match", "foo bar\n", Edit{Old: "foo  bar", New: "z"}, func(t *testing.T, err error) {
			notFound(t, err, "whitespace differs")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Apply(tt.text, tt.edit)
			if err == nil {
				t.Fatalf("Apply succeeded: %+v", res)
			}
			tt.check(t, err)
		})
	}
}

func is(target error, text string) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		t.Helper()
		if !errors.Is(err, target) {
			t.Fatalf("err = %v, want %v", err, target)
		}
		contains(t, err, text)
	}
}

func contains(t *testing.T, err error, text string) {
	t.Helper()
	if !strings.Contains(err.Error(), text) {
		t.Errorf("message %q does not contain %q", err.Error(), text)
	}
}

func notFound(t *testing.T, err error, hint string) {
	t.Helper()
	var nf *NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("err = %v, want NotFoundError", err)
	}
	if !strings.Contains(nf.Hint, hint) {
		t.Errorf("hint %q does not contain %q", nf.Hint, hint)
	}
}

func TestAmbiguousErrorCapsLines(t *testing.T) {
	_, err := Apply(strings.Repeat("x\n", 80), Edit{Old: "x", New: "y"})
	var ae *AmbiguousError
	if !errors.As(err, &ae) || ae.Count != 80 || len(ae.Lines) != maxErrorLines {
		t.Fatalf("err = %v", err)
	}
	contains(t, err, "49, 50 and 30 more)")
}

func TestApplyAll(t *testing.T) {
	text := "a := 1\nb := 2\n"
	res, err := ApplyAll(text, []Edit{
		{Old: "a := 1", New: "a := 10"},
		{Old: "a := 10\nb", New: "a := 10\nc"}, // depends on the first edit
		{Old: "2", New: "3"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "a := 10\nc := 3\n"; res.Text != want {
		t.Errorf("text = %q, want %q", res.Text, want)
	}
	if res.Count != 3 || !reflect.DeepEqual(res.Lines, []int{1, 1, 2}) || res.Normalization != "" {
		t.Errorf("result = %+v", res)
	}

}

func TestApplyAllNormalizations(t *testing.T) {
	res, err := ApplyAll("x  \ny\n", []Edit{{Old: "y", New: "z"}, {Old: "x\nz", New: "w"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "w\n" || res.Normalization != "edits[1]: trailing-whitespace" {
		t.Errorf("result = %+v", res)
	}
}

func TestApplyAllIsAllOrNothing(t *testing.T) {
	text := "one\ntwo\n"
	res, err := ApplyAll(text, []Edit{{Old: "one", New: "1"}, {Old: "three", New: "3"}})
	var ee *EditError
	if !errors.As(err, &ee) || ee.Index != 1 {
		t.Fatalf("err = %v, want EditError for index 1", err)
	}
	var nf *NotFoundError
	if !errors.As(err, &nf) {
		t.Errorf("EditError does not wrap the NotFoundError: %v", err)
	}
	contains(t, err, "edits[1]: old string not found")
	contains(t, err, "no edit was applied")
	if res.Text != "" || res.Count != 0 {
		t.Errorf("partial result returned: %+v", res)
	}

	if _, err := ApplyAll(text, nil); !errors.Is(err, ErrNoEdits) {
		t.Errorf("empty list: err = %v", err)
	}
	if _, err := ApplyAll(text, []Edit{{Old: "one", New: "1"}, {Old: "1", New: "one"}}); !errors.Is(err, ErrNoChange) {
		t.Errorf("edits undoing each other: err = %v", err)
	}
	if _, err := ApplyAll(text, []Edit{{Old: "one", New: "1"}, {Old: "", New: "x"}}); !errors.Is(err, ErrEmptyOld) {
		t.Errorf("empty old in second edit: err = %v", err)
	}
}

// TestApplyOnDecodedCRLF is the common path: a CRLF file decoded to LF and an
// old string copied with LF matches exactly, without a normalisation.
func TestApplyOnDecodedCRLF(t *testing.T) {
	text, enc, err := Decode([]byte("a\r\nb\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Apply(text, Edit{Old: "a\nb", New: "c\nd"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Normalization != "" {
		t.Errorf("normalization = %q, want none", res.Normalization)
	}
	out, _ := Encode(res.Text, enc)
	if string(out) != "c\r\nd\r\n" {
		t.Errorf("got %q", out)
	}
}
