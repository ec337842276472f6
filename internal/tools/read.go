package tools

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/hands-dev/hands/internal/notebook"
	"github.com/hands-dev/hands/internal/sandbox"
	"github.com/hands-dev/hands/internal/textedit"
	"github.com/hands-dev/hands/tool"
)

//go:embed read.md
var readDescription string

// ReadInput is the input of the read tool.
type ReadInput struct {
	Path   string `json:"path" jsonschema:"the file or directory to read: absolute, or relative to the working directory"`
	Offset int    `json:"offset,omitzero" jsonschema:"the 1-based line number to start reading from; default 1"`
	Limit  int    `json:"limit,omitzero" jsonschema:"how many lines to read; default {{.ReadLines}}"`
	// ViewRange is the text-editor convention for a window: [start, end],
	// 1-based and inclusive, end -1 for to the end of the file.
	ViewRange []int `json:"view_range,omitempty" jsonschema:"[start, end]: the 1-based lines to read, both included; end -1 reads to the end of the file. Instead of offset and limit"`
	resolved
	// limitGiven tells a limit of 0 given from none given.
	limitGiven bool
}

// ZeroLimit reports that the call gave limit 0.
func (in ReadInput) ZeroLimit() bool { return in.limitGiven && in.Limit == 0 }

// UnmarshalJSON decodes the input, noting whether a limit was given.
func (in *ReadInput) UnmarshalJSON(b []byte) error {
	type plain ReadInput
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(b, &keys) == nil {
		_, p.limitGiven = keys["limit"]
	}
	*in = ReadInput(p)
	return nil
}

// ReadOutput is what the read tool returns.
type ReadOutput struct {
	Path string `json:"path"`
	// Kind is text, empty, image, pdf, notebook or directory.
	Kind string `json:"kind"`
	// StartLine is the number of Lines[0].
	StartLine int      `json:"start_line,omitzero"`
	Lines     []string `json:"lines,omitempty"`
	// TotalLines is the file's line count; 0 when a window of a large file
	// was read without reaching its end.
	TotalLines int `json:"total_lines,omitzero"`
	// More reports that lines follow the window.
	More bool `json:"more,omitzero"`
	// FinalNewline reports that the window reaches the end of a file whose
	// last line ends with a line break, for profiles that show the content
	// as it is rather than as numbered lines.
	FinalNewline bool `json:"final_newline,omitzero"`
	// EndsWithNewline reports that the file's text ends with a line break
	// (known when the whole file was read).
	EndsWithNewline bool `json:"-"`
	// CutLines counts lines shortened to the line limit.
	CutLines int `json:"cut_lines,omitzero"`
	// Cells are a notebook's cells, for profiles that show them their own
	// way.
	Cells []notebook.Cell `json:"-"`
	// cutAt is the line limit the cut lines were cut at.
	cutAt    int
	Encoding string `json:"encoding,omitempty"`
	MIMEType string `json:"mime_type,omitempty"`
	Size     int64  `json:"size"`
	// Note is an extra remark for the model (e.g. why a directory listing
	// is incomplete).
	Note string `json:"note,omitempty"`

	image []byte
}

// Read returns the read tool (native name view).
func Read(lim Limits) tool.Tool {
	return tool.New(tool.Spec[ReadInput]{
		Name:           "read",
		Title:          "Read a file or directory",
		Description:    readDescription,
		ReadOnly:       true,
		Idempotent:     true,
		MaxResultChars: lim.ReadChars,
		Resolve: func(_ context.Context, env *tool.Env, in ReadInput) (ReadInput, error) {
			err := in.resolve(env, in.Path, false)
			return in, err
		},
		Validate: func(_ context.Context, env *tool.Env, in ReadInput) (ReadInput, error) {
			if in.ViewRange != nil {
				var terr *tool.Error
				if in, terr = viewRange(in); terr != nil {
					return in, terr
				}
			}
			if in.Offset < 0 && !stateOf(env).Behavior.ReadNegativeOffset {
				return in, toolErr(tool.InvalidInput, "%s is %d; give a 1-based line number (1 or more), or leave it out to start at line 1", param("offset"), in.Offset)
			}
			if in.Limit < 0 {
				return in, toolErr(tool.InvalidInput, "%s is %d; give a positive number of lines, or leave it out for up to %d", param("limit"), in.Limit, stateOf(env).Limits.ReadLines)
			}
			return in, nil
		},
	}, runRead)
}

