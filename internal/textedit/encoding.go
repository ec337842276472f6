package textedit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Kind is a character encoding that Decode recognises.
type Kind int

const (
	// UTF8 is UTF-8, with or without a byte order mark.
	UTF8 Kind = iota
	// UTF16LE is little-endian UTF-16; Decode recognises it by its byte order
	// mark only.
	UTF16LE
	// UTF16BE is big-endian UTF-16; Decode recognises it by its byte order
	// mark only.
	UTF16BE
	// Latin1 is Windows-1252 as the WHATWG Encoding Standard defines it: a
	// superset of the printable ISO-8859-1 characters in which every byte
	// maps to exactly one character (the five bytes Windows-1252 leaves
	// undefined map to the C1 controls of the same value), so that any byte
	// sequence round-trips.
	Latin1
)

// String returns the usual name of the encoding.
func (k Kind) String() string {
	switch k {
	case UTF8:
		return "UTF-8"
	case UTF16LE:
		return "UTF-16LE"
	case UTF16BE:
		return "UTF-16BE"
	case Latin1:
		return "Latin-1 (Windows-1252)"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Encoding describes how a file's text is stored: what Decode found and what
// Encode needs to write the text back the same way.
type Encoding struct {
	// Kind is the character encoding.
	Kind Kind
	// BOM reports whether the file starts with a byte order mark.
	BOM bool
	// CRLF reports whether most line endings are CR LF. On a tie the first
	// line ending decides. Encode uses it for every line of a file that is
	// not Mixed, and for new lines of a Mixed file.
	CRLF bool
	// Mixed reports whether the file has both CR LF and bare LF line
	// endings. An Encoding returned by Decode remembers which line had which
	// ending, and Encode keeps the ending of every line that the edit did not
	// change.
	Mixed bool

	// mixed is the decoded text and its line endings, set by Decode only
	// when Mixed is true. It is a pointer so that printing an Encoding does
	// not print the file.
	mixed *lineEndings
}

// lineEndings records, for a decoded text, which lines ended with CR LF.
type lineEndings struct {
	text string
	crlf []bool // crlf[i] reports whether line i (0-based) ended with CR LF
}

// String describes the encoding for a person, e.g. "UTF-8 with BOM, CRLF".
func (e Encoding) String() string {
	var b strings.Builder
	b.WriteString(e.Kind.String())
	if e.BOM {
		b.WriteString(" with BOM")
	}
	switch {
	case e.Mixed && e.CRLF:
		b.WriteString(", mixed line endings (mostly CRLF)")
	case e.Mixed:
		b.WriteString(", mixed line endings (mostly LF)")
	case e.CRLF:
		b.WriteString(", CRLF")
	default:
		b.WriteString(", LF")
	}
	return b.String()
}

// ErrBinary is returned by Decode for data that is not text.
var ErrBinary = errors.New("binary file: not text in UTF-8, UTF-16 with BOM or Latin-1")

// EncodeError is returned by Encode when the text holds a character that the
// target encoding cannot represent.
type EncodeError struct {
	// Rune is the character.
	Rune rune
	// Line and Column (in characters) are 1-based positions in the text.
	Line, Column int
	// Kind is the target encoding.
	Kind Kind
	// Invalid reports whether the text holds invalid UTF-8 there (Rune is
	// then utf8.RuneError) rather than a character Kind lacks.
	Invalid bool
}

// Error implements error.
func (e *EncodeError) Error() string {
	if e.Invalid {
		return fmt.Sprintf("invalid UTF-8 at line %d, column %d; the text must be valid UTF-8", e.Line, e.Column)
	}
	return fmt.Sprintf("character %q (U+%04X) at line %d, column %d cannot be written in %s; use a character the file's encoding has",
		e.Rune, e.Rune, e.Line, e.Column, e.Kind)
}

var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
)

// sniffLen is how much of the decoded text Decode inspects for control
// characters. NUL bytes are looked for in the whole file.
const sniffLen = 64 << 10

// Decode detects the encoding of b and returns its text as UTF-8 with CR LF
// line endings turned into LF.
//
// Detection, in order: a UTF-8 byte order mark followed by valid UTF-8; a
// UTF-16 byte order mark followed by valid UTF-16 (an even length, no
// unpaired surrogate); valid UTF-8; otherwise Latin-1 (Windows-1252, see
// Latin1). UTF-16 without a byte order mark is not recognised and usually
// reads as binary. A UTF-8 file with a single invalid byte reads as Latin-1:
// lossless, but its non-ASCII characters look wrong.
//
// Binary data returns ErrBinary: a NUL character anywhere, or more than one
// character in ten of the first 64 KiB of text being a control character
// other than tab, line feed, vertical tab, form feed, carriage return,
// backspace and escape.
//
// A lone CR (not followed by LF) is kept in the text and is not a line
// ending. The returned Encoding records the line endings (see Encoding.CRLF
// and Encoding.Mixed).
func Decode(b []byte) (text string, enc Encoding, err error) {
	return decode(b, false)
}

// DecodeOwned is Decode for a caller that gives b up: b must not be
// changed afterwards, since the text may share its memory (a UTF-8 file
// with LF endings, the usual case, is then not copied), and b's content is
// lost when Decode succeeds: UTF-16 is decoded in place when its UTF-8
// never runs ahead of what is left to decode (most text). When DecodeOwned
// fails, b is as it was.
func DecodeOwned(b []byte) (text string, enc Encoding, err error) {
	return decode(b, true)
}

func decode(b []byte, owned bool) (string, Encoding, error) {
	chars, enc, ok := decodeChars(b, owned)
	if !ok || binaryText(chars) {
		return "", Encoding{}, ErrBinary
	}
	if owned && len(chars) > 0 && !bytes.Contains(chars, []byte("\r\n")) {
		return unsafe.String(&chars[0], len(chars)), enc, nil
	}
	text, enc := decodeLineEndings(chars, enc)
	return text, enc, nil
}

// decodeChars turns b into UTF-8 without touching line endings; UTF-8 input
// is returned as a slice of b, not copied. It reports false for data that
// cannot be text.
func decodeChars(b []byte, owned bool) ([]byte, Encoding, bool) {
	switch {
	case bytes.HasPrefix(b, bomUTF8) && utf8.Valid(b[len(bomUTF8):]):
		if bytes.IndexByte(b, 0) >= 0 {
			return nil, Encoding{}, false
		}
		return b[len(bomUTF8):], Encoding{Kind: UTF8, BOM: true}, true
	case bytes.HasPrefix(b, bomUTF16LE):
		if s, ok := decodeUTF16(b[2:], false, owned); ok {
			return s, Encoding{Kind: UTF16LE, BOM: true}, true
		}
	case bytes.HasPrefix(b, bomUTF16BE):
		if s, ok := decodeUTF16(b[2:], true, owned); ok {
			return s, Encoding{Kind: UTF16BE, BOM: true}, true
		}
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return nil, Encoding{}, false
	}
	if utf8.Valid(b) {
		return b, Encoding{Kind: UTF8}, true
	}
	return decodeLatin1(b), Encoding{Kind: Latin1}, true
}

// decodeUTF16 decodes b as UTF-16. It reports false for an odd length, an
// unpaired surrogate or a NUL character. With inPlace it writes the UTF-8
// over b when that never overtakes the units still to be read, and leaves
// b as it was when the text is binary (it then returns only the start,
// which binaryText judges alike).
func decodeUTF16(b []byte, bigEndian, inPlace bool) ([]byte, bool) {
	if len(b)%2 != 0 {
		return nil, false
	}
	unit := func(i int) uint16 {
		if bigEndian {
			return uint16(b[i])<<8 | uint16(b[i+1])
		}
		return uint16(b[i]) | uint16(b[i+1])<<8
	}
	// each calls f with every character and the offset after its units,
	// and reports false for what cannot be UTF-16 text.
	each := func(f func(r rune, next int) bool) bool {
		for i := 0; i < len(b); i += 2 {
			u := unit(i)
			r := rune(u)
			switch {
			case u == 0:
				return false
			case utf16.IsSurrogate(r):
				if u >= 0xDC00 || i+3 >= len(b) {
					return false
				}
				r = utf16.DecodeRune(r, rune(unit(i+2)))
				if r == utf8.RuneError {
					return false
				}
				i += 2
			}
			if !f(r, i+2) {
				break
			}
		}
		return true
	}
	if inPlace {
		n := 0
		ok := each(func(r rune, next int) bool {
			n += utf8.RuneLen(r)
			inPlace = inPlace && n <= next
			return true
		})
		if !ok {
			return nil, false
		}
		if inPlace {
			head := make([]byte, 0, sniffLen+utf8.UTFMax)
			each(func(r rune, _ int) bool {
				head = utf8.AppendRune(head, r)
				return len(head) < sniffLen
			})
			if binaryText(head) {
				return head, true
			}
			w := 0
			each(func(r rune, _ int) bool {
				w += utf8.EncodeRune(b[w:], r)
				return true
			})
			return b[:w], true
		}
	}
	out := make([]byte, 0, len(b)/2)
	if !each(func(r rune, _ int) bool {
		out = utf8.AppendRune(out, r)
		return true
	}) {
		return nil, false
	}
	return out, true
}

// binaryText reports whether the start of b has too many control characters
// to be text.
func binaryText(b []byte) bool {
	if len(b) > sniffLen {
		b = b[:sniffLen]
	}
	n, controls := 0, 0
	for i := 0; i < len(b); {
		if c := b[i]; c < utf8.RuneSelf { // most of a text is ASCII
			n++
			if asciiControl[c] {
				controls++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		i += size
		if r == utf8.RuneError && size == 1 && len(b)-i < utf8.UTFMax {
			break // a character cut in half by the sample
		}
		n++
		if r < 0xa0 { // C1 controls
			controls++
		}
	}
	return controls*10 > n
}

// asciiControl marks the ASCII control characters binaryText counts: all
// but tab, the line and page breaks, backspace and escape.
var asciiControl = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = c < 0x20 || c == 0x7f
	}
	for _, c := range "\t\n\v\f\r\b\x1b" {
		t[c] = false
	}
	return t
}()

// decodeLineEndings turns CR LF into LF and records the endings in enc. It
// copies b once.
func decodeLineEndings(b []byte, enc Encoding) (string, Encoding) {
	crlf := bytes.Count(b, []byte("\r\n"))
	if crlf == 0 {
		return string(b), enc
	}
	lf := bytes.Count(b, []byte("\n")) - crlf
	first := bytes.IndexByte(b, '\n')
	enc.CRLF = crlf > lf || crlf == lf && first > 0 && b[first-1] == '\r'
	var sb strings.Builder
	sb.Grow(len(b) - crlf)
	var ends []bool
	if lf > 0 {
		ends = make([]bool, 0, crlf+lf)
	}
	for rest := b; ; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			sb.Write(rest)
			break
		}
		cr := i > 0 && rest[i-1] == '\r'
		if cr {
			sb.Write(rest[:i-1])
		} else {
			sb.Write(rest[:i])
		}
		sb.WriteByte('\n')
		if lf > 0 {
			ends = append(ends, cr)
		}
		rest = rest[i+1:]
	}
	text := sb.String()
	if lf > 0 {
		enc.Mixed = true
		enc.mixed = &lineEndings{text: text, crlf: ends}
	}
	return text, enc
}

