// Package match compiles a grep pattern (RE2 syntax, as Go's regexp) into
// a Matcher that finds matching lines in a buffer quickly.
//
// Lines are separated by '\n'; a '\r' before it is part of the line, as in
// ripgrep without --crlf. In the default line mode a match never spans
// lines: '.', negated classes and \s do not match '\n', and a literal '\n'
// in the pattern is an error. "^" and "$" match at line boundaries. In
// multiline mode '.' matches '\n' too and a match may span lines.
//
// Speed comes from a pre-filter: Compile extracts from the parse tree a set
// of literals one of which every match must contain ("Reader" in
// `func \w+Reader`, "foo"/"bar" in `foo|bar`); matching scans the buffer for
// the rarest byte of those literals (a SIMD-backed bytes.IndexByte),
// verifies the literal, and runs the regexp only on the line around it.
// When the pattern is itself a set of plain literals, the regexp never
// runs. Matching allocates nothing, except FindAll in multiline mode and
// one small slice per match for patterns without a literal.
package match

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
)

// Options changes how Compile reads a pattern. The zero value is
// case-sensitive line mode.
type Options struct {
	// IgnoreCase matches without regard to case (Unicode simple folding,
	// as (?i)).
	IgnoreCase bool
	// Multiline lets '.' match '\n' and matches span lines (ripgrep's
	// -U --multiline-dotall).
	Multiline bool
}

// Matcher is a compiled pattern. It is safe for concurrent use.
type Matcher struct {
	pattern   string
	opts      Options
	re        *regexp.Regexp
	needles   []needle
	lits      []lit
	exact     bool // a line matches iff it contains one of lits
	multiline bool
	pair      *pair // for a single literal of 2 bytes or more
	window    int   // for patterns without literals: bytes per regexp call
	dfa       *dfa  // line mode: decides whether a line matches
}

// pair is the two rarest bytes of a single literal, at offsets o1 < o2,
// searched together with indexPair (both cases of a folded letter).
type pair struct {
	o1, d          int
	a1, a2, c1, c2 byte
}

// lit is one literal of the pre-filter set.
type lit struct {
	s    []byte // lower-case when fold
	fold bool
}

// needle is the rare byte of a literal at a fixed offset. A folded letter
// gives two needles, one per case.
type needle struct {
	b   byte
	off int
	lit int // index in lits
}

const maxNeedles = 2 * maxFilter

// Error is returned by Compile for an invalid pattern.
type Error struct {
	Pattern string
	Err     error
}