// viewRange turns a view_range into the offset and limit it stands for.
func viewRange(in ReadInput) (ReadInput, *tool.Error) {
	vr := param("view_range")
	if in.Offset != 0 || in.Limit != 0 {
		return in, toolErr(tool.InvalidInput, "%s and %s/%s both give the lines to read; give either %[1]s [start, end] or %[2]s and %[3]s", vr, param("offset"), param("limit"))
	}
	if len(in.ViewRange) != 2 {
		return in, toolErr(tool.InvalidInput, "%s must be two numbers, [start, end], such as [1, 50], or [start, -1] to read to the end; it has %d", vr, len(in.ViewRange))
	}
	start, end := in.ViewRange[0], in.ViewRange[1]
	switch {
	case start < 1:
		return in, toolErr(tool.InvalidInput, "%s starts at %d; lines are numbered from 1, so give a start of 1 or more", vr, start)
	case end == -1:
		in.Offset = start
	case end < start:
		return in, toolErr(tool.InvalidInput, "%s [%d, %d] ends before it starts; give an end of %[2]d or more, or -1 to read to the end", vr, start, end)
	default:
		in.Offset, in.Limit = start, end-start+1
	}
	in.ViewRange = nil
	return in, nil
}

func runRead(ctx context.Context, env *tool.Env, in ReadInput) (*ReadOutput, error) {
	st := stateOf(env)
	p := in.at
	fi, err := st.FS.Stat(p)
	if err != nil {
		return nil, fsErr(err, "stat", p.Abs)
	}
	if fi.IsDir() {
		if st.Behavior.ReadFilesOnly {
			return nil, toolErr(tool.InvalidInput, "%s is a directory, not a file; give the path of a file", p.Abs).With("path", p.Abs).With("kind", "directory")
		}
		text, note, err := listTree(ctx, st, p, 2)
		if err != nil {
			return nil, err
		}
		return &ReadOutput{Path: p.Abs, Kind: "directory", Lines: splitLines(text), StartLine: 1, Note: note}, nil
	}
	if !fi.Mode().IsRegular() {
		return nil, notAFile("read", p.Abs, fi.Mode())
	}
	windowed := in.Offset > 0 || in.Limit > 0
	if st.Behavior.ReadWholeFile && !windowed && fi.Size() > st.Limits.ReadWholeBytes {
		return nil, toolErr(tool.FileTooLarge, "%s is %d bytes, over the %d-byte limit for a whole read; read it in parts with %s and %s", p.Abs, fi.Size(), st.Limits.ReadWholeBytes, param("offset"), param("limit")).
			With("path", p.Abs).With("size", fi.Size()).With("max", st.Limits.ReadWholeBytes)
	}
	if fi.Size() > st.Limits.MaxFileSize {
		if !windowed {
			return nil, toolErr(tool.FileTooLarge, "%s is %d bytes, over the %d-byte limit; read it in parts with %s and %s (e.g. %[4]s 1, %[5]s %[6]d)", p.Abs, fi.Size(), st.Limits.MaxFileSize, param("offset"), param("limit"), st.Limits.ReadLines).
				With("path", p.Abs).With("size", fi.Size()).With("max", st.Limits.MaxFileSize)
		}
		return readWindow(st, p, fi, in)
	}
	data, err := readAll(st.FS, p)
	if err != nil {
		return nil, err
	}
	out := &ReadOutput{Path: p.Abs, Size: fi.Size()}
	if len(data) == 0 {
		st.Ledger.Record(p.Abs, fi, data, false)
		out.Kind = "empty"
		return out, nil
	}
	if mime := imageType(data); mime != "" {
		out.Kind, out.MIMEType, out.image = "image", mime, data
		st.Ledger.Record(p.Abs, fi, data, false)
		return out, nil
	}
	// Hashed before decoding, which may decode a UTF-16 file in place.
	hash := sha256.Sum256(data)
	var text string
	var enc textedit.Encoding
	switch {
	case bytes.HasPrefix(data, []byte("%PDF-")):
		text, err = pdfText(data)
		if err != nil {
			return nil, toolErr(tool.IOError, "could not read PDF %s: %v", p.Abs, err)
		}
		out.Kind = "pdf"
	case strings.EqualFold(filepath.Ext(p.Abs), ".ipynb"):
		if nb, perr := notebook.Parse(data); perr == nil {
			text, out.Kind, out.Cells = nb.Render(), "notebook", nb.Cells
			break
		}
		// Not a notebook after all: show the JSON so that it can be fixed.
		if text, enc, err = decodeText(p, fi, data, out); err != nil {
			st.Ledger.RecordHash(p.Abs, fi, hash)
			return nil, err
		}
		out.Note = "(this .ipynb file is not a valid Jupyter notebook, so it is shown as text)"
	default:
		if text, enc, err = decodeText(p, fi, data, out); err != nil {
			// The session has seen the binary file as it is, so it may
			// overwrite it whole.
			st.Ledger.RecordHash(p.Abs, fi, hash)
			return nil, err
		}
	}
	st.Ledger.RecordHash(p.Abs, fi, hash)
	releaseRaw(len(data), enc)
	if err := window(out, textLines(text), in, st.Limits, st.Behavior); err != nil {
		return nil, err
	}
	out.EndsWithNewline = strings.HasSuffix(text, "\n")
	out.FinalNewline = !out.More && out.EndsWithNewline
	return out, nil
}