// Encode turns LF text back into bytes in enc: its character encoding, byte
// order mark and line endings. Encode(Decode(b)) == b for every b that
// Decode accepts.
//
// Line endings: when enc is not Mixed, every LF becomes enc's line ending.
// When enc is a Mixed Encoding from Decode, Encode lines the text up with the
// decoded text (common prefix and suffix, then a line diff of the rest):
// unchanged lines keep their own ending, a changed line takes the ending of
// the line it replaced, and an added line that replaced nothing takes the
// ending of the line before it. A Mixed Encoding built by hand falls back to
// CRLF or LF as enc.CRLF says.
//
// Encode returns an *EncodeError for a character that enc.Kind cannot
// represent (a character outside Windows-1252) and for invalid UTF-8 in
// text, which no encoding writes faithfully.
func Encode(text string, enc Encoding) ([]byte, error) {
	if !utf8.ValidString(text) {
		for i, r := range text {
			if r == utf8.RuneError && !strings.HasPrefix(text[i:], "\uFFFD") {
				return nil, encodeError(text, i, enc.Kind)
			}
		}
	}
	if enc.Kind == UTF8 {
		var dst []byte
		if enc.BOM {
			dst = make([]byte, 0, len(bomUTF8)+len(text)+len(text)/32)
			dst = append(dst, bomUTF8...)
		}
		return appendLineEndings(dst, text, enc), nil
	}
	s := text
	if enc.CRLF || enc.Mixed {
		s = string(appendLineEndings(nil, text, enc))
	}
	switch enc.Kind {
	case UTF16LE, UTF16BE:
		return encodeUTF16(s, enc), nil
	case Latin1:
		return encodeLatin1(s)
	}
	return nil, fmt.Errorf("unknown encoding %v", enc.Kind)
}

