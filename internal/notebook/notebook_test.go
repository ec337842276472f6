package notebook

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}

func TestApplyGolden(t *testing.T) {
	tests := []struct {
		name string
		in   string
		edit Edit
		want Result
	}{
		{"replace-code-by-id", "jupyter.ipynb", Edit{CellID: "4d5e6f70", Source: "import polars as pl\ndf = pl.read_csv(\"data.csv\")\n"}, Result{1, "4d5e6f70", "code"}},
		{"replace-markdown-by-index", "jupyter.ipynb", Edit{Index: 0, Source: "# Results\n\nAll \"quoted\" and\ttabbed."}, Result{0, "9f1c2a3b", "markdown"}},
		{"replace-code-to-markdown", "jupyter.ipynb", Edit{CellID: "e5f6a7b8", CellType: "markdown", Source: "Division by zero is undefined."}, Result{3, "e5f6a7b8", "markdown"}},
		{"replace-markdown-to-code", "jupyter.ipynb", Edit{CellID: "c0ffee00", CellType: "code", Source: "print('café')"}, Result{4, "c0ffee00", "code"}},
		{"replace-with-empty-source", "jupyter.ipynb", Edit{Index: 2, Source: ""}, Result{2, "a1b2c3d4", "code"}},
		{"insert-after-id", "jupyter.ipynb", Edit{Mode: Insert, CellID: "a1b2c3d4", CellType: "code", Source: "df.describe()", NewCellID: "0badc0de"}, Result{3, "0badc0de", "code"}},
		{"insert-at-start", "jupyter.ipynb", Edit{Mode: Insert, Index: NoCell, CellType: "markdown", Source: "Title\n", NewCellID: "11111111"}, Result{0, "11111111", "markdown"}},
		{"insert-at-end", "jupyter.ipynb", Edit{Mode: Insert, Index: 5, CellType: "raw", Source: "raw\ntext", NewCellID: "22222222"}, Result{6, "22222222", "raw"}},
		{"delete-first", "jupyter.ipynb", Edit{Mode: Delete, Index: 0}, Result{0, "9f1c2a3b", "markdown"}},
		{"delete-middle", "jupyter.ipynb", Edit{Mode: Delete, CellID: "a1b2c3d4"}, Result{2, "a1b2c3d4", "code"}},
		{"delete-last", "jupyter.ipynb", Edit{Mode: Delete, Index: 5}, Result{5, "r4w00001", "raw"}},
		{"two-space-replace", "two-space-no-ids.ipynb", Edit{Index: 0, Source: "x = 2\ny = 3"}, Result{0, "", "code"}},
		{"two-space-insert-no-id", "two-space-no-ids.ipynb", Edit{Mode: Insert, Index: 0, CellType: "markdown", Source: "between"}, Result{1, "", "markdown"}},
		{"compact-replace", "compact.ipynb", Edit{CellID: "bb", Source: "b = 3\nc = 4"}, Result{1, "bb", "code"}},
		{"compact-insert", "compact.ipynb", Edit{Mode: Insert, CellID: "aa", CellType: "code", Source: "z", NewCellID: "cc"}, Result{1, "cc", "code"}},
		{"compact-delete", "compact.ipynb", Edit{Mode: Delete, CellID: "aa"}, Result{0, "aa", "code"}},
		{"string-source-replace", "jupyter.ipynb", Edit{CellID: "4d5e6f70", Source: "y = 0\nz = 1", SourceString: true}, Result{1, "4d5e6f70", "code"}},
		{"string-source-insert-code", "jupyter.ipynb", Edit{Mode: Insert, Index: NoCell, CellType: "code", Source: "import os", NewCellID: "44444444", SourceString: true}, Result{0, "44444444", "code"}},
		{"string-source-insert-markdown", "jupyter.ipynb", Edit{Mode: Insert, CellID: "a1b2c3d4", CellType: "markdown", Source: "## Inserted", NewCellID: "55555555", SourceString: true}, Result{3, "55555555", "markdown"}},
		{"empty-insert", "empty.ipynb", Edit{Mode: Insert, Index: NoCell, CellType: "code", Source: "1 + 1", NewCellID: "33333333"}, Result{0, "33333333", "code"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := read(t, tt.in)
			out, res, err := Apply(in, tt.edit)
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if res != tt.want {
				t.Errorf("result = %+v, want %+v", res, tt.want)
			}
			golden(t, filepath.Join("edits", tt.name+".ipynb"), out)
			if !json.Valid(out) {
				t.Fatalf("output is not valid JSON")
			}
			checkOtherCellsKept(t, in, out, tt.edit.Mode, res.Index)
			nb, err := Parse(out)
			if err != nil {
				t.Fatal(err)
			}
			if tt.edit.Mode != Delete {
				c := nb.Cells[res.Index]
				if c.Source != tt.edit.Source || c.ID != res.ID || c.Type != res.Type {
					t.Errorf("cell after edit = %+v", c)
				}
				if c.Type == "code" && (len(c.Outputs) > 0 || c.ExecutionCount != 0) {
					t.Errorf("code cell keeps outputs or execution count: %+v", c)
				}
			}
		})
	}
}

