// Package glob compiles shell-style path globs to fast matchers.
//
// A pattern is matched against a whole slash-separated path (no leading
// "./", no trailing slash). The syntax is the one of ripgrep's globs and of
// doublestar:
//
//   - any sequence of characters except '/'
//     ?        any one character except '/'
//     **       as a whole path component: any number of components.
//     "**/x" matches x at any depth (also "x"), "a/**/b" matches
//     "a/b" and "a/x/y/b", "a/**" matches everything below a (not a
//     itself), and "**" alone matches every path. Elsewhere ("a**b")
//     it is the same as "*".
//     [abc]    one character of the class; ranges "a-z"; "[!...]" or
//     "[^...]" negate. A class never matches '/'.
//     {a,b}    alternatives, which may nest and contain any other syntax
//     \x       the character x literally
//
// Compile recognises the shapes that globs usually have ("*.go",
// "**/*.go", "*.{ts,tsx}", "src/**", literal names and paths) and matches
// them with string comparisons; any other pattern is translated to an
// equivalent regular expression. Matching never allocates.
package glob

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Options changes how Compile reads a pattern. The zero value is the syntax
// described in the package documentation.
type Options struct {
	// NoBraces makes '{', ',' and '}' ordinary characters, as in git's
	// ignore files.
	NoBraces bool
	// FoldCase makes the match case-insensitive.
	FoldCase bool
}

// Glob is a compiled pattern. It is safe for concurrent use.
type Glob struct {
	pattern string
	alts    []matcher // the path matches when one of them does
	re      *regexp.Regexp
	// Basename reports that the pattern cannot match a path with a '/'.
	basename bool
}

// Error reports an invalid pattern.
type Error struct {
	Pattern string
	Pos     int // byte offset in Pattern
	Msg     string
}

func (e *Error) Error() string {
	return fmt.Sprintf("invalid glob %q: %s at offset %d", e.Pattern, e.Msg, e.Pos)
}

// maxExpansions bounds brace expansion: beyond it the regular expression is
// used.
const maxExpansions = 64

// Compile parses pattern with the default syntax.
func Compile(pattern string) (*Glob, error) {
	return CompileOptions(pattern, Options{})
}

// MustCompile is like Compile but panics on an invalid pattern. It is meant
// for patterns written in the program.
func MustCompile(pattern string) *Glob {
	g, err := Compile(pattern)
	if err != nil {
		panic(err)
	}
	return g
}

// CompileOptions parses pattern with the given options.
func CompileOptions(pattern string, opts Options) (*Glob, error) {
	p := parser{src: pattern, opts: opts}
	seq, err := p.parseSeq(0)
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.src) { // only '}' or ',' can stop the top level
		return nil, &Error{pattern, p.pos, fmt.Sprintf("unmatched %q", p.src[p.pos])}
	}
	markDoubleStars(seq, true, true)
	g := &Glob{pattern: pattern}
	re, err := regexp.Compile(toRegexp(seq, opts.FoldCase))
	if err != nil { // cannot happen: toRegexp quotes everything
		return nil, &Error{pattern, 0, err.Error()}
	}
	g.re = re
	g.basename = !canMatchSlash(seq)
	if opts.FoldCase {
		return g, nil
	}
	alts, ok := expand(seq, maxExpansions)
	if !ok {
		return g, nil
	}
	for _, a := range alts {
		m := shape(a)
		if m == nil {
			return g, nil
		}
		g.alts = append(g.alts, m)
	}
	g.re = nil
	return g, nil
}

// String returns the source pattern.
func (g *Glob) String() string { return g.pattern }

// Match reports whether path, slash-separated, matches the whole pattern.
func (g *Glob) Match(path string) bool {
	if g.re != nil {
		return g.re.MatchString(path)
	}
	for _, m := range g.alts {
		if m.match(path) {
			return true
		}
	}
	return false
}

// Basename reports whether the pattern can only match paths of one
// component, so that matching a file's base name is enough.
func (g *Glob) Basename() bool { return g.basename }

// Regexp returns the regular expression equivalent to the pattern, as used
// when no fast shape applies. It is meant for tests and diagnostics.
func (g *Glob) Regexp() string {
	p := parser{src: g.pattern}
	seq, _ := p.parseSeq(0)
	markDoubleStars(seq, true, true)
	return toRegexp(seq, false)
}

// ---- parsing ----

type kind uint8

const (
	kLit       kind = iota // text
	kAny                   // ?
	kStar                  // *
	kDStar                 // ** as a component; resolved by markDoubleStars
	kClass                 // [...]
	kAlt                   // {a,b}
	kDirs                  // "**/": "" or any text ending in '/'
	kBelow                 // "/**" at the end: '/' and one or more characters
	kAll                   // "**" alone: anything
	kDStarLike             // "**" not a whole component: like *
)

type node struct {
	kind  kind
	text  string // kLit
	neg   bool   // kClass
	ranks []rune // kClass: pairs lo, hi
	alts  [][]node
}