// EncodeParts is Encode for the concatenation of parts (as ApplyParts gives
// them) without building it: it returns the size of the encoded bytes, for
// a limit to be checked before anything is written, and a function that
// writes them. UTF-8 and UTF-16, with or without a byte order mark and CR
// LF endings, are written part by part (encoded a chunk at a time); Latin-1
// and mixed line endings are encoded whole first. The errors are Encode's.
func EncodeParts(parts []string, enc Encoding) (size int64, write func(io.Writer) error, err error) {
	utf16 := enc.Kind == UTF16LE || enc.Kind == UTF16BE
	stream := (enc.Kind == UTF8 || utf16) && !enc.Mixed
	for _, p := range parts {
		stream = stream && utf8.ValidString(p)
	}
	if !stream {
		data, err := Encode(strings.Join(parts, ""), enc)
		if err != nil {
			return 0, nil, err
		}
		return int64(len(data)), func(w io.Writer) error {
			_, err := w.Write(data)
			return err
		}, nil
	}
	bom := bomUTF8
	if utf16 {
		bom = nil
		if enc.BOM {
			bom = encodeUTF16("", enc)
		}
	}
	if enc.BOM {
		size = int64(len(bom))
	}
	for _, p := range parts {
		nl := int64(strings.Count(p, "\n"))
		switch {
		case utf16:
			// Two bytes a UTF-16 unit: one unit a character, two for
			// those of four UTF-8 bytes (beyond U+FFFF).
			size += 2 * int64(utf8.RuneCountInString(p)+countAtLeast(p, 0xF0))
			if enc.CRLF {
				size += 2 * nl
			}
		default:
			size += int64(len(p))
			if enc.CRLF {
				size += nl
			}
		}
	}
	return size, func(w io.Writer) error {
		if enc.BOM {
			if _, err := w.Write(bom); err != nil {
				return err
			}
		}
		var buf []byte
		for _, p := range parts {
			if !enc.CRLF && !utf16 {
				if _, err := io.WriteString(w, p); err != nil {
					return err
				}
				continue
			}
			for p != "" {
				chunk := p[:runeCut(p, 64<<10)]
				switch {
				case utf16:
					buf = appendUTF16(buf[:0], chunk, enc, enc.CRLF)
				default:
					buf = appendLineEndings(buf[:0], chunk, enc)
				}
				if _, err := w.Write(buf); err != nil {
					return err
				}
				p = p[len(chunk):]
			}
		}
		return nil
	}, nil
}

