package textedit

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// view is a normalised form of a text with a map back to the original.
type view struct {
	s   string
	pts []point // ascending; nil when s is the original text
}

// point says that offset n of a view is offset o of the original. Between
// points offsets advance together. A deletion is two points with the same
// n; a substitution of one view byte for several original bytes is the
// points (n, o) and (n+1, o+size).
type point struct{ n, o int }

// origStart maps the start of a match in the view to the original text: a
// deletion at p is left outside the match.
func (v view) origStart(p int) int {
	i := sort.Search(len(v.pts), func(i int) bool { return v.pts[i].n > p })
	if i == 0 {
		return p
	}
	q := v.pts[i-1]
	return q.o + p - q.n
}

// origEnd maps the end of a match in the view to the original text: a
// deletion at p is left outside the match.
func (v view) origEnd(p int) int {
	i := sort.Search(len(v.pts), func(i int) bool { return v.pts[i].n >= p })
	if i < len(v.pts) && v.pts[i].n == p {
		return v.pts[i].o
	}
	return v.origStart(p)
}

// viewBuilder builds a view of src left to right.
type viewBuilder struct {
	src string
	sb  strings.Builder
	pts []point
	at  int // bytes of src consumed
}

func (b *viewBuilder) copyTo(o int) {
	if b.sb.Cap() == 0 {
		b.sb.Grow(len(b.src))
	}
	b.sb.WriteString(b.src[b.at:o])
	b.at = o
}

// drop leaves src[o:o+size] out of the view.
func (b *viewBuilder) drop(o, size int) {
	b.copyTo(o)
	n := b.sb.Len()
	b.pts = append(b.pts, point{n, o}, point{n, o + size})
	b.at = o + size
}

// subst puts the single byte c in the view for src[o:o+size].
func (b *viewBuilder) subst(o, size int, c byte) {
	b.copyTo(o)
	n := b.sb.Len()
	b.sb.WriteByte(c)
	b.pts = append(b.pts, point{n, o}, point{n + 1, o + size})
	b.at = o + size
}

func (b *viewBuilder) view() view {
	if b.pts == nil {
		return view{s: b.src}
	}
	b.copyTo(len(b.src))
	return view{s: b.sb.String(), pts: b.pts}
}

// candidate is a normalised search prepared for one edit.
type candidate struct {
	view   view
	old    string
	accept func(s string, start, end int) bool // nil accepts every match
	repl   func(start, end int) string         // replacement of text[start:end]
}

// normalization is one of the deterministic rewrites Apply tries.
type normalization struct {
	name string // as Result.Normalization reports it
	what string // for messages: "after normalising <what>"
	// prepare returns the candidate, or false when the normalisation changes
	// neither the old string nor the text.
	prepare func(text string, e Edit) (candidate, bool)
}

// normalizations are tried in this order.
var normalizations = []normalization{
	{NormLineEndings, "line endings", prepareLineEndings},
	{NormTrailingWhitespace, "trailing whitespace", prepareTrailingWhitespace},
	{NormLineNumberPrefix, "line-number prefixes", prepareLineNumbers},
	{NormTypographicQuotes, "typographic quotes", prepareQuotes},
}

// prepareLineEndings makes CR LF count as LF.
func prepareLineEndings(text string, e Edit) (candidate, bool) {
	old := strings.ReplaceAll(e.Old, "\r\n", "\n")
	if old == e.Old && !strings.Contains(text, "\r\n") {
		return candidate{}, false
	}
	b := viewBuilder{src: text}
	for i := 0; ; {
		j := strings.Index(text[i:], "\r\n")
		if j < 0 {
			break
		}
		b.subst(i+j, 2, '\n')
		i += j + 2
	}
	repl := func(start, _ int) string {
		lf := strings.ReplaceAll(e.New, "\r\n", "\n")
		if usesCRLF(text, start) {
			return strings.ReplaceAll(lf, "\n", "\r\n")
		}
		return lf
	}
	return candidate{view: b.view(), old: old, repl: repl}, true
}