type parser struct {
	src  string
	pos  int
	opts Options
}

// parseSeq reads nodes until the end, or ',' or '}' when depth > 0.
func (p *parser) parseSeq(depth int) ([]node, error) {
	var seq []node
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			seq = append(seq, node{kind: kLit, text: lit.String()})
			lit.Reset()
		}
	}
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '\\':
			if p.pos+1 >= len(p.src) {
				return nil, &Error{p.src, p.pos, "trailing backslash"}
			}
			r, n := utf8.DecodeRuneInString(p.src[p.pos+1:])
			if r == utf8.RuneError && n == 1 {
				return nil, &Error{p.src, p.pos + 1, "invalid UTF-8"}
			}
			lit.WriteRune(r)
			p.pos += 1 + n
		case c == '*':
			flush()
			if p.pos+1 < len(p.src) && p.src[p.pos+1] == '*' {
				p.pos += 2
				for p.pos < len(p.src) && p.src[p.pos] == '*' {
					p.pos++
				}
				seq = append(seq, node{kind: kDStar})
			} else {
				p.pos++
				seq = append(seq, node{kind: kStar})
			}
		case c == '?':
			flush()
			p.pos++
			seq = append(seq, node{kind: kAny})
		case c == '[':
			flush()
			n, err := p.parseClass()
			if err != nil {
				return nil, err
			}
			seq = append(seq, n)
		case c == '{' && !p.opts.NoBraces:
			flush()
			start := p.pos
			p.pos++
			var alts [][]node
			for {
				a, err := p.parseSeq(depth + 1)
				if err != nil {
					return nil, err
				}
				alts = append(alts, a)
				if p.pos >= len(p.src) {
					return nil, &Error{p.src, start, "unclosed '{'"}
				}
				if p.src[p.pos] == '}' {
					p.pos++
					break
				}
				p.pos++ // ','
			}
			seq = append(seq, node{kind: kAlt, alts: alts})
		case (c == ',' || c == '}') && depth > 0 && !p.opts.NoBraces:
			flush()
			return seq, nil
		case c == '}' && !p.opts.NoBraces:
			return nil, &Error{p.src, p.pos, "unmatched '}'"}
		default:
			r, n := utf8.DecodeRuneInString(p.src[p.pos:])
			if r == utf8.RuneError && n == 1 {
				return nil, &Error{p.src, p.pos, "invalid UTF-8"}
			}
			lit.WriteRune(r)
			p.pos += n
		}
	}
	flush()
	return seq, nil
}

func (p *parser) parseClass() (node, error) {
	start := p.pos
	p.pos++ // '['
	n := node{kind: kClass}
	if p.pos < len(p.src) && (p.src[p.pos] == '!' || p.src[p.pos] == '^') {
		n.neg = true
		p.pos++
	}
	first := true
	for {
		if p.pos >= len(p.src) {
			return n, &Error{p.src, start, "unclosed '['"}
		}
		c := p.src[p.pos]
		if c == ']' && !first {
			p.pos++
			break
		}
		first = false
		lo, err := p.classChar()
		if err != nil {
			return n, err
		}
		hi := lo
		if p.pos+1 < len(p.src) && p.src[p.pos] == '-' && p.src[p.pos+1] != ']' {
			p.pos++
			hi, err = p.classChar()
			if err != nil {
				return n, err
			}
			if hi < lo {
				return n, &Error{p.src, start, fmt.Sprintf("invalid range %q-%q in class", lo, hi)}
			}
		}
		n.ranks = append(n.ranks, lo, hi)
	}
	return n, nil
}

func (p *parser) classChar() (rune, error) {
	if p.src[p.pos] == '\\' {
		p.pos++
		if p.pos >= len(p.src) {
			return 0, &Error{p.src, p.pos - 1, "trailing backslash"}
		}
	}
	r, n := utf8.DecodeRuneInString(p.src[p.pos:])
	if r == utf8.RuneError && n == 1 {
		return 0, &Error{p.src, p.pos, "invalid UTF-8"}
	}
	p.pos += n
	return r, nil
}

