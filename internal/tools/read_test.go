package tools

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hands-dev/hands/tool"
)

// testImage is a small picture to encode in every format.
func testImage() image.Image {
	img := image.NewPaletted(image.Rect(0, 0, 4, 3), color.Palette{color.Black, color.White})
	img.SetColorIndex(1, 1, 1)
	return img
}

// webp returns a minimal lossless WebP file (RIFF, WEBP, VP8L chunk).
func webp() []byte {
	vp8l := []byte{0x2f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}
	var b bytes.Buffer
	b.WriteString("RIFF")
	size := 4 + 8 + len(vp8l)
	b.Write([]byte{byte(size), byte(size >> 8), 0, 0})
	b.WriteString("WEBPVP8L")
	b.Write([]byte{byte(len(vp8l)), 0, 0, 0})
	b.Write(vp8l)
	return b.Bytes()
}

func TestReadImages(t *testing.T) {
	var pngBuf, jpegBuf, gifBuf bytes.Buffer
	if err := png.Encode(&pngBuf, testImage()); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&jpegBuf, testImage(), nil); err != nil {
		t.Fatal(err)
	}
	if err := gif.Encode(&gifBuf, testImage(), nil); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		data []byte
		mime string
	}{
		{"pic.png", pngBuf.Bytes(), "image/png"},
		{"pic.jpg", jpegBuf.Bytes(), "image/jpeg"},
		{"pic.gif", gifBuf.Bytes(), "image/gif"},
		{"pic.webp", webp(), "image/webp"},
		{"no-extension", pngBuf.Bytes(), "image/png"}, // the bytes decide, not the name
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.put(tt.name, tt.data, 0o644)
			res := f.read(tt.name)
			if len(res.Content) != 1 || res.Content[0].Type != "image" || res.Content[0].MIMEType != tt.mime || !bytes.Equal(res.Content[0].Data, tt.data) {
				t.Fatalf("content %+v", res.Content)
			}
			out := res.Structured.(*ReadOutput)
			if out.Kind != "image" || out.MIMEType != tt.mime || out.Size != int64(len(tt.data)) {
				t.Errorf("output %+v", out)
			}
			checkLedger(t, f, tt.name, tt.data)
		})
	}
}

// checkLedger checks that the session recorded name as read whole, with
// its size, time and hash.
func checkLedger(t *testing.T, f *fixture, name string, data []byte) {
	t.Helper()
	seen, ok := f.st.Ledger.Lookup(f.path(name))
	fi, err := os.Stat(f.path(name))
	if err != nil {
		t.Fatal(err)
	}
	if !ok || seen.Partial || seen.Size != int64(len(data)) || !seen.ModTime.Equal(fi.ModTime()) || !seen.Unchanged(fi, data) {
		t.Errorf("ledger entry for %s: %+v, %v", name, seen, ok)
	}
	if seen.Unchanged(fi, append(bytes.Clone(data), 'x')) {
		t.Errorf("ledger entry for %s does not hash the content", name)
	}
}

