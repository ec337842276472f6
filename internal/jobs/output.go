package jobs

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"sync"
	"unicode/utf8"
)

// Text is a command's output made fit for a model: safe text (see
// Truncate), whole when it fits the output limit, otherwise its head and
// its tail with the number of bytes left out between them.
type Text struct {
	// Head is the start of the output; the whole output when Omitted is 0.
	Head string
	// Tail is the end of the output, when Omitted is not 0.
	Tail string
	// Omitted counts the bytes of output left out between Head and Tail.
	Omitted int64
	// Size counts the bytes of output Head, Tail and Omitted stand for.
	Size int64
	// Path names a file holding the whole output, byte for byte, when
	// Omitted is not 0 (empty if it could not be written). The file holds
	// everything the stream wrote, not only this part of it, and stops at
	// Config.FileLimit bytes.
	Path string
}

// Truncated reports whether part of the output was left out.
func (t Text) Truncated() bool { return t.Omitted > 0 }

// String returns the head, a note saying what was left out and where the
// whole output is, and the tail.
func (t Text) String() string {
	if t.Omitted == 0 {
		return t.Head
	}
	note := fmt.Sprintf("\n\n[... %d bytes of output omitted ...]\n\n", t.Omitted)
	if t.Path != "" {
		note = fmt.Sprintf("\n\n[... %d bytes of output omitted; the whole output is in %s ...]\n\n", t.Omitted, t.Path)
	}
	return t.Head + note + t.Tail
}

// Truncate renders out as safe text of at most limit characters (runes).
// When out does not fit, head holds about the first half of the limit and
// tail the rest, and omitted counts the bytes of out between them; cuts
// fall between characters, never inside one.
//
// Safe text is out as UTF-8, with each byte that is not part of valid
// UTF-8, and each control character other than tab, newline, carriage
// return and escape, written as \xNN (four characters). A backslash in out
// is left alone, so "\x41" in the output reads the same as an escaped byte.
func Truncate(out []byte, limit int) (head, tail string, omitted int) {
	return truncate(out, limit, false)
}

// truncate is Truncate, rendering raw text (see Config.RawText) when raw
// is set.
func truncate(out []byte, limit int, raw bool) (head, tail string, omitted int) {
	limit = max(limit, 0)
	s, n := renderPrefix(out, limit, raw)
	if n == len(out) {
		return s, "", 0
	}
	hl := limit / 2
	head, hn := renderPrefix(out, hl, raw)
	tail, tn := renderSuffix(out[hn:], limit-hl, raw)
	return head, tail, len(out) - hn - tn
}

// Safe renders out whole as safe text (see Truncate).
func Safe(out []byte) string {
	s, _ := renderPrefix(out, len(out)*4, false)
	return s
}

// next decodes the character at the start of b: what to write (a rune, or
// an escaped byte), its width in characters and its size in bytes. Raw
// text keeps control characters and has U+FFFD for a byte that is not
// UTF-8.
func next(b []byte, raw bool) (r rune, esc bool, width, size int) {
	r, size = utf8.DecodeRune(b)
	if raw {
		if r == utf8.RuneError && size == 1 {
			size = invalidLen(b)
		}
		return r, false, 1, size
	}
	if escaped(r, size) {
		return rune(b[0]), true, 4, 1
	}
	return r, false, 1, size
}

// invalidLen is how many bytes at the start of b, which does not start
// with a valid UTF-8 sequence, make one U+FFFD as Node (the WHATWG
// decoder) decodes them: the longest start of a valid sequence there (a
// sequence cut short), else one byte.
func invalidLen(b []byte) int {
	lo, hi, n := byte(0x80), byte(0xbf), 0 // the second byte's range; the sequence's length
	switch c := b[0]; {
	case c >= 0xc2 && c <= 0xdf:
		n = 2
	case c == 0xe0:
		lo, n = 0xa0, 3
	case c == 0xed:
		hi, n = 0x9f, 3
	case c >= 0xe1 && c <= 0xef:
		n = 3
	case c == 0xf0:
		lo, n = 0x90, 4
	case c == 0xf4:
		hi, n = 0x8f, 4
	case c >= 0xf1 && c <= 0xf3:
		n = 4
	default:
		return 1
	}
	i := 1
	for ; i < n && i < len(b); i++ {
		if b[i] < lo || b[i] > hi {
			break
		}
		lo, hi = 0x80, 0xbf
	}
	return i
}

