package match

import (
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"
)

// litSet is a set of strings such that every match contains (or, when it
// is exact, is) one of them. When fold is set the strings are lower-case
// ASCII and are to be found ignoring ASCII case; lossy records that a
// case-sensitive letter was folded on the way, so the set is wider than
// the regexp.
type litSet struct {
	strs  []string
	fold  bool
	lossy bool
}

// useful reports whether the set can filter anything: no empty string.
func (s litSet) useful() bool {
	if len(s.strs) == 0 {
		return false
	}
	for _, x := range s.strs {
		if x == "" {
			return false
		}
	}
	return true
}

// info is what extraction knows of a node.
type info struct {
	exact   litSet // valid when isExact: the node matches exactly one of these
	isExact bool
	// pure reports that the node has no assertion (^, $, \b, ...), so
	// that with isExact a line matches iff it contains a string of exact.
	pure bool
	req  litSet // best required set found inside; may be empty
}

const (
	maxSet    = 64 // largest exact set kept while crossing
	maxFilter = 8  // largest set used as a pre-filter
	maxStrLen = 64 // longer exact strings are not grown further
)

// literals computes the pre-filter set of re: every match of re contains
// one of the returned strings. exact reports that, moreover, a line
// matches iff it contains one of them.
func literals(re *syntax.Regexp) (set litSet, exact bool) {
	in := extract(re)
	best := in.req
	if in.isExact && in.exact.useful() {
		best = better(best, in.exact)
		if in.pure && !in.exact.lossy && len(in.exact.strs) <= maxFilter && sameSet(best, in.exact) {
			return in.exact, true
		}
	}
	if !best.useful() || len(best.strs) > maxFilter {
		return litSet{}, false
	}
	return best, false
}

func sameSet(a, b litSet) bool { return a.fold == b.fold && slices.Equal(a.strs, b.strs) }

func extract(re *syntax.Regexp) info {
	switch re.Op {
	case syntax.OpLiteral:
		return literalInfo(re)
	case syntax.OpCharClass:
		return classInfo(re)
	case syntax.OpEmptyMatch:
		return info{exact: litSet{strs: []string{""}}, isExact: true, pure: true}
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return info{exact: litSet{strs: []string{""}}, isExact: true}
	case syntax.OpCapture:
		return extract(re.Sub[0])
	case syntax.OpQuest:
		sub := extract(re.Sub[0])
		if sub.isExact && len(sub.exact.strs) < maxSet {
			e := sub.exact
			e.strs = dedup(append(slices.Clone(e.strs), ""))
			return info{exact: e, isExact: true, pure: sub.pure}
		}
		return info{}
	case syntax.OpPlus:
		sub := extract(re.Sub[0])
		return info{req: sub.best()}
	case syntax.OpRepeat:
		if re.Min == 0 {
			return info{}
		}
		sub := extract(re.Sub[0])
		return info{req: sub.best()}
	case syntax.OpConcat:
		return concatInfo(re.Sub)
	case syntax.OpAlternate:
		return alternateInfo(re.Sub)
	}
	return info{} // any char, star, no match
}

// best returns the most selective set known for the node.
func (in info) best() litSet {
	if in.isExact {
		return better(in.req, in.exact)
	}
	return in.req
}

func literalInfo(re *syntax.Regexp) info {
	if re.Flags&syntax.FoldCase == 0 {
		return info{exact: litSet{strs: []string{string(re.Rune)}}, isExact: true, pure: true}
	}
	// Case-insensitive: ASCII letters other than k and s (whose case
	// orbits hold non-ASCII runes) fold with an ASCII comparison; runes
	// with no case are kept; any other rune breaks the literal.
	var subs []*syntax.Regexp
	var cur []rune
	broken := false
	flush := func() {
		if len(cur) > 0 {
			subs = append(subs, &syntax.Regexp{Op: syntax.OpLiteral, Rune: cur, Flags: syntax.FoldCase})
			cur = nil
		}
	}
	for _, r := range re.Rune {
		switch {
		case r < utf8.RuneSelf && asciiLetter(byte(r)) && !isKS(r):
			cur = append(cur, unicode.ToLower(r))
		case r < utf8.RuneSelf && !asciiLetter(byte(r)):
			cur = append(cur, r)
		case r >= utf8.RuneSelf && unicode.SimpleFold(r) == r:
			cur = append(cur, r)
		default:
			flush()
			subs = append(subs, &syntax.Regexp{Op: syntax.OpAnyChar})
			broken = true
		}
	}
	flush()
	if !broken {
		return info{exact: litSet{strs: []string{string(subs[0].Rune)}, fold: true}, isExact: true, pure: true}
	}
	in := concatInfo(subs)
	in.isExact = false
	return in
}

func isKS(r rune) bool { return r == 'k' || r == 'K' || r == 's' || r == 'S' }

func asciiLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func classInfo(re *syntax.Regexp) info {
	n := 0
	for i := 0; i < len(re.Rune); i += 2 {
		n += int(re.Rune[i+1]-re.Rune[i]) + 1
		if n > 10 {
			return info{}
		}
	}
	if n == 0 {
		return info{}
	}
	var runes []rune
	for i := 0; i < len(re.Rune); i += 2 {
		for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
			runes = append(runes, r)
		}
	}
	// [Xx]: one ASCII letter in both cases is a folded literal.
	if len(runes) == 2 && runes[0] < utf8.RuneSelf && runes[1] < utf8.RuneSelf &&
		asciiLetter(byte(runes[0])) && runes[1] == runes[0]+('a'-'A') && !isKS(runes[0]) {
		return info{exact: litSet{strs: []string{string(runes[1])}, fold: true}, isExact: true, pure: true}
	}
	strs := make([]string, len(runes))
	for i, r := range runes {
		strs[i] = string(r)
	}
	return info{exact: litSet{strs: strs}, isExact: true, pure: true}
}

func concatInfo(subs []*syntax.Regexp) info {
	cur := litSet{strs: []string{""}}
	var req litSet
	allExact, pure := true, true
	for _, s := range subs {
		in := extract(s)
		req = better(req, in.req)
		if !in.pure {
			pure = false
		}
		if in.isExact {
			if c, ok := cross(cur, in.exact); ok {
				cur = c
				continue
			}
			// Too many: keep what we have, start again from this node.
			req = better(req, cur)
			allExact = false
			cur = in.exact
			continue
		}
		allExact = false
		req = better(req, cur)
		cur = litSet{strs: []string{""}}
	}
	if allExact {
		return info{exact: cur, isExact: true, pure: pure, req: req}
	}
	return info{req: better(req, cur)}
}

// cross returns the concatenations of a's and b's strings.
func cross(a, b litSet) (litSet, bool) {
	if len(a.strs)*len(b.strs) > maxFilter {
		return litSet{}, false
	}
	out := litSet{fold: a.fold || b.fold, lossy: a.lossy || b.lossy}
	for _, x := range a.strs {
		if len(x) > maxStrLen {
			return litSet{}, false
		}
	}
	if out.fold {
		var la, lb bool
		a, la = lowerSet(a)
		b, lb = lowerSet(b)
		out.lossy = out.lossy || la || lb
	}
	for _, x := range a.strs {
		for _, y := range b.strs {
			out.strs = append(out.strs, x+y)
		}
	}
	out.strs = dedup(out.strs)
	return out, true
}

// lowerSet folds a case-sensitive set, reporting whether that lost
// information (it held a letter).
func lowerSet(s litSet) (litSet, bool) {
	if s.fold {
		return s, false
	}
	lossy := false
	strs := make([]string, len(s.strs))
	for i, x := range s.strs {
		lossy = lossy || hasASCIILetter(x)
		strs[i] = asciiLower(x)
	}
	return litSet{strs: dedup(strs), fold: true, lossy: s.lossy}, lossy
}

func hasASCIILetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if asciiLetter(s[i]) {
			return true
		}
	}
	return false
}

func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

func alternateInfo(subs []*syntax.Regexp) info {
	var exact, req litSet
	allExact, allReq, pure := true, true, true
	for i, s := range subs {
		in := extract(s)
		if !in.pure {
			pure = false
		}
		b := in.best()
		if !b.useful() {
			allReq = false
		}
		if i == 0 {
			req = b
		} else {
			req = union(req, b)
		}
		if !in.isExact {
			allExact = false
		} else if i == 0 {
			exact = in.exact
		} else {
			exact = union(exact, in.exact)
		}
	}
	out := info{}
	if allExact && len(exact.strs) <= maxSet {
		out.exact, out.isExact, out.pure = exact, true, pure
	}
	if allReq && len(req.strs) <= maxSet {
		out.req = req
	}
	return out
}

func union(a, b litSet) litSet {
	out := litSet{fold: a.fold || b.fold, lossy: a.lossy || b.lossy}
	if out.fold {
		var la, lb bool
		a, la = lowerSet(a)
		b, lb = lowerSet(b)
		out.lossy = out.lossy || la || lb
	}
	out.strs = dedup(append(slices.Clone(a.strs), b.strs...))
	return out
}

func dedup(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// score rates a set as a pre-filter: higher is better. A useless set
// scores below any useful one.
func score(s litSet) int {
	if !s.useful() || len(s.strs) > maxFilter {
		return -1 << 30
	}
	worst := 1 << 30
	for _, x := range s.strs {
		// Length counts up to 8 bytes; the rarest byte adds up to 255.
		n := min(len(x), 8) * 64
		rarest := 255
		for i := 0; i < len(x); i++ {
			r := int(byteRank[x[i]])
			if s.fold && asciiLetter(x[i]) {
				r = max(r, int(byteRank[x[i]^0x20]))
			}
			rarest = min(rarest, r)
		}
		worst = min(worst, n+(255-rarest))
	}
	return worst - 48*(len(s.strs)-1)
}

// better returns the better of two pre-filter sets.
func better(a, b litSet) litSet {
	if score(b) > score(a) {
		return b
	}
	return a
}