// countAtLeast counts the bytes of s at or above c.
func countAtLeast(s string, c byte) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= c {
			n++
		}
	}
	return n
}

// runeCut returns where to cut s into a chunk of about n bytes: n, moved
// back to the start of a character, or len(s).
func runeCut(s string, n int) int {
	if len(s) <= n {
		return len(s)
	}
	for i := n; i > n-utf8.UTFMax && i > 0; i-- {
		if utf8.RuneStart(s[i]) {
			return i
		}
	}
	return n
}

// appendLineEndings appends text to dst with each LF turned into the line
// ending enc prescribes for its line.
func appendLineEndings(dst []byte, text string, enc Encoding) []byte {
	switch {
	case enc.Mixed && enc.mixed != nil:
		return appendMixed(dst, text, enc.mixed, enc.CRLF)
	case enc.CRLF:
		if dst == nil {
			dst = make([]byte, 0, len(text)+strings.Count(text, "\n"))
		}
		for {
			i := strings.IndexByte(text, '\n')
			if i < 0 {
				return append(dst, text...)
			}
			dst = append(dst, text[:i]...)
			dst = append(dst, '\r', '\n')
			text = text[i+1:]
		}
	}
	return append(dst, text...)
}

// appendMixed appends text with the line endings of orig kept for the lines
// the edit did not change.
func appendMixed(dst []byte, text string, orig *lineEndings, majority bool) []byte {
	a, b := orig.text, text
	// Whole lines common to the start of both.
	pre := lineStart(a, commonPrefix(a, b))
	nPre := strings.Count(a[:pre], "\n")
	// Whole lines common to the end of both.
	aSuf, bSuf := suffixLines(a, b, pre)
	aMid, bMid := splitLines(a[pre:aSuf]), splitLines(b[pre:bSuf])

	ends := make([]bool, 0, len(bMid))
	// ending returns the ending of the first of lines i... of a that has
	// one, or the majority.
	ending := func(lines ...int) bool {
		for _, i := range lines {
			if i >= 0 && i < len(orig.crlf) {
				return orig.crlf[i]
			}
		}
		return majority
	}
	lastA := nPre - 1 // last line of a kept so far
	pending := 0      // lines of a deleted since lastA
	for _, op := range lineOps(aMid, bMid) {
		switch op.kind {
		case opEqual:
			for k := range op.n {
				ends = append(ends, ending(nPre+op.a+k))
			}
			lastA = nPre + op.a + op.n - 1
			pending = 0
		case opDelete:
			pending = op.n
		case opInsert:
			for k := range op.n {
				replaced := -1
				if pending > 0 {
					replaced = lastA + 1 + min(k, pending-1)
				}
				ends = append(ends, ending(replaced, lastA, lastA+pending+1))
			}
		}
	}

	if dst == nil {
		dst = make([]byte, 0, len(b)+len(b)/16)
	}
	dst = appendWithEnds(dst, b[:pre], orig.crlf[:nPre])
	dst = appendWithEnds(dst, b[pre:bSuf], ends)
	return appendWithEnds(dst, b[bSuf:], orig.crlf[min(len(orig.crlf), nPre+strings.Count(a[pre:aSuf], "\n")):])
}