// escaped reports whether safe text writes the rune r, decoded from size
// bytes, as \xNN.
func escaped(r rune, size int) bool {
	return (r == utf8.RuneError && size == 1) || r < 0x20 && r != '\t' && r != '\n' && r != '\r' && r != 0x1b || r == 0x7f
}

const hexDigits = "0123456789abcdef"

func write(sb *strings.Builder, r rune, esc bool) {
	if esc {
		sb.WriteString(`\x`)
		sb.WriteByte(hexDigits[r>>4])
		sb.WriteByte(hexDigits[r&0xf])
		return
	}
	sb.WriteRune(r)
}

// renderPrefix renders the longest prefix of b that fits in limit
// characters, and returns it with the number of bytes it took.
func renderPrefix(b []byte, limit int, raw bool) (string, int) {
	var sb strings.Builder
	sb.Grow(min(len(b), limit))
	chars, i := 0, 0
	for i < len(b) {
		r, esc, w, size := next(b[i:], raw)
		if chars+w > limit {
			break
		}
		write(&sb, r, esc)
		chars += w
		i += size
	}
	return sb.String(), i
}

// renderSuffix renders the longest suffix of b that fits in limit
// characters, and returns it with the number of bytes it took.
func renderSuffix(b []byte, limit int, raw bool) (string, int) {
	// Walk back to a start, then render forward from it: decoding forward
	// from a point reached backwards can split invalid bytes differently,
	// so step the start on until the forward rendering fits.
	start, chars := len(b), 0
	for start > 0 {
		r, size := utf8.DecodeLastRune(b[:start])
		w := 1
		if !raw && escaped(r, size) {
			w, size = 4, 1
		}
		if chars+w > limit {
			break
		}
		chars += w
		start -= size
	}
	for {
		s, n := renderPrefix(b[start:], limit, raw)
		if start+n == len(b) {
			return s, len(b) - start
		}
		_, _, _, size := next(b[start:], raw)
		start += size
	}
}

// buffer holds one output stream: its first window bytes and its last
// window bytes (or so) in memory and, once it outgrows the first window,
// the stream in a spill file, up to fileLimit bytes. Callers hold the
// sink's lock.
type buffer struct {
	window    int
	head      []byte // the first window bytes
	tail      []byte // the bytes after head, trimmed to the last window or so
	size      int64
	spill     func() (*os.File, error) // nil: memory only
	fileLimit int64
	file      *os.File
	fileSize  int64 // bytes in the file: the stream's first fileSize bytes
	path      string
	failed    bool // the spill file could not be made or written
	raw       bool // render raw text (Config.RawText)
}

func (b *buffer) tailStart() int64 { return b.size - int64(len(b.tail)) }

func (b *buffer) write(p []byte) {
	if b.file == nil && b.spill != nil && !b.failed && b.size+int64(len(p)) > int64(b.window) {
		b.spillNow()
	}
	b.toFile(p)
	b.size += int64(len(p))
	if room := b.window - len(b.head); room > 0 && len(b.tail) == 0 {
		n := min(room, len(p))
		b.head = append(b.head, p[:n]...)
		p = p[n:]
	}
	b.tail = append(b.tail, p...)
	if len(b.tail) > 2*b.window {
		n := copy(b.tail, b.tail[len(b.tail)-b.window:])
		b.tail = b.tail[:n]
	}
}

// toFile appends p to the spill file, if there is one and it has room.
func (b *buffer) toFile(p []byte) {
	if b.file == nil || b.fileSize != b.size {
		return // no file, or it stopped at its limit
	}
	p = p[:min(int64(len(p)), b.fileLimit-b.fileSize)]
	n, err := b.file.Write(p)
	b.fileSize += int64(n)
	if err != nil {
		b.failed = true
	}
}