// checkOtherCellsKept checks that every cell the edit did not target has
// the same bytes before and after, and that the text around the cells array
// is unchanged.
func checkOtherCellsKept(t *testing.T, in, out []byte, mode Mode, index int) {
	t.Helper()
	a, err := locate(in)
	if err != nil {
		t.Fatal(err)
	}
	b, err := locate(out)
	if err != nil {
		t.Fatal(err)
	}
	cell := func(d *doc, i int) string { return string(d.data[d.spans[i].start:d.spans[i].end]) }
	var before, after []string
	for i := range a.spans {
		if i != index || mode == Insert {
			before = append(before, cell(a, i))
		}
	}
	for i := range b.spans {
		if i != index || mode == Delete {
			after = append(after, cell(b, i))
		}
	}
	if strings.Join(before, "\x00") != strings.Join(after, "\x00") {
		t.Errorf("cells other than %d changed", index)
	}
	if !bytes.Equal(in[:a.cells.val.start], out[:b.cells.val.start]) || !bytes.Equal(in[a.cells.val.end:], out[b.cells.val.end:]) {
		t.Errorf("bytes outside the cells array changed")
	}
}

func TestApplyRandomID(t *testing.T) {
	in := read(t, "jupyter.ipynb")
	out, res, err := Apply(in, Edit{Mode: Insert, Index: 1, CellType: "code", Source: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^[0-9a-f]{8}$`).MatchString(res.ID) {
		t.Errorf("id = %q, want 8 hex digits", res.ID)
	}
	if !bytes.Contains(out, []byte(`"id": "`+res.ID+`"`)) {
		t.Errorf("id not written")
	}
}

func TestApplyErrors(t *testing.T) {
	nb := read(t, "jupyter.ipynb")
	tests := []struct {
		name string
		in   []byte
		edit Edit
		want string
		is   error
	}{
		{"not json", []byte("{"), Edit{Index: 0}, "not a Jupyter notebook: invalid JSON", ErrNotNotebook},
		{"not an object", []byte("[1]"), Edit{Index: 0}, "the top level is not an object", ErrNotNotebook},
		{"no cells", []byte(`{"nbformat": 4}`), Edit{Index: 0}, `no "cells" array`, ErrNotNotebook},
		{"nbformat 3", []byte(`{"nbformat": 3, "worksheets": []}`), Edit{Index: 0}, "nbformat 3 is not supported", ErrNotNotebook},
		{"cells not an array", []byte(`{"cells": {}}`), Edit{Index: 0}, `"cells" is not an array`, ErrNotNotebook},
		{"cell not an object", []byte(`{"cells": [1]}`), Edit{Index: 0}, "cell 0 is not an object", ErrNotNotebook},
		{"id not found", nb, Edit{CellID: "nope"}, `cell id "nope" not found in the notebook's 6 cells; ids: 9f1c2a3b, 4d5e6f70, a1b2c3d4, e5f6a7b8, c0ffee00, r4w00001`, nil},
		{"index out of range", nb, Edit{Mode: Delete, Index: 6}, "cell index 6 is out of range: the notebook has 6 cells (indexes 0 to 5)", nil},
		{"no cells to index", read(t, "empty.ipynb"), Edit{Index: 0}, "the notebook has no cells", nil},
		{"replace without target", nb, Edit{Index: NoCell, Source: "x"}, "no cell given", ErrNoTarget},
		{"delete without target", nb, Edit{Mode: Delete, Index: -1}, "no cell given", ErrNoTarget},
		{"insert without type", nb, Edit{Mode: Insert, Index: 0}, "cell type is required", ErrCellTypeRequired},
		{"invalid type", nb, Edit{Index: 0, CellType: "python"}, `invalid cell type "python": use code, markdown or raw`, ErrInvalidCellType},
		{"duplicate new id", nb, Edit{Mode: Insert, Index: 0, CellType: "code", NewCellID: "a1b2c3d4"}, `duplicate cell id "a1b2c3d4"`, ErrDuplicateID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Apply(tt.in, tt.edit)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
			var nf *CellNotFoundError
			if strings.Contains(tt.name, "not found") || strings.Contains(tt.name, "range") {
				if !errors.As(err, &nf) {
					t.Errorf("error %T is not a CellNotFoundError", err)
				}
			}
		})
	}
}