func (e *Error) Error() string {
	return fmt.Sprintf("invalid regular expression %q: %v", e.Pattern, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// ErrNewline is wrapped by Compile's error for a pattern that has a literal
// newline outside multiline mode.
var ErrNewline = errors.New(`the pattern contains a literal newline ("\n"), which can only match in multiline mode`)

// Compile parses pattern in RE2 syntax (Perl classes like \d \w \s, (?i)
// and other flags, non-greedy operators).
func Compile(pattern string, opts Options) (*Matcher, error) {
	flags := syntax.Perl &^ syntax.OneLine
	if opts.IgnoreCase {
		flags |= syntax.FoldCase
	}
	if opts.Multiline {
		flags |= syntax.DotNL
	}
	tree, err := syntax.Parse(pattern, flags)
	if err != nil {
		return nil, &Error{pattern, err}
	}
	// In multiline mode a pattern that cannot match '\n' is matched line
	// by line, as ripgrep does.
	multiline := opts.Multiline && canMatchNewline(tree)
	if !multiline {
		if tree, err = noNewline(tree); err != nil {
			return nil, &Error{pattern, err}
		}
	}
	re, err := regexp.Compile(tree.String())
	if err != nil {
		return nil, &Error{pattern, err}
	}
	m := &Matcher{pattern: pattern, opts: opts, re: re, multiline: multiline}
	if !multiline {
		// The program the regexp runs, built as regexp.Compile builds it.
		if t, err := syntax.Parse(re.String(), syntax.Perl); err == nil {
			if prog, err := syntax.Compile(t.Simplify()); err == nil {
				m.dfa = newDFA(prog)
			}
		}
	}
	// Go's regexp runs a backtracker, faster than its NFA, on inputs
	// shorter than 256 Kib divided by the program size: without a
	// literal, lines are matched in windows of that size.
	m.window = 4096
	if prog, err := syntax.Compile(tree.Simplify()); err == nil && len(prog.Inst) > 0 {
		m.window = max(256, 250_000/len(prog.Inst))
	}
	set, exact := literals(tree)
	if set.useful() {
		m.exact = exact && !multiline
		for i, s := range set.strs {
			m.lits = append(m.lits, lit{s: []byte(s), fold: set.fold})
			m.needles = append(m.needles, rareNeedles(s, set.fold, i)...)
		}
		if len(set.strs) == 1 && len(set.strs[0]) >= 2 {
			m.pair = rarePair(set.strs[0], set.fold)
		}
	}
	return m, nil
}

// MustCompile is like Compile but panics on error.
func MustCompile(pattern string, opts Options) *Matcher {
	m, err := Compile(pattern, opts)
	if err != nil {
		panic(err)
	}
	return m
}

// rareNeedles picks the rarest byte of s.
func rareNeedles(s string, fold bool, idx int) []needle {
	best, bestRank := 0, 1<<10
	for i := 0; i < len(s); i++ {
		r := int(byteRank[s[i]])
		if fold && asciiLetter(s[i]) {
			r = max(r, int(byteRank[s[i]^0x20])) + 8 // two scans
		}
		if r < bestRank {
			best, bestRank = i, r
		}
	}
	c := s[best]
	if fold && asciiLetter(c) {
		return []needle{{b: c &^ 0x20, off: best, lit: idx}, {b: c | 0x20, off: best, lit: idx}}
	}
	return []needle{{b: c, off: best, lit: idx}}
}

// rarePair picks the two rarest bytes of s.
func rarePair(s string, fold bool) *pair {
	rank := func(i int) int {
		r := int(byteRank[s[i]])
		if fold && asciiLetter(s[i]) {
			r = max(r, int(byteRank[s[i]^0x20]))
		}
		return r
	}
	i1, i2 := -1, -1
	for i := 0; i < len(s); i++ {
		switch {
		case i1 < 0 || rank(i) < rank(i1):
			i1, i2 = i, i1
		case i2 < 0 || rank(i) < rank(i2):
			i2 = i
		}
	}
	if i2 < i1 {
		i1, i2 = i2, i1
	}
	cases := func(c byte) (byte, byte) {
		if fold && asciiLetter(c) {
			return c | 0x20, c &^ 0x20
		}
		return c, c
	}
	p := &pair{o1: i1, d: i2 - i1}
	p.a1, p.a2 = cases(s[i1])
	p.c1, p.c2 = cases(s[i2])
	return p
}

// noNewline removes '\n' from every class of re so that no match spans
// lines, as ripgrep does.
func noNewline(re *syntax.Regexp) (*syntax.Regexp, error) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r == '\n' {
				return nil, ErrNewline
			}
		}
	case syntax.OpAnyChar:
		re.Op = syntax.OpAnyCharNotNL
	case syntax.OpCharClass:
		var out []rune
		for i := 0; i < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if lo <= '\n' && '\n' <= hi {
				if lo < '\n' {
					out = append(out, lo, '\n'-1)
				}
				if hi > '\n' {
					out = append(out, '\n'+1, hi)
				}
				continue
			}
			out = append(out, lo, hi)
		}
		if len(out) == 0 {
			return &syntax.Regexp{Op: syntax.OpNoMatch}, nil
		}
		re.Rune = out
	}
	for i, s := range re.Sub {
		n, err := noNewline(s)
		if err != nil {
			return nil, err
		}
		re.Sub[i] = n
	}
	return re, nil
}

// canMatchNewline reports whether re has a node that can match '\n'.
func canMatchNewline(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpAnyChar:
		return true
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r == '\n' {
				return true
			}
		}
	case syntax.OpCharClass:
		for i := 0; i < len(re.Rune); i += 2 {
			if re.Rune[i] <= '\n' && '\n' <= re.Rune[i+1] {
				return true
			}
		}
	}
	for _, s := range re.Sub {
		if canMatchNewline(s) {
			return true
		}
	}
	return false
}