// usesCRLF reports whether the text at offset start uses CR LF: the first
// line ending at or after start, or else the last one before it.
func usesCRLF(text string, start int) bool {
	if i := strings.IndexByte(text[start:], '\n'); i >= 0 {
		return start+i > 0 && text[start+i-1] == '\r'
	}
	if i := strings.LastIndexByte(text[:start], '\n'); i > 0 {
		return text[i-1] == '\r'
	}
	return false
}

// isBlank reports whether c is a space or a tab.
func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// prepareTrailingWhitespace ignores spaces and tabs at the ends of lines.
func prepareTrailingWhitespace(text string, e Edit) (candidate, bool) {
	old, endStripped := stripTrailing(e.Old)
	b := viewBuilder{src: text}
	for i := 0; i <= len(text); {
		j := strings.IndexByte(text[i:], '\n')
		end := i + j
		if j < 0 {
			end = len(text)
		}
		k := end
		for k > i && isBlank(text[k-1]) {
			k--
		}
		if k < end {
			b.drop(k, end-k)
		}
		if j < 0 {
			break
		}
		i = end + 1
	}
	v := b.view()
	if old == e.Old && v.pts == nil || old == "" {
		return candidate{}, false
	}
	c := candidate{view: v, old: old, repl: func(int, int) string { return e.New }}
	if endStripped {
		c.accept = func(s string, _, end int) bool { return end == len(s) || s[end] == '\n' }
	}
	return c, true
}

// stripTrailing removes spaces and tabs before each LF of s and at its end,
// and reports whether it removed any at the end.
func stripTrailing(s string) (string, bool) {
	var sb strings.Builder
	sb.Grow(len(s))
	for {
		i := strings.IndexByte(s, '\n')
		line := s
		if i >= 0 {
			line = s[:i]
		}
		trimmed := strings.TrimRight(line, " \t")
		sb.WriteString(trimmed)
		if i < 0 {
			return sb.String(), len(trimmed) < len(line)
		}
		sb.WriteByte('\n')
		s = s[i+1:]
	}
}

// prepareLineNumbers strips line-number prefixes copied from read output.
func prepareLineNumbers(text string, e Edit) (candidate, bool) {
	old, sep, ok := stripLineNumbers(e.Old, "", true)
	if !ok || old == "" {
		return candidate{}, false
	}
	newText := e.New
	if s, _, ok := stripLineNumbers(e.New, sep, false); ok {
		newText = s
	}
	return candidate{view: view{s: text}, old: old, repl: func(int, int) string { return newText }}, true
}

// lineNumberSeps are the separators after a line number in read output:
// cat -n's tab, and the arrow and box-drawing bar other tools print.
var lineNumberSeps = []string{"\t", "→", "│"}

// stripLineNumbers removes a prefix "<spaces><digits><sep>" from every line
// of s (a last empty line after a final LF needs none). When sep is "" it is
// detected from the first line and every line must use it. When strict, the
// numbers must be consecutive and every line must carry one; otherwise empty
// lines may go without. It returns the stripped text and the separator.
func stripLineNumbers(s, sep string, strict bool) (string, string, bool) {
	var sb strings.Builder
	sb.Grow(len(s))
	prev := -1
	for first := true; ; first = false {
		i := strings.IndexByte(s, '\n')
		line := s
		if i >= 0 {
			line = s[:i]
		}
		finalEmpty := i < 0 && line == "" && !first // after a last LF
		if !finalEmpty && (strict || line != "") {
			n, rest, lsep, ok := cutLineNumber(line)
			switch {
			case !ok, sep != "" && lsep != sep:
				return "", "", false
			case strict && prev >= 0 && n != prev+1:
				return "", "", false
			}
			sep, prev = lsep, n
			line = rest
		}
		sb.WriteString(line)
		if i < 0 {
			break
		}
		sb.WriteByte('\n')
		s = s[i+1:]
	}
	if sep == "" {
		return "", "", false
	}
	return sb.String(), sep, true
}