func TestRender(t *testing.T) {
	nb, err := Parse(read(t, "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	if nb.Format != 4 || nb.FormatMinor != 5 || nb.Language != "python" || len(nb.Cells) != 6 {
		t.Errorf("notebook = %d.%d %q %d cells", nb.Format, nb.FormatMinor, nb.Language, len(nb.Cells))
	}
	out := nb.Render()
	golden(t, "jupyter.render.txt", []byte(out))
	if strings.Contains(out, "\x1b") {
		t.Errorf("ANSI escapes left in the rendering")
	}
	for _, want := range []string{"[image/png output]", "ZeroDivisionError: division by zero", "loaded 3 rows\ndone\n", "<Figure size 640x480 with 1 Axes>"} {
		if !strings.Contains(out, want) {
			t.Errorf("rendering lacks %q", want)
		}
	}
	s, err := Render(read(t, "two-space-no-ids.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "two-space-no-ids.render.txt", []byte(s))
}

func TestStripANSI(t *testing.T) {
	tests := map[string]string{
		"plain":                                "plain",
		"\x1b[0;31mred\x1b[0m":                 "red",
		"\x1b[38;5;241;43m1\x1b[39;49m":        "1",
		"\x1b]8;;http://x\x07link\x1b]8;;\x07": "link",
		"\x1b]0;title\x1b\\after":              "after",
		"cut \x1b[":                            "cut ",
		"esc at end \x1b":                      "esc at end ",
		"two-byte \x1bMx":                      "two-byte x",
	}
	for in, want := range tests {
		if got := StripANSI(in); got != want {
			t.Errorf("StripANSI(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestQuoteMatchesPython(t *testing.T) {
	// json.dumps("a\"b\\c\n\t\x01\x7f é ☕ <&>", ensure_ascii=False)
	want := `"a\"b\\c\n\t\u0001` + "\x7f é ☕ <&>" + `"`
	if got := quote("a\"b\\c\n\t\x01\x7f é ☕ <&>"); got != want {
		t.Errorf("quote = %s, want %s", got, want)
	}
}

func FuzzNotebook(f *testing.F) {
	for _, name := range []string{"jupyter.ipynb", "two-space-no-ids.ipynb", "compact.ipynb", "empty.ipynb"} {
		f.Add(read(f, name), uint8(0), 1, "x\ny")
	}
	f.Add([]byte(`{"cells":[{"cell_type":"code","source":"a","id":"x"}],"nbformat":4}`), uint8(2), 0, "")
	f.Add([]byte(`{"cells":[{},{"id":1},{"source":{"a":1}},{"outputs":[{"output_type":"error"}]}]}`), uint8(1), 2, "s")
	f.Fuzz(func(t *testing.T, data []byte, mode uint8, index int, source string) {
		nb, err := Parse(data)
		if err == nil {
			_ = nb.Render()
		}
		types := []string{"", "code", "markdown", "raw"}
		e := Edit{Mode: Mode(mode % 3), Index: index % 8, CellType: types[int(mode/3)%len(types)], Source: source, NewCellID: "fz"}
		out, res, err := Apply(data, e)
		if err != nil {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("Apply produced invalid JSON:\n%s", out)
		}
		nb2, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse after Apply: %v", err)
		}
		want := len(nb.Cells)
		switch e.Mode {
		case Insert:
			want++
		case Delete:
			want--
		}
		if len(nb2.Cells) != want {
			t.Fatalf("%d cells after %v, want %d", len(nb2.Cells), e.Mode, want)
		}
		if e.Mode != Delete && nb2.Cells[res.Index].Source != strings.ToValidUTF8(source, "\uFFFD") {
			t.Fatalf("source not written: %q", nb2.Cells[res.Index].Source)
		}
	})
}

// TestApplyCRLFAndBOM checks that a notebook saved with CR LF line endings
// and a byte order mark gets the same edit as the plain one, in its own
// line endings, with the mark kept.
func TestApplyCRLFAndBOM(t *testing.T) {
	plain := read(t, "jupyter.ipynb")
	windows := append([]byte("\xEF\xBB\xBF"), bytes.ReplaceAll(plain, []byte("\n"), []byte("\r\n"))...)
	for _, e := range []Edit{
		{CellID: "4d5e6f70", Source: "a\nb"},
		{Mode: Insert, Index: 2, CellType: "code", Source: "x\ny", NewCellID: "44444444"},
		{Mode: Delete, Index: 1},
	} {
		want, _, err := Apply(plain, e)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := Apply(windows, e)
		if err != nil {
			t.Fatal(err)
		}
		want = append([]byte("\xEF\xBB\xBF"), bytes.ReplaceAll(want, []byte("\n"), []byte("\r\n"))...)
		if !bytes.Equal(got, want) {
			t.Errorf("%v: got\n%q\nwant\n%q", e.Mode, got, want)
		}
	}
	nb, err := Parse(windows)
	if err != nil || len(nb.Cells) != 6 {
		t.Fatalf("Parse with BOM: %v", err)
	}
}