// Multiline reports whether matches may span lines, so that buffers must
// be matched whole with FindAll rather than line by line: the Multiline
// option was set and the pattern can match '\n'.
func (m *Matcher) Multiline() bool { return m.multiline }

// String returns the pattern.
func (m *Matcher) String() string { return m.pattern }

// Options returns the options the Matcher was compiled with.
func (m *Matcher) Options() Options { return m.opts }

// Literals returns the pre-filter literals (lower-case when fold), and
// whether they decide a line alone (exact). It is meant for tests and
// diagnostics.
func (m *Matcher) Literals() (lits []string, fold, exact bool) {
	for _, l := range m.lits {
		lits = append(lits, string(l.s))
		fold = l.fold
	}
	return lits, fold, m.exact
}

// Regexp returns the regexp run on candidate lines (with '\n' removed
// from its classes in line mode).
func (m *Matcher) Regexp() *regexp.Regexp { return m.re }

// MatchLine reports whether line, without its terminator, matches.
func (m *Matcher) MatchLine(line []byte) bool {
	if len(m.needles) > 0 {
		l := m.Lines(line)
		if l.candidate() < 0 {
			return false
		}
		if m.exact {
			return true
		}
	}
	return m.matchLine(line)
}

// matchLine reports whether line (without its '\n') matches the regexp,
// with the DFA while it has not given up.
func (m *Matcher) matchLine(line []byte) bool {
	if m.dfa != nil && !m.dfa.failed.Load() {
		if matched, ok := m.dfa.match(line); ok {
			return matched
		}
	}
	return m.re.Match(line)
}

// MayMatch reports whether buf contains one of the literals every match
// must contain; false means no match anywhere in buf.
func (m *Matcher) MayMatch(buf []byte) bool {
	if len(m.needles) == 0 {
		return true
	}
	l := m.Lines(buf)
	return l.candidate() >= 0
}

// FindAll returns the matches in buf, as pairs of offsets, in multiline
// or line mode. It allocates the result.
func (m *Matcher) FindAll(buf []byte) [][]int {
	if !m.MayMatch(buf) {
		return nil
	}
	return m.re.FindAllIndex(buf, -1)
}

// Lines returns an iterator over the matching lines of buf in line mode.
// It keeps the pre-filter's scan positions between calls of Next, so that
// listing all matching lines costs one pass over buf.
func (m *Matcher) Lines(buf []byte) Lines {
	l := Lines{m: m, buf: buf}
	for i := range l.next {
		l.next[i] = -1
	}
	return l
}

// NextLine is a shortcut for one call of Lines(buf[from:]).Next, with
// offsets relative to buf; from must be 0 or follow a '\n'.
func (m *Matcher) NextLine(buf []byte, from int) (start, end int, ok bool) {
	l := m.Lines(buf[from:])
	s, e, ok := l.Next()
	return s + from, e + from, ok
}

// Lines iterates over the matching lines of a buffer. The zero value is
// not usable; see Matcher.Lines.
type Lines struct {
	m    *Matcher
	buf  []byte
	pos  int             // where the next line starts
	next [maxNeedles]int // next position of each needle's byte, or -1
	_    [0]func()       // not comparable
}

// Pos returns the offset where the next search starts.
func (l *Lines) Pos() int { return l.pos }

// Seek moves the search to off, which must be 0 or follow a '\n'.
func (l *Lines) Seek(off int) { l.pos = off }

// Next returns the bounds of the next matching line: buf[start:end], end
// excluding the '\n'. A final line without '\n' counts as a line.
func (l *Lines) Next() (start, end int, ok bool) {
	m, buf := l.m, l.buf
	for l.pos < len(buf) {
		if len(m.needles) == 0 && m.dfa != nil && !m.dfa.failed.Load() {
			if at, ok := m.dfa.next(buf, l.pos); ok {
				if at < 0 {
					l.pos = len(buf)
					return 0, 0, false
				}
				start, end = lineAround(buf, l.pos, at)
				l.pos = end + 1
				return start, end, true
			}
		}
		if len(m.needles) == 0 {
			// A window of whole lines, at least one.
			end := len(buf)
			if end-l.pos > m.window {
				end = l.pos + m.window
				if i := bytes.LastIndexByte(buf[l.pos:end], '\n'); i >= 0 {
					end = l.pos + i
				} else if i := bytes.IndexByte(buf[end:], '\n'); i >= 0 {
					end += i
				} else {
					end = len(buf)
				}
			}
			loc := m.re.FindIndex(buf[l.pos:end])
			if loc == nil || l.pos+loc[0] == len(buf) && buf[len(buf)-1] == '\n' {
				l.pos = end + 1
				continue
			}
			start, end = lineAround(buf, l.pos, l.pos+loc[0])
			l.pos = end + 1
			return start, end, true
		}
		c := l.candidate()
		if c < 0 {
			l.pos = len(buf)
			return 0, 0, false
		}
		start, end = lineAround(buf, l.pos, c)
		l.pos = end + 1
		if m.exact || m.matchLine(buf[start:end]) {
			return start, end, true
		}
	}
	return 0, 0, false
}