// cutLineNumber splits "<spaces><digits><sep>rest".
func cutLineNumber(line string) (n int, rest, sep string, ok bool) {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	j := i
	for j < len(line) && line[j] >= '0' && line[j] <= '9' && j-i < 9 {
		n = n*10 + int(line[j]-'0')
		j++
	}
	if j == i {
		return 0, "", "", false
	}
	for _, s := range lineNumberSeps {
		if strings.HasPrefix(line[j:], s) {
			return n, line[j+len(s):], s, true
		}
	}
	return 0, "", "", false
}

// straightQuote maps a typographic quote to its straight form.
func straightQuote(r rune) (byte, bool) {
	switch r {
	case '‘', '’':
		return '\'', true
	case '“', '”':
		return '"', true
	}
	return 0, false
}

// prepareQuotes makes typographic quotes count as straight ones.
func prepareQuotes(text string, e Edit) (candidate, bool) {
	old := straighten(e.Old)
	b := viewBuilder{src: text}
	// ‘ ’ “ ” are E2 80 98, 99, 9C, 9D in UTF-8.
	for i := 0; ; {
		j := strings.Index(text[i:], "\xe2\x80")
		if j < 0 || i+j+2 >= len(text) {
			break
		}
		i += j
		if c, ok := straightQuote(rune(0x2000 | int(text[i+2]&0x3f))); ok {
			b.subst(i, 3, c)
			i += 3
		} else {
			i += 2
		}
	}
	v := b.view()
	if old == e.Old && v.pts == nil {
		return candidate{}, false
	}
	repl := func(start, end int) string {
		return convertQuotes(e.New, e.Old, text, start, end)
	}
	return candidate{view: v, old: old, repl: repl}, true
}

// straighten replaces typographic quotes with straight ones.
func straighten(s string) string {
	return strings.NewReplacer("‘", "'", "’", "'", "“", "\"", "”", "\"").Replace(s)
}

// convertQuotes converts the quotes of newText the way old had to be
// converted to match text[start:end]: straight to the file's curly ones, or
// curly to straight, separately for single and double quotes.
func convertQuotes(newText, old, text string, start, end int) string {
	var curly, straight [2]bool // [0] single, [1] double
	region := text[start:end]
	for old != "" && region != "" {
		ro, no := utf8.DecodeRuneInString(old)
		rr, nr := utf8.DecodeRuneInString(region)
		old, region = old[no:], region[nr:]
		if ro == rr {
			continue
		}
		kind := 0
		if ro == '"' || rr == '"' || ro == '“' || ro == '”' {
			kind = 1
		}
		_, oCurly := straightQuote(ro)
		_, rCurly := straightQuote(rr)
		switch {
		case !oCurly && rCurly:
			curly[kind] = true
		case oCurly && !rCurly:
			straight[kind] = true
		}
	}
	if curly == [2]bool{} && straight == [2]bool{} {
		return newText
	}
	prev, _ := utf8.DecodeLastRuneInString(text[:start])
	if start == 0 {
		prev = ' '
	}
	var sb strings.Builder
	sb.Grow(len(newText) + 8)
	for _, r := range newText {
		out := r
		switch {
		case r == '\'' && curly[0]:
			out = '’'
			if opens(prev) {
				out = '‘'
			}
		case r == '"' && curly[1]:
			out = '”'
			if opens(prev) {
				out = '“'
			}
		case (r == '‘' || r == '’') && straight[0]:
			out = '\''
		case (r == '“' || r == '”') && straight[1]:
			out = '"'
		}
		sb.WriteRune(out)
		prev = out
	}
	return sb.String()
}

// opens reports whether a quote after prev opens a quotation.
func opens(prev rune) bool {
	return unicode.IsSpace(prev) || strings.ContainsRune("([{<‘“—–", prev)
}