// windowFromEnd selects the lines of a negative offset as Claude Code
// 2.1.7's Read does (Behavior.ReadNegativeOffset): JavaScript's
// lines.slice(offset-1[, offset-1+limit]) over the text split at line
// breaks (so a final line break makes a last, empty line), numbered from
// the offset; the limit applies only when it is shorter than what is
// left.
func windowFromEnd(out *ReadOutput, lines textLines, in ReadInput, lim Limits) error {
	all := splitLines(string(lines))
	if strings.HasSuffix(string(lines), "\n") || len(lines) == 0 {
		all = append(all, "")
	}
	n := len(all)
	index := func(i int) int { // JavaScript's relative index
		if i < 0 {
			return max(n+i, 0)
		}
		return min(i, n)
	}
	w := in.Offset - 1
	from, to := index(w), n
	if in.Limit > 0 && n-w > in.Limit {
		to = index(w + in.Limit)
	}
	out.TotalLines = lines.count()
	out.StartLine = in.Offset
	for i := from; i < to; i++ {
		out.Lines = append(out.Lines, cutLine(all[i], lim.LineChars, &out.CutLines))
		out.cutAt = lim.LineChars
	}
	return nil
}

// decodeText decodes a text file into LF text, noting its encoding in out.
// The text may share data's memory, which must not change afterwards; a
// UTF-16 file may be decoded in place (textedit.DecodeOwned), so data is
// not the file's bytes afterwards unless decoding failed.
func decodeText(p sandbox.Path, fi os.FileInfo, data []byte, out *ReadOutput) (string, textedit.Encoding, error) {
	text, enc, err := textedit.DecodeOwned(data)
	if errors.Is(err, textedit.ErrBinary) {
		return "", enc, toolErr(tool.BinaryFile, "%s is a binary file (%d bytes, %s) and cannot be shown as text", p.Abs, fi.Size(), http.DetectContentType(data)).With("path", p.Abs)
	} else if err != nil {
		return "", enc, toolErr(tool.IOError, "could not decode %s: %v", p.Abs, err)
	}
	out.Kind, out.Encoding = "text", encodingName(enc)
	return text, enc, nil
}

// window selects the requested lines of a whole text into out.
func window(out *ReadOutput, lines textLines, in ReadInput, lim Limits, b Behavior) error {
	if in.Offset < 0 {
		return windowFromEnd(out, lines, in, lim)
	}
	start, n := in.Offset, in.Limit
	if start == 0 {
		start = 1
	}
	total := lines.count()
	if n == 0 {
		n = lim.ReadLines
		if b.ReadWholeFile {
			n = total
		}
	}
	out.TotalLines = total
	if b.ReadPastEndIsEmpty && (start > total || in.ZeroLimit()) {
		out.StartLine = start
		return nil
	}
	if start > total {
		return toolErr(tool.InvalidInput, "offset %d is past the end of %s, which has %d lines; use an offset from 1 to %d", start, out.Path, total, max(total, 1))
	}
	end := min(total, start-1+n)
	out.StartLine = start
	out.More = end < total
	out.Lines = slices.Grow(out.Lines, end-start+1)
	for l := range lines.between(start, end) {
		out.Lines = append(out.Lines, cutLine(l, lim.LineChars, &out.CutLines))
		out.cutAt = lim.LineChars
	}
	return nil
}

