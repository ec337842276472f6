package glob

import (
	"strings"
	"unicode/utf8"
)

// matcher is one brace-free alternative matched without a regexp.
type matcher interface {
	match(path string) bool
}

// shape returns a fast matcher for seq, or nil when seq has no known shape.
func shape(seq []node) matcher {
	if len(seq) == 0 {
		return exact("")
	}
	if len(seq) == 1 && seq[0].kind == kAll {
		return all{}
	}
	if seq[0].kind == kDirs {
		// "**/" + a pattern of one component: match the base name.
		rest := seq[1:]
		if canMatchSlash(rest) {
			return nil
		}
		if m := nameShape(rest); m != nil {
			return base{m}
		}
		return nil
	}
	if last := seq[len(seq)-1]; last.kind == kBelow {
		if len(seq) == 2 && seq[0].kind == kLit {
			return below(seq[0].text + "/")
		}
		return nil
	}
	if m := nameShape(seq); m != nil {
		if canMatchSlash(seq) {
			if e, ok := m.(exact); ok {
				return e
			}
			return nil
		}
		return m
	}
	return nil
}

// nameShape handles patterns without '**': a literal, "*lit", "lit*",
// "lit*lit", or a sequence of literals, '?', '*' and classes matched
// within one component.
func nameShape(seq []node) matcher {
	for _, n := range seq {
		switch n.kind {
		case kLit, kStar, kAny, kClass, kDStarLike:
		default:
			return nil
		}
	}
	switch {
	case len(seq) == 1 && seq[0].kind == kLit:
		return exact(seq[0].text)
	case len(seq) == 1 && isStar(seq[0]):
		return star{}
	case len(seq) == 2 && isStar(seq[0]) && seq[1].kind == kLit:
		return suffix(seq[1].text)
	case len(seq) == 2 && seq[0].kind == kLit && isStar(seq[1]):
		return prefix(seq[0].text)
	case len(seq) == 3 && seq[0].kind == kLit && isStar(seq[1]) && seq[2].kind == kLit:
		return prefixSuffix{seq[0].text, seq[2].text}
	}
	if canMatchSlash(seq) {
		return nil
	}
	return wild(seq)
}

func isStar(n node) bool { return n.kind == kStar || n.kind == kDStarLike }

type all struct{}

func (all) match(string) bool { return true }

type exact string

func (e exact) match(p string) bool { return p == string(e) }

// star matches one component.
type star struct{}

func (star) match(p string) bool { return strings.IndexByte(p, '/') < 0 }

type suffix string

func (s suffix) match(p string) bool {
	return strings.HasSuffix(p, string(s)) && strings.IndexByte(p[:len(p)-len(s)], '/') < 0
}

type prefix string

func (s prefix) match(p string) bool {
	return strings.HasPrefix(p, string(s)) && strings.IndexByte(p[len(s):], '/') < 0
}

type prefixSuffix struct{ pre, suf string }

func (s prefixSuffix) match(p string) bool {
	return len(p) >= len(s.pre)+len(s.suf) && strings.HasPrefix(p, s.pre) &&
		strings.HasSuffix(p, s.suf) && strings.IndexByte(p[len(s.pre):len(p)-len(s.suf)], '/') < 0
}

// below matches every path under a directory: "dir/**".
type below string

func (b below) match(p string) bool { return len(p) > len(b) && strings.HasPrefix(p, string(b)) }

// base applies a one-component matcher to the base name.
type base struct{ m matcher }

func (b base) match(p string) bool {
	return b.m.match(p[strings.LastIndexByte(p, '/')+1:])
}

// wild matches one component against literals, '?', '*' and classes by
// backtracking to the last star, which is linear for one star and at worst
// quadratic.
type wild []node

func (w wild) match(p string) bool {
	var pi, ni int
	starN, starP := -1, 0
	for {
		if ni < len(w) {
			n := w[ni]
			switch n.kind {
			case kStar, kDStarLike:
				starN, starP = ni, pi
				ni++
				continue
			case kLit:
				if strings.HasPrefix(p[pi:], n.text) {
					pi += len(n.text)
					ni++
					continue
				}
			case kAny:
				if pi < len(p) && p[pi] != '/' {
					pi += runeLen(p[pi:])
					ni++
					continue
				}
			case kClass:
				if pi < len(p) {
					if r, size := decode(p[pi:]); r != '/' && classMatch(n, r) {
						pi += size
						ni++
						continue
					}
				}
			}
		} else if pi == len(p) {
			return true
		}
		// Mismatch: let the last star take one more character.
		if starN < 0 || starP >= len(p) || p[starP] == '/' {
			return false
		}
		starP += runeLen(p[starP:])
		pi, ni = starP, starN+1
	}
}

func classMatch(n node, r rune) bool {
	in := false
	for i := 0; i < len(n.ranks); i += 2 {
		if n.ranks[i] <= r && r <= n.ranks[i+1] {
			in = true
			break
		}
	}
	return in != n.neg
}

func decode(s string) (rune, int) { return utf8.DecodeRuneInString(s) }

func runeLen(s string) int {
	_, n := utf8.DecodeRuneInString(s)
	return n
}