// spillNow starts the spill file with what memory holds, which is the
// whole stream so far: spilling starts before the first window overflows.
func (b *buffer) spillNow() {
	f, err := b.spill()
	if err != nil {
		b.failed = true
		return
	}
	b.file, b.path, b.fileSize = f, f.Name(), 0
	size := b.size
	b.size = 0 // toFile appends at the stream's end
	b.toFile(b.head)
	b.size = int64(len(b.head))
	b.toFile(b.tail)
	b.size = size
}

// bytes returns the stream's bytes from..to if memory holds all of them.
func (b *buffer) bytes(from, to int64) ([]byte, bool) {
	h := int64(len(b.head))
	ts := b.tailStart()
	switch {
	case to <= h:
		return b.head[from:to], true
	case from >= ts:
		return b.tail[from-ts : to-ts], true
	case ts == h: // head and tail are contiguous
		out := make([]byte, 0, to-from)
		out = append(out, b.head[from:]...)
		return append(out, b.tail[:to-ts]...), true
	}
	return nil, false
}

// read returns the bytes from..to that memory or the spill file holds;
// bytes neither holds (past the file's limit, before the tail) are skipped.
func (b *buffer) read(from, to int64) []byte {
	if p, ok := b.bytes(from, to); ok {
		return p
	}
	var out []byte
	h, ts := int64(len(b.head)), b.tailStart()
	for pos := from; pos < to; {
		switch {
		case pos < h:
			end := min(to, h)
			out = append(out, b.head[pos:end]...)
			pos = end
		case pos >= ts:
			out = append(out, b.tail[pos-ts:to-ts]...)
			pos = to
		case pos < b.fileSize && b.file != nil:
			end := min(to, b.fileSize)
			p := make([]byte, end-pos)
			n, _ := b.file.ReadAt(p, pos)
			out = append(out, p[:n]...)
			pos = end
		default:
			pos = ts
		}
	}
	return out
}

// text renders the stream's bytes from..to within limit characters.
func (b *buffer) text(from, to int64, limit int) Text {
	t := Text{Size: to - from}
	if t.Size <= 0 {
		return Text{}
	}
	if p, ok := b.bytes(from, to); ok {
		h, tl, om := truncate(p, limit, b.raw)
		t.Head, t.Tail, t.Omitted = h, tl, int64(om)
	} else {
		w := int64(b.window)
		hl := limit / 2
		var hn, tn int
		t.Head, hn = renderPrefix(b.read(from, min(to, from+w)), hl, b.raw)
		t.Tail, tn = renderSuffix(b.read(max(from, to-w), to), limit-hl, b.raw)
		t.Omitted = t.Size - int64(hn) - int64(tn)
	}
	if t.Omitted > 0 {
		if b.file == nil && b.spill != nil && !b.failed {
			b.spillNow()
		}
		if !b.failed {
			t.Path = b.path
		}
	}
	return t
}

// keepIn makes f, a new empty file named path, the stream's file: what
// the stream wrote so far is copied into it, and what it writes from now
// on goes there too (up to the file limit), so f holds the whole stream
// as it grows. The previous spill file is closed, not removed. If part of
// the stream is already lost (its spill failed or stopped at the limit),
// f gets what is left and no more.
func (b *buffer) keepIn(f *os.File, path string) {
	whole := !b.failed && (b.file == nil || b.fileSize == b.size)
	p := b.read(0, b.size)
	if b.file != nil {
		b.file.Close()
	}
	n, err := f.Write(p)
	b.file, b.path, b.fileSize, b.failed = f, path, int64(n), err != nil
	if !whole {
		b.fileSize = -1 // never equal to the size: nothing more is appended
	}
}

// close closes the spill file; its path stays valid.
func (b *buffer) close() {
	if b.file != nil {
		b.file.Close()
		b.file = nil
	}
}