// textLines is a file's text seen as the lines splitLines would give,
// without splitting it: a read shows a window of a large file, so only the
// window's lines are taken out, and the rest only counted.
type textLines string

// count returns len(splitLines(t)).
func (t textLines) count() int {
	if t == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(string(t), "\n"), "\n") + 1
}

// between yields lines start to end, 1-based and both included.
func (t textLines) between(start, end int) iter.Seq[string] {
	return func(yield func(string) bool) {
		rest := strings.TrimSuffix(string(t), "\n")
		for i := 1; i <= end; i++ {
			line, after, found := strings.Cut(rest, "\n")
			if i >= start && !yield(line) {
				return
			}
			if !found {
				return
			}
			rest = after
		}
	}
}

// readWindow reads lines offset..offset+limit of a file too large to read
// whole, holding only the window in memory.
func readWindow(st *State, p sandbox.Path, fi os.FileInfo, in ReadInput) (*ReadOutput, error) {
	f, terr := openRegular(st.FS, p)
	if terr != nil {
		return nil, terr
	}
	defer f.Close()
	start, n := max(in.Offset, 1), in.Limit
	if n == 0 {
		n = st.Limits.ReadLines
	}
	out := &ReadOutput{Path: p.Abs, Kind: "text", Size: fi.Size(), StartLine: start, Encoding: "UTF-8"}
	r := bufio.NewReaderSize(f, 256<<10)
	line, eof := 0, false
	// Lines before the window are skipped without being copied, so that
	// memory stays proportional to the window wherever it is.
	for line+1 < start {
		ok, err := skipLine(r)
		if err != nil {
			return nil, toolErr(tool.IOError, "could not read %s at line %d: %v", p.Abs, line+1, err)
		}
		if !ok {
			eof = true
			break
		}
		line++
	}
	for !eof {
		b, err := readLine(r, st.Limits.LineChars*4)
		if err == io.EOF && b == nil {
			break
		}
		if err != nil && err != io.EOF {
			return nil, toolErr(tool.IOError, "could not read %s at line %d: %v", p.Abs, line+1, err)
		}
		line++
		if line >= start+n {
			out.More = true
			break
		}
		if bytes.IndexByte(b, 0) >= 0 {
			return nil, toolErr(tool.BinaryFile, "%s holds binary data at line %d and cannot be shown as text", p.Abs, line)
		}
		out.Lines = append(out.Lines, cutLine(latin1IfInvalid(b), st.Limits.LineChars, &out.CutLines))
		out.cutAt = st.Limits.LineChars
		if err == io.EOF {
			break
		}
	}
	if !out.More {
		out.TotalLines = line
		if start > line && st.Behavior.ReadPastEndIsEmpty {
			out.Lines = nil
		} else if start > line {
			return nil, toolErr(tool.InvalidInput, "offset %d is past the end of %s, which has %d lines; use an offset from 1 to %d", start, p.Abs, line, max(line, 1))
		}
	}
	st.Ledger.Record(p.Abs, fi, nil, true)
	return out, nil
}

// skipLine consumes the next line without keeping it. It reports false when
// there was no line left.
func skipLine(r *bufio.Reader) (bool, error) {
	n := 0
	for {
		frag, err := r.ReadSlice('\n')
		n += len(frag)
		switch err {
		case nil:
			return true, nil
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			return n > 0, nil
		}
		return false, err
	}
}