// lineAround returns the bounds of the line holding offset i, not starting
// before from.
func lineAround(buf []byte, from, i int) (start, end int) {
	start = bytes.LastIndexByte(buf[from:i], '\n') + 1 + from
	end = bytes.IndexByte(buf[i:], '\n')
	if end < 0 {
		end = len(buf)
	} else {
		end += i
	}
	return start, end
}

// candidate returns the offset of the first occurrence at or after l.pos
// of a pre-filter literal, or -1.
func (l *Lines) candidate() int {
	m, buf := l.m, l.buf
	if m.pair != nil {
		return l.candidatePair()
	}
	if len(m.needles) == 1 && !m.lits[0].fold {
		return l.candidate1()
	}
	for {
		best, bk := len(buf), -1
		for k := range m.needles {
			nd := &m.needles[k]
			min := l.pos + nd.off
			if l.next[k] < min {
				l.next[k] = scan(buf, min, nd.b)
			}
			if c := l.next[k] - nd.off; c < best {
				best, bk = c, k
			}
		}
		if bk < 0 {
			return -1
		}
		lt := &m.lits[m.needles[bk].lit]
		if best+len(lt.s) <= len(buf) && lt.equal(buf[best:best+len(lt.s)]) {
			return best
		}
		l.next[bk] = scan(buf, l.next[bk]+1, m.needles[bk].b)
	}
}

// candidatePair is candidate for a single literal of two bytes or more.
func (l *Lines) candidatePair() int {
	pr, lt, buf := l.m.pair, &l.m.lits[0], l.buf
	n := len(lt.s)
	for start := l.pos; ; {
		from := start + pr.o1
		if from >= len(buf) {
			return -1
		}
		x := indexPair(buf[from:], pr.a1, pr.a2, pr.c1, pr.c2, pr.d)
		if x < 0 {
			return -1
		}
		p := start + x
		if p+n <= len(buf) && lt.equal(buf[p:p+n]) {
			return p
		}
		start = p + 1
	}
}

// candidate1 is candidate for a single needle: the common case of one
// case-sensitive literal, kept tight because a common rare byte (as in
// "func main") gives many candidates.
func (l *Lines) candidate1() int {
	nd := &l.m.needles[0]
	lt := l.m.lits[0].s
	buf, b, off, n := l.buf, nd.b, nd.off, len(l.m.lits[0].s)
	i := l.pos + off
	for i < len(buf) {
		j := bytes.IndexByte(buf[i:], b)
		if j < 0 {
			break
		}
		i += j
		p := i - off
		if p+n <= len(buf) && buf[p] == lt[0] && string(buf[p:p+n]) == string(lt) {
			return p
		}
		i++
	}
	return -1
}

// scan returns the offset of the first b in buf at or after from, or
// len(buf) plus a large margin (so that subtracting an offset stays past
// the end).
func scan(buf []byte, from int, b byte) int {
	if from >= len(buf) {
		return len(buf) + 1<<20
	}
	i := bytes.IndexByte(buf[from:], b)
	if i < 0 {
		return len(buf) + 1<<20
	}
	return from + i
}

func (lt *lit) equal(h []byte) bool {
	if !lt.fold {
		return bytes.Equal(h, lt.s)
	}
	for i, c := range lt.s {
		if lower[h[i]] != c {
			return false
		}
	}
	return true
}

var lower = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] = byte(i) + 'a' - 'A'
		}
	}
	return t
}()