// sink gathers a command's output: stdout and stderr together in the order
// they were read, and, unless merged, each on its own.
type sink struct {
	mu             sync.Mutex
	merged         *buffer
	stdout, stderr *buffer // nil when both streams share one pipe
}

// window is how many bytes a buffer keeps of each end of a stream: enough
// for limit characters of four bytes each.
func window(limit int) int { return max(4*limit+16, 4096) }

// newSink makes a sink; spill creates the spill file of the named stream.
func newSink(limit int, fileLimit int64, merged, raw bool, spill func(stream string) (*os.File, error)) *sink {
	buf := func(stream string) *buffer {
		return &buffer{
			window:    window(limit),
			fileLimit: fileLimit,
			raw:       raw,
			spill:     func() (*os.File, error) { return spill(stream) },
		}
	}
	s := &sink{merged: buf("output")}
	if !merged {
		s.stdout, s.stderr = buf("stdout"), buf("stderr")
	}
	return s
}

// add records p, read from the stream whose own buffer is own (nil when
// merged).
func (s *sink) add(own *buffer, p []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.merged.write(p)
	if own != nil {
		own.write(p)
	}
}

// readBufs holds the buffers drain reads into: a call reads one or two
// pipes, most of them to a few bytes, so a buffer is reused rather than
// made (and collected) per call.
var readBufs = sync.Pool{New: func() any { return new([32 << 10]byte) }}

// drain copies r into the sink until r ends or its read deadline passes.
func (s *sink) drain(r *os.File, own *buffer) {
	b := readBufs.Get().(*[32 << 10]byte)
	defer readBufs.Put(b)
	buf := b[:]
	for {
		n, err := r.Read(buf)
		if n > 0 {
			s.add(own, buf[:n])
		}
		if err != nil {
			return
		}
	}
}

// texts renders the whole of each stream.
func (s *sink) texts(limit int) (merged, stdout, stderr Text) {
	s.mu.Lock()
	defer s.mu.Unlock()
	merged = s.merged.text(0, s.merged.size, limit)
	if s.stdout != nil {
		stdout = s.stdout.text(0, s.stdout.size, limit)
		stderr = s.stderr.text(0, s.stderr.size, limit)
	}
	return merged, stdout, stderr
}

// since renders the merged output written after byte from, and returns
// the end of what it rendered.
func (s *sink) since(from int64, limit int) (Text, int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	to := s.merged.size
	return s.merged.text(from, to, limit), to
}

// keepIn makes f, named path, hold the whole merged output, so far and
// from now on (see buffer.keepIn).
func (s *sink) keepIn(f *os.File, path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.merged.keepIn(f, path)
}

// trimSpill drops the leading blank lines and trailing white space of
// the merged output's spill file (Config.TrimSpill), when it holds the
// whole output: the ends are known from the head and tail kept in
// memory; the rest is moved down in the file when the start goes.
func (s *sink) trimSpill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.merged
	if b.file == nil || b.failed || b.fileSize != b.size {
		return
	}
	const space = " \t\n\v\f\r"
	lead := int64(bytes.LastIndexByte(b.head[:len(b.head)-len(bytes.TrimLeft(b.head, space))], '\n') + 1)
	end := b.tail
	if len(end) == 0 {
		end = b.head
	}
	keep := max(b.size-lead-int64(len(end)-len(bytes.TrimRight(end, space))), 0)
	if lead > 0 {
		buf := make([]byte, 64<<10)
		for off := int64(0); off < keep; {
			n, err := b.file.ReadAt(buf[:min(int64(len(buf)), keep-off)], lead+off)
			if n > 0 {
				if _, werr := b.file.WriteAt(buf[:n], off); werr != nil {
					return
				}
				off += int64(n)
			}
			if err != nil && off < keep {
				return
			}
		}
	}
	b.file.Truncate(keep)
}

// close closes the spill files; their paths stay valid.
func (s *sink) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range []*buffer{s.merged, s.stdout, s.stderr} {
		if b != nil {
			b.close()
		}
	}
}