// readLine returns the next line without its line ending, keeping at most
// keep bytes of it (the rest is skipped, not held in memory).
func readLine(r *bufio.Reader, keep int) ([]byte, error) {
	var line []byte
	for {
		frag, err := r.ReadSlice('\n')
		if len(line) < keep {
			line = append(line, frag[:min(len(frag), keep-len(line))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF && len(line) == 0 && len(frag) == 0 {
			return nil, io.EOF
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		return line, err
	}
}

func latin1IfInvalid(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return string(r)
}

func cutLine(l string, limit int, cut *int) string {
	if limit <= 0 || len(l) <= limit || utf8.RuneCountInString(l) <= limit {
		return l
	}
	*cut++
	i := 0
	for j := range l {
		if i == limit {
			return l[:j] + fmt.Sprintf(lineCutMark, utf8.RuneCountInString(l[j:]))
		}
		i++
	}
	return l
}

// splitLines splits LF text into lines; a final newline ends the last line
// rather than starting an empty one.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	text = strings.TrimSuffix(text, "\n")
	return strings.Split(text, "\n")
}

func readAll(fs *sandbox.Set, p sandbox.Path) ([]byte, error) {
	f, terr := openRegular(fs, p)
	if terr != nil {
		return nil, terr
	}
	defer f.Close()
	data, err := readSized(f)
	if err != nil {
		return nil, toolErr(tool.IOError, "could not read %s: %v", p.Abs, err)
	}
	return data, nil
}

// openRegular opens the regular file at p for reading. It opens without
// blocking, so that a named pipe put where a file was cannot hang the call,
// and refuses anything but a regular file.
func openRegular(fs *sandbox.Set, p sandbox.Path) (*os.File, *tool.Error) {
	f, err := fs.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fsErr(err, "open", p.Abs)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, toolErr(tool.IOError, "could not stat %s: %v", p.Abs, err).With("path", p.Abs)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, notAFile("read", p.Abs, fi.Mode())
	}
	return f, nil
}

// notAFile is the error of an operation on something at path that is
// neither a regular file nor a directory: an I/O error naming the path, the
// operation and what is there.
func notAFile(op, path string, mode os.FileMode) *tool.Error {
	kind := "a special file"
	switch {
	case mode&os.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case mode&os.ModeSocket != 0:
		kind = "a socket"
	case mode&os.ModeCharDevice != 0:
		kind = "a character device"
	case mode&os.ModeDevice != 0:
		kind = "a block device"
	case mode&os.ModeIrregular != 0:
		kind = "an irregular file"
	}
	return toolErr(tool.IOError, "could not %s %s: it is %s, not a regular file; only regular files can be %s", op, path, kind, map[string]string{"read": "read", "write": "written", "edit": "edited"}[op]).
		With("path", path).With("op", op).With("kind", "special")
}

// imageType returns the MIME type of a PNG, JPEG, GIF or WebP image, or "".
func imageType(data []byte) string {
	switch t := http.DetectContentType(data); t {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return t
	}
	return ""
}

func encodingName(e textedit.Encoding) string {
	name := e.Kind.String()
	if e.BOM {
		name += " with BOM"
	}
	if e.CRLF {
		name += ", CRLF"
	}
	return name
}

// Content renders the output as the native profile shows it.
func (o *ReadOutput) Content() []tool.Content {
	switch o.Kind {
	case "image":
		return []tool.Content{tool.Image(o.image, o.MIMEType)}
	case "empty":
		return []tool.Content{tool.Text(fmt.Sprintf("<system-reminder>%s exists but is empty (0 bytes).</system-reminder>", o.Path))}
	case "directory":
		text := strings.Join(o.Lines, "\n")
		if o.Note != "" {
			text += "\n\n" + o.Note
		}
		return []tool.Content{tool.Text(text)}
	}
	var b strings.Builder
	n := 0
	for _, l := range o.Lines {
		n += len(l) + 8
	}
	b.Grow(n)
	var num []byte
	for i, l := range o.Lines {
		// As fmt's "%6d\t%s\n", without its cost per line.
		num = strconv.AppendInt(num[:0], int64(o.StartLine+i), 10)
		for range 6 - len(num) {
			b.WriteByte(' ')
		}
		b.Write(num)
		b.WriteByte('\t')
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if n := o.Notes(); n != "" {
		b.WriteString("\n" + n)
	}
	return []tool.Content{tool.Text(strings.TrimSuffix(b.String(), "\n"))}
}

// Notes returns the remarks that follow the lines: more lines, cut lines.
func (o *ReadOutput) Notes() string {
	var notes []string
	last := o.StartLine + len(o.Lines) - 1
	if o.More {
		if o.TotalLines > 0 {
			notes = append(notes, fmt.Sprintf("(showing lines %d-%d of %d; to read more, call again with offset %d)", o.StartLine, last, o.TotalLines, last+1))
		} else {
			notes = append(notes, fmt.Sprintf("(showing lines %d-%d; more lines follow; to read more, call again with offset %d)", o.StartLine, last, last+1))
		}
	}
	if o.CutLines > 0 {
		notes = append(notes, fmt.Sprintf("(%d long lines were cut at %d characters)", o.CutLines, o.cutAt))
	}
	if o.Note != "" && o.Kind != "directory" {
		notes = append(notes, o.Note)
	}
	return strings.Join(notes, "\n")
}

// Image returns the image bytes of an image result.
func (o *ReadOutput) Image() []byte { return o.image }