// markDoubleStars resolves each "**": when it is a whole path component it
// becomes kDirs ("**/", with the slash removed from the following literal),
// kBelow ("/**" at the end, the slash removed from the preceding literal) or
// kAll; otherwise kDStarLike. atStart and atEnd tell whether seq begins at
// a component boundary and ends the pattern.
func markDoubleStars(seq []node, atStart, atEnd bool) {
	for i := range seq {
		n := &seq[i]
		switch n.kind {
		case kAlt:
			for _, a := range n.alts {
				markDoubleStars(a, boundaryBefore(seq, i, atStart), atEnd && i == len(seq)-1)
			}
		case kDStar:
			before := boundaryBefore(seq, i, atStart)
			last := i == len(seq)-1
			after := last || (seq[i+1].kind == kLit && seq[i+1].text[0] == '/')
			switch {
			case !before || !after || (last && !atEnd):
				n.kind = kDStarLike
			case last && i == 0 && atStart:
				n.kind = kAll
			case last:
				if i == 0 || seq[i-1].kind != kLit { // "{**}" after a '/', or "**/**"
					n.kind = kAll
					break
				}
				n.kind = kBelow
				p := &seq[i-1]
				p.text = p.text[:len(p.text)-1]
			default:
				n.kind = kDirs
				s := &seq[i+1]
				s.text = s.text[1:]
			}
		}
	}
	// Remove literals emptied by the slash moves.
	j := 0
	for _, n := range seq {
		if n.kind == kLit && n.text == "" {
			continue
		}
		seq[j] = n
		j++
	}
	for k := j; k < len(seq); k++ {
		seq[k] = node{kind: kLit}
	}
}

func boundaryBefore(seq []node, i int, atStart bool) bool {
	if i == 0 {
		return atStart
	}
	p := seq[i-1]
	return p.kind == kLit && strings.HasSuffix(p.text, "/") || p.kind == kDirs
}

// canMatchSlash reports whether some path matched by seq contains '/'.
func canMatchSlash(seq []node) bool {
	for _, n := range seq {
		switch n.kind {
		case kLit:
			if strings.Contains(n.text, "/") {
				return true
			}
		case kDirs, kBelow, kAll:
			return true
		case kAlt:
			for _, a := range n.alts {
				if canMatchSlash(a) {
					return true
				}
			}
		}
	}
	return false
}

// toRegexp translates seq to an anchored regular expression.
func toRegexp(seq []node, fold bool) string {
	var b strings.Builder
	b.WriteString(`(?s`)
	if fold {
		b.WriteString(`i`)
	}
	b.WriteString(`)^`)
	writeRegexp(&b, seq)
	b.WriteString(`$`)
	return b.String()
}

func writeRegexp(b *strings.Builder, seq []node) {
	for _, n := range seq {
		switch n.kind {
		case kLit:
			b.WriteString(regexp.QuoteMeta(n.text))
		case kAny:
			b.WriteString(`[^/]`)
		case kStar, kDStarLike, kDStar:
			b.WriteString(`[^/]*`)
		case kDirs:
			b.WriteString(`(?:.*/)?`)
		case kBelow:
			b.WriteString(`/.+`)
		case kAll:
			b.WriteString(`.*`)
		case kClass:
			b.WriteString(`[`)
			if n.neg {
				b.WriteString(`^/`)
			}
			for i := 0; i < len(n.ranks); i += 2 {
				lo, hi := n.ranks[i], n.ranks[i+1]
				if !n.neg && lo <= '/' && '/' <= hi { // a class never matches '/'
					if lo < '/' {
						writeClassRange(b, lo, '/'-1)
					}
					if hi > '/' {
						writeClassRange(b, '/'+1, hi)
					}
					continue
				}
				writeClassRange(b, lo, hi)
			}
			if !n.neg && len(n.ranks) == 2 && n.ranks[0] == '/' && n.ranks[1] == '/' {
				b.WriteString(`^\x00-\x{10FFFF}`) // empty: matches nothing
			}
			b.WriteString(`]`)
		case kAlt:
			b.WriteString(`(?:`)
			for i, a := range n.alts {
				if i > 0 {
					b.WriteString(`|`)
				}
				writeRegexp(b, a)
			}
			b.WriteString(`)`)
		}
	}
}

func writeClassRange(b *strings.Builder, lo, hi rune) {
	fmt.Fprintf(b, `\x{%x}`, lo)
	if hi != lo {
		fmt.Fprintf(b, `-\x{%x}`, hi)
	}
}

// expand returns the brace-free alternatives of seq, or false when there
// would be more than limit of them.
func expand(seq []node, limit int) ([][]node, bool) {
	out := [][]node{nil}
	for _, n := range seq {
		if n.kind != kAlt {
			for i := range out {
				out[i] = append(out[i], n)
			}
			continue
		}
		var next [][]node
		for _, a := range n.alts {
			sub, ok := expand(a, limit)
			if !ok {
				return nil, false
			}
			for _, prefix := range out {
				for _, s := range sub {
					if len(next) >= limit {
						return nil, false
					}
					c := make([]node, 0, len(prefix)+len(s))
					c = append(c, prefix...)
					c = append(c, s...)
					next = append(next, c)
				}
			}
		}
		out = next
	}
	for i := range out {
		out[i] = mergeLits(out[i])
	}
	return out, true
}

func mergeLits(seq []node) []node {
	var r []node
	for _, n := range seq {
		if n.kind == kLit && len(r) > 0 && r[len(r)-1].kind == kLit {
			r[len(r)-1].text += n.text
			continue
		}
		if n.kind == kLit && n.text == "" {
			continue
		}
		r = append(r, n)
	}
	return r
}