// appendWithEnds appends s to dst, writing the i-th LF of s as CR LF when
// crlf[i] is true. Lines past the end of crlf get LF.
func appendWithEnds(dst []byte, s string, crlf []bool) []byte {
	for i := 0; ; i++ {
		j := strings.IndexByte(s, '\n')
		if j < 0 {
			return append(dst, s...)
		}
		dst = append(dst, s[:j]...)
		if i < len(crlf) && crlf[i] {
			dst = append(dst, '\r')
		}
		dst = append(dst, '\n')
		s = s[j+1:]
	}
}

func encodeUTF16(s string, enc Encoding) []byte {
	out := make([]byte, 0, 2+2*len(s))
	if enc.BOM {
		out = appendUnit(out, 0xFEFF, enc)
	}
	return appendUTF16(out, s, enc, false)
}

// appendUTF16 appends s to dst in UTF-16 (without a byte order mark),
// with CR before each LF when crlf is set.
func appendUTF16(dst []byte, s string, enc Encoding, crlf bool) []byte {
	for _, r := range s {
		if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
			dst = appendUnit(dst, uint16(r1), enc)
			dst = appendUnit(dst, uint16(r2), enc)
			continue
		}
		if r == '\n' && crlf {
			dst = appendUnit(dst, '\r', enc)
		}
		dst = appendUnit(dst, uint16(r), enc)
	}
	return dst
}

func appendUnit(dst []byte, u uint16, enc Encoding) []byte {
	if enc.Kind == UTF16BE {
		return append(dst, byte(u>>8), byte(u))
	}
	return append(dst, byte(u), byte(u>>8))
}

// encodeError builds the EncodeError for the character at byte offset i of s.
func encodeError(s string, i int, k Kind) error {
	r, size := utf8.DecodeRuneInString(s[i:])
	lineStart := strings.LastIndexByte(s[:i], '\n') + 1
	return &EncodeError{
		Rune:    r,
		Line:    strings.Count(s[:i], "\n") + 1,
		Column:  utf8.RuneCountInString(s[lineStart:i]) + 1,
		Kind:    k,
		Invalid: r == utf8.RuneError && size <= 1,
	}
}

// win1252 maps the bytes 0x80–0x9F of Windows-1252 to characters. The five
// bytes Windows-1252 leaves undefined map to the C1 control of the same value,
// as in the WHATWG Encoding Standard.
var win1252 = [32]rune{
	0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
	0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
}

func decodeLatin1(b []byte) []byte {
	out := make([]byte, 0, len(b)+len(b)/8)
	for _, c := range b {
		switch {
		case c < 0x80:
			out = append(out, c)
		case c < 0xA0:
			out = utf8.AppendRune(out, win1252[c-0x80])
		default:
			out = utf8.AppendRune(out, rune(c))
		}
	}
	return out
}

// latin1Byte returns the Windows-1252 byte for r.
func latin1Byte(r rune) (byte, bool) {
	switch {
	case r < 0x80, r >= 0xA0 && r <= 0xFF:
		return byte(r), true
	}
	for i, w := range win1252 {
		if w == r {
			return byte(0x80 + i), true
		}
	}
	return 0, false
}

func encodeLatin1(s string) ([]byte, error) {
	out := make([]byte, 0, len(s))
	for i, r := range s {
		if r < 0x80 {
			out = append(out, byte(r))
			continue
		}
		c, ok := latin1Byte(r)
		if !ok {
			return nil, encodeError(s, i, Latin1)
		}
		out = append(out, c)
	}
	return out, nil
}
