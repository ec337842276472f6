package textedit

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// hintQuoteMax is the longest excerpt of a line a hint quotes, in bytes.
const hintQuoteMax = 160

// hint explains why old was not found in text. tried holds what the
// normalisations found. Hints are for the reader: none is ever applied.
func hint(text, old string, tried []string) string {
	parts := tried
	probe := strings.ReplaceAll(old, "\r\n", "\n")
	if s, _, ok := stripLineNumbers(probe, "", true); ok && strings.TrimSpace(s) != "" {
		probe = s
	}
	for _, h := range []func(string, string) string{whitespaceHint, partialHint, closestHint} {
		if s := h(text, probe); s != "" {
			parts = append(parts, s)
			break
		}
	}
	return strings.Join(parts, "; ")
}

// isSpace reports whether c is ASCII whitespace.
func isSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\v', '\f':
		return true
	}
	return false
}

// whitespaceHint reports where old matches text if all whitespace is ignored.
func whitespaceHint(text, old string) string {
	squeeze := func(s string, lineStarts *[]int) string {
		var sb strings.Builder
		sb.Grow(len(s))
		if lineStarts != nil {
			*lineStarts = append(*lineStarts, 0)
		}
		for i := 0; i < len(s); i++ {
			c := s[i]
			if c == '\n' && lineStarts != nil {
				*lineStarts = append(*lineStarts, sb.Len())
			}
			if !isSpace(c) {
				sb.WriteByte(c)
			}
		}
		return sb.String()
	}
	o := squeeze(old, nil)
	if o == "" {
		return ""
	}
	var starts []int
	t := squeeze(text, &starts)
	m := findAll(t, o, 3, nil)
	if m.count == 0 {
		return ""
	}
	lines := make([]int, len(m.pos))
	for i, p := range m.pos {
		// The line holding the first character of the match: the last line
		// starting at or before it.
		lines[i] = sort.Search(len(starts), func(k int) bool { return starts[k] > p })
	}
	return fmt.Sprintf("whitespace differs: it matches the text at %s when spaces, tabs and line breaks are ignored; copy the text exactly from the file, indentation included",
		formatLines(lines, m.count))
}

// partialHint reports where the first lines of old match and the first line
// that differs, when old has several lines.
func partialHint(text, old string) string {
	first, _, ok := strings.Cut(old, "\n")
	if !ok || strings.TrimSpace(first) == "" {
		return ""
	}
	best, bestAt := 0, -1
	for i, n := 0, 0; n < 1000; n++ {
		j := strings.Index(text[i:], first+"\n")
		if j < 0 {
			break
		}
		at := i + j
		if k := commonPrefix(text[at:], old); k > best {
			best, bestAt = k, at
		}
		i = at + 1
	}
	if bestAt < 0 {
		return ""
	}
	// The lines of old matched in full, and the first one that differs.
	matched := strings.Count(old[:best], "\n")
	if matched == 0 {
		return ""
	}
	oldLines := strings.Split(old, "\n")
	line := strings.Count(text[:bestAt], "\n") + 1
	fileStart := bestAt + lineStart(text[bestAt:], best)
	fileLine, _, _ := strings.Cut(text[fileStart:], "\n")
	what := fmt.Sprintf("the file has %s, old has %s", quote(fileLine), quote(oldLines[matched]))
	if strings.TrimSpace(fileLine) == strings.TrimSpace(oldLines[matched]) {
		what = "only the whitespace differs: the file has " + quote(fileLine)
	}
	return fmt.Sprintf("the first %d line(s) of old match at line %d, but line %d differs: %s",
		matched, line, line+matched, what)
}

// closestHint names the line of text most like the first non-blank line of
// old, by the overlap of their byte pairs (Dice's coefficient, at least 0.5).
func closestHint(text, old string) string {
	var target string
	for l := range strings.Lines(old) {
		if t := strings.TrimSpace(l); t != "" {
			target = t
			break
		}
	}
	if len(target) < 3 {
		return ""
	}
	// Byte pairs are counted in a small hashed table: a collision can only
	// make a line look a little more similar, which a hint can afford.
	var counts [1 << 12]int32
	pair := func(s string, i int) uint16 { return (uint16(s[i])*61 ^ uint16(s[i+1])) & (1<<12 - 1) }
	for i := 0; i+1 < len(target); i++ {
		counts[pair(target, i)]++
	}
	nt := len(target) - 1
	best, bestLine, bestText := 0.5, 0, ""
	var taken []uint16
	line := 0
	for l := range strings.Lines(text) {
		line++
		t := strings.TrimSpace(l)
		nl := len(t) - 1
		if nl < 1 || float64(2*min(nt, nl))/float64(nt+nl) <= best {
			continue
		}
		taken = taken[:0]
		for i := 0; i+1 < len(t); i++ {
			k := pair(t, i)
			if counts[k] > 0 {
				counts[k]--
				taken = append(taken, k)
			}
		}
		for _, k := range taken {
			counts[k]++
		}
		if d := float64(2*len(taken)) / float64(nt+nl); d > best {
			best, bestLine, bestText = d, line, t
		}
	}
	if bestLine == 0 {
		return ""
	}
	return fmt.Sprintf("the most similar line is line %d: %s", bestLine, quote(bestText))
}

// quote quotes a line for a hint, cut to a readable length.
func quote(s string) string {
	s = strings.TrimRight(s, "\r")
	if len(s) > hintQuoteMax {
		cut := hintQuoteMax
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return "`" + s + "`"
}