// minimalPDF builds a valid PDF whose pages show the given lines of text,
// with a correct cross-reference table.
func minimalPDF(pages ...string) []byte {
	var objs []string
	n := len(pages)
	kids := make([]string, n)
	for i := range pages {
		kids[i] = fmt.Sprintf("%d 0 R", 4+2*i)
	}
	objs = append(objs,
		"<< /Type /Catalog /Pages 2 0 R >>",
		fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	for i, text := range pages {
		stream := fmt.Sprintf("BT /F1 12 Tf 72 720 Td (%s) Tj ET", text)
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", 5+2*i),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(stream), stream))
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

func TestReadPDFPageByPage(t *testing.T) {
	f := newFixture(t)
	data := minimalPDF("Hello from page one", "And page two")
	f.put("doc.pdf", data, 0o644)
	res := f.read("doc.pdf")
	out := res.Structured.(*ReadOutput)
	want := "     1\t--- page 1 of 2 ---\n     2\tHello from page one\n     3\t--- page 2 of 2 ---\n     4\tAnd page two"
	if out.Kind != "pdf" || res.TextOf() != want {
		t.Errorf("kind %s, text:\n%s\nwant:\n%s", out.Kind, res.TextOf(), want)
	}
	checkLedger(t, f, "doc.pdf", data)

	f.put("broken.pdf", []byte("%PDF-1.4\nnot really\n"), 0o644)
	res = f.fail(tool.IOError, "read", map[string]any{"path": "broken.pdf"})
	if !strings.Contains(res.TextOf(), f.path("broken.pdf")) {
		t.Errorf("message %q lacks the path", res.TextOf())
	}
}

func TestReadNotebookAsCellsWithOutputs(t *testing.T) {
	f := newFixture(t)
	nb := `{
 "cells": [
  {"cell_type": "markdown", "id": "m1", "metadata": {}, "source": ["# Title"]},
  {"cell_type": "code", "execution_count": 2, "id": "c1", "metadata": {},
   "outputs": [
    {"name": "stdout", "output_type": "stream", "text": ["hi\n"]},
    {"data": {"image/png": "iVBORw0KGgo=", "text/plain": ["<Figure>"]}, "metadata": {}, "output_type": "display_data"},
    {"ename": "ValueError", "evalue": "bad", "output_type": "error", "traceback": ["\u001b[31mValueError\u001b[0m: bad"]}
   ],
   "source": ["print('hi')\n", "plot()"]}
 ],
 "metadata": {}, "nbformat": 4, "nbformat_minor": 5
}`
	f.put("nb.ipynb", []byte(nb), 0o644)
	res := f.read("nb.ipynb")
	out := res.Structured.(*ReadOutput)
	text := res.TextOf()
	for _, want := range []string{
		`<cell index="0" id="m1" type="markdown">`, "# Title",
		`<cell index="1" id="c1" type="code" execution_count="2">`, "print('hi')", "plot()",
		`<outputs cell="1">`, "hi", "<Figure>", "ValueError: bad",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("notebook text lacks %q:\n%s", want, text)
		}
	}
	if out.Kind != "notebook" || strings.Contains(text, "\x1b") {
		t.Errorf("kind %s; text %q", out.Kind, text)
	}
	checkLedger(t, f, "nb.ipynb", []byte(nb))
}

func TestReadBinaryIsAClearError(t *testing.T) {
	f := newFixture(t)
	data := []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00")
	f.put("prog", data, 0o755)
	res := f.fail(tool.BinaryFile, "read", map[string]any{"path": "prog"})
	if msg := res.TextOf(); !strings.Contains(msg, f.path("prog")) || !strings.Contains(msg, "binary") {
		t.Errorf("message %q", msg)
	}
	if d := res.Err.Details["path"]; d != f.path("prog") {
		t.Errorf("details %v", res.Err.Details)
	}
}

func TestReadEncodingsAsText(t *testing.T) {
	for _, tt := range []struct {
		name string
		data []byte
		enc  string
	}{
		{"utf8-bom", []byte("\xEF\xBB\xBFnaïve\nline\n"), "UTF-8 with BOM"},
		{"utf16le", utf16Bytes("naïve\r\nline\r\n", false), "UTF-16LE with BOM, CRLF"},
		{"utf16be", utf16Bytes("naïve\nline\n", true), "UTF-16BE with BOM"},
		{"latin1", []byte("na\xefve\nline\n"), "Latin-1 (Windows-1252)"},
		{"utf8", []byte("naïve\nline\n"), "UTF-8"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.put("f.txt", tt.data, 0o644)
			res := f.read("f.txt")
			out := res.Structured.(*ReadOutput)
			if want := "     1\tnaïve\n     2\tline"; res.TextOf() != want {
				t.Errorf("text %q, want %q", res.TextOf(), want)
			}
			if out.Kind != "text" || out.Encoding != tt.enc || out.TotalLines != 2 {
				t.Errorf("kind %s, encoding %q (want %q), lines %d", out.Kind, out.Encoding, tt.enc, out.TotalLines)
			}
			checkLedger(t, f, "f.txt", tt.data)
		})
	}
}

func TestReadWindowOfALargeFileRecordsAPartialEntry(t *testing.T) {
	f := newFixture(t)
	f.st.Limits.MaxFileSize = 64
	data := []byte(strings.Repeat("a line of text\n", 20))
	f.put("big.txt", data, 0o644)
	res := f.ok("read", map[string]any{"path": "big.txt", "offset": 3, "limit": 2})
	if want := "     3\ta line of text\n     4\ta line of text\n\n(showing lines 3-4; more lines follow; to read more, call again with offset 5)"; res.TextOf() != want {
		t.Errorf("text %q", res.TextOf())
	}
	seen, ok := f.st.Ledger.Lookup(f.path("big.txt"))
	if !ok || !seen.Partial || seen.Size != int64(len(data)) || seen.Hash != ([32]byte{}) {
		t.Errorf("ledger entry %+v, %v", seen, ok)
	}
}

func TestReadResultsThroughTheExecutorAreCoded(t *testing.T) {
	f := newFixture(t)
	res := f.call("read", map[string]any{"path": "missing.txt"})
	if !res.IsError || res.Code != tool.PathNotFound {
		t.Fatalf("%+v", res)
	}
	if ed, ok := res.Structured.(tool.ErrorData); !ok || ed.Code != tool.PathNotFound || ed.Details["path"] != f.path("missing.txt") {
		t.Errorf("structured %+v", res.Structured)
	}
}

// TestOpenRegularDoesNotBlockOnAFIFO opens a named pipe that no one writes
// to: a blocking open would hang here until the test times out. The stat
// before the open is skipped, as when a pipe replaces a file between the
// two.
func TestOpenRegularDoesNotBlockOnAFIFO(t *testing.T) {
	f := newFixture(t)
	path := filepath.Join(f.root, "pipe")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := f.st.FS.Resolve(f.root, "pipe")
	if err != nil {
		t.Fatal(err)
	}
	file, terr := openRegular(f.st.FS, p)
	if terr == nil {
		file.Close()
		t.Fatal("a named pipe was opened as a file")
	}
	if terr.Code != tool.IOError || terr.Details["op"] != "read" || terr.Details["path"] != path {
		t.Errorf("got %s %v %q, want IO_ERROR naming the read and the path", terr.Code, terr.Details, terr.Message)
	}
	if _, err := f.st.FS.Stat(p); err != nil {
		t.Errorf("the pipe is gone: %v", err)
	}
}
