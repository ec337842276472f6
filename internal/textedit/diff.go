package textedit

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Diff returns a unified diff from a to b, with `--- a/path` and
// `+++ b/path` headers (an absolute path gives `a/abs/path`, not `a//abs`), @@ hunks and context lines of context around each
// change (hunks closer than 2×context lines are merged). A last line without
// a newline is marked with `\ No newline at end of file`. Diff returns "" when
// a == b.
//
// Common leading and trailing lines are skipped with a byte comparison before
// any line is split, so the cost of diffing two large texts that differ in a
// few lines is one pass over them. The changed region is diffed with
// patience anchors (lines unique on both sides) and, between anchors, Myers'
// linear-space algorithm; a region whose edit distance passes a few
// thousand lines is shown as removed and added rather than diffed further.
func Diff(path string, a, b string, context int) string {
	return diffRope(path, a, rope{b}, context)
}

// DiffParts is Diff from a to the concatenation of parts (as ApplyParts
// gives them), without building that text: only the changed lines and
// their context are joined.
func DiffParts(path string, a string, parts []string, context int) string {
	return diffRope(path, a, rope(parts), context)
}

func diffRope(path string, a string, b rope, context int) string {
	if b.len() == len(a) && b.prefixWith(a) == len(a) {
		return ""
	}
	var sb strings.Builder
	writeHeader(&sb, path)
	writeHunks(&sb, a, b, max(context, 0), 0, 0)
	return sb.String()
}

// writeHeader writes the --- and +++ lines of a diff of path.
func writeHeader(sb *strings.Builder, path string) {
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	sb.WriteString("--- a" + path + "\n+++ b" + path + "\n")
}

// writeHunks writes the hunks from a to b, which differ, numbering their
// lines from lineA and lineB (the lines before a and b in the files they
// are part of).
func writeHunks(sb *strings.Builder, a string, b rope, context, lineA, lineB int) {
	pre := lineStart(a, b.prefixWith(a))
	aSuf, bSuf := b.suffixLines(a, pre)

	ctxStart := pre
	for k := 0; k < context && ctxStart > 0; k++ {
		ctxStart = lineStart(a, ctxStart-1)
	}
	ctxEnd := aSuf
	for k := 0; k < context && ctxEnd < len(a); k++ {
		if j := strings.IndexByte(a[ctxEnd:], '\n'); j >= 0 {
			ctxEnd += j + 1
		} else {
			ctxEnd = len(a)
		}
	}
	al := splitLines(a[ctxStart:ctxEnd])
	bl := splitLines(b.slice(ctxStart, bSuf+ctxEnd-aSuf))
	first := strings.Count(a[:ctxStart], "\n")
	for _, h := range hunks(lineOps(al, bl), context) {
		fmt.Fprintf(sb, "@@ -%s +%s @@\n", hunkRange(lineA+first+h.a0, h.a1-h.a0), hunkRange(lineB+first+h.b0, h.b1-h.b0))
		for _, o := range h.ops {
			switch o.kind {
			case opEqual:
				writeLines(sb, ' ', al[o.a:o.a+o.n])
			case opDelete:
				writeLines(sb, '-', al[o.a:o.a+o.n])
			case opInsert:
				writeLines(sb, '+', bl[o.b:o.b+o.n])
			}
		}
	}
}

func writeLines(sb *strings.Builder, mark byte, lines []string) {
	for _, l := range lines {
		sb.WriteByte(mark)
		sb.WriteString(l)
		if !strings.HasSuffix(l, "\n") {
			sb.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// hunkRange formats the line range of a hunk side: start is the 0-based
// index of its first line.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return strconv.Itoa(start) + ",0"
	case 1:
		return strconv.Itoa(start + 1)
	}
	return strconv.Itoa(start+1) + "," + strconv.Itoa(n)
}

// summaryLineMax is the longest line Summarize keeps, in bytes.
const summaryLineMax = 500

// Summarize shortens a diff for display: it keeps the first maxLines lines
// and replaces the rest with a line "… N more lines", and cuts any line longer
// than 500 bytes, noting how many characters were cut. maxLines <= 0 keeps
// every line.
func Summarize(diff string, maxLines int) string {
	total := strings.Count(diff, "\n")
	if diff != "" && !strings.HasSuffix(diff, "\n") {
		total++
	}
	var sb strings.Builder
	rest := diff
	for n := 0; rest != ""; n++ {
		if maxLines > 0 && n == maxLines {
			fmt.Fprintf(&sb, "… %d more lines\n", total-n)
			break
		}
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		if len(line) > summaryLineMax {
			cut := summaryLineMax
			for cut > 0 && !utf8.RuneStart(line[cut]) {
				cut--
			}
			fmt.Fprintf(&sb, "%s… (%d more characters)\n", line[:cut], utf8.RuneCountInString(line[cut:]))
			continue
		}
		sb.WriteString(line)
		sb.WriteByte('\n')
	}
	return sb.String()
}

// commonPrefix returns the length in bytes of the longest common prefix of a
// and b.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	const chunk = 4096
	for i+chunk <= n && a[i:i+chunk] == b[i:i+chunk] {
		i += chunk
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix returns the length in bytes of the longest common suffix of a
// and b.
func commonSuffix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	const chunk = 4096
	for i+chunk <= n && a[len(a)-i-chunk:len(a)-i] == b[len(b)-i-chunk:len(b)-i] {
		i += chunk
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}

// lineStart returns the offset of the start of the line holding offset p.
func lineStart(s string, p int) int {
	return strings.LastIndexByte(s[:p], '\n') + 1
}

// suffixLines returns where the whole lines common to the ends of a and b
// start, in a and in b, not before offset pre (a line start in both).
func suffixLines(a, b string, pre int) (aSuf, bSuf int) {
	return rope{b}.suffixLines(a, pre)
}

// rope is a text as the concatenation of its parts.
type rope []string

func (r rope) len() int {
	n := 0
	for _, p := range r {
		n += len(p)
	}
	return n
}

// prefixWith returns the length of the longest common prefix of r and a.
func (r rope) prefixWith(a string) int {
	off := 0
	for _, p := range r {
		n := commonPrefix(a[off:], p)
		off += n
		if n < len(p) {
			break
		}
	}
	return off
}

// suffixWith returns the length of the longest common suffix of r[from:]
// and a[from:].
func (r rope) suffixWith(a string, from int) int {
	n, rlen := 0, r.len()
	limit := min(len(a), rlen) - from
	for i := len(r) - 1; i >= 0 && n < limit; i-- {
		p := r[i]
		if len(p) > limit-n {
			p = p[len(p)-(limit-n):]
		}
		k := commonSuffix(a[:len(a)-n], p)
		n += k
		if k < len(p) {
			break
		}
	}
	return n
}

// at returns the byte at offset i.
func (r rope) at(i int) byte {
	for _, p := range r {
		if i < len(p) {
			return p[i]
		}
		i -= len(p)
	}
	panic("textedit: rope offset out of range")
}

// slice returns r[i:j] as one string.
func (r rope) slice(i, j int) string {
	var sb strings.Builder
	sb.Grow(j - i)
	off := 0
	for _, p := range r {
		if off >= j {
			break
		}
		lo, hi := max(i-off, 0), min(j-off, len(p))
		if lo < hi {
			sb.WriteString(p[lo:hi])
		}
		off += len(p)
	}
	return sb.String()
}

// suffixLines is suffixLines(a, b, pre) for the rope b.
func (r rope) suffixLines(a string, pre int) (aSuf, bSuf int) {
	s := r.suffixWith(a, pre)
	aSuf, bSuf = len(a)-s, r.len()-s
	if (aSuf == pre || a[aSuf-1] == '\n') && (bSuf == pre || r.at(bSuf-1) == '\n') {
		return aSuf, bSuf
	}
	j := strings.IndexByte(a[aSuf:], '\n')
	if j < 0 {
		return len(a), r.len()
	}
	return aSuf + j + 1, bSuf + j + 1
}

// splitLines splits s after each LF; a last line without LF is kept.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := make([]string, 0, strings.Count(s, "\n")+1)
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

type opKind int

const (
	opEqual opKind = iota
	opDelete
	opInsert
)

// op is a run of n lines: equal lines a[a:a+n] == b[b:b+n], lines a[a:a+n]
// deleted, or lines b[b:b+n] inserted.
type op struct {
	kind opKind
	a, b int
	n    int
}

// lineOps returns the edit script from a to b: runs of equal, deleted and
// inserted lines, deletions before insertions.
func lineOps(a, b []string) []op {
	ids := make(map[string]int32, len(a)+len(b))
	intern := func(lines []string) []int32 {
		out := make([]int32, len(lines))
		for i, l := range lines {
			id, ok := ids[l]
			if !ok {
				id = int32(len(ids))
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	d := &differ{a: intern(a), b: intern(b)}
	d.patience(0, len(a), 0, len(b))

	var ops []op
	add := func(k opKind, i, j, n int) {
		if n == 0 {
			return
		}
		if l := len(ops) - 1; l >= 0 && ops[l].kind == k &&
			(k == opInsert || ops[l].a+ops[l].n == i) && (k == opDelete || ops[l].b+ops[l].n == j) {
			ops[l].n += n
			return
		}
		ops = append(ops, op{kind: k, a: i, b: j, n: n})
	}
	i, j := 0, 0
	for _, p := range d.out {
		add(opDelete, i, j, p.a-i)
		add(opInsert, p.a, j, p.b-j)
		add(opEqual, p.a, p.b, 1)
		i, j = p.a+1, p.b+1
	}
	add(opDelete, i, j, len(a)-i)
	add(opInsert, len(a), j, len(b)-j)
	return ops
}

// hunk is a group of ops shown together, covering lines a[a0:a1] and b[b0:b1].
type hunk struct {
	a0, a1, b0, b1 int
	ops            []op
}

// hunks groups ops into hunks with context lines of context.
func hunks(ops []op, context int) []hunk {
	var out []hunk
	var cur *hunk
	for idx, o := range ops {
		if o.kind != opEqual {
			if cur == nil {
				out = append(out, hunk{a0: o.a, b0: o.b})
				cur = &out[len(out)-1]
			}
			cur.ops = append(cur.ops, o)
			continue
		}
		last := idx == len(ops)-1
		switch {
		case cur == nil: // leading context
			n := min(o.n, context)
			if last {
				continue
			}
			s := op{kind: opEqual, a: o.a + o.n - n, b: o.b + o.n - n, n: n}
			out = append(out, hunk{a0: s.a, b0: s.b})
			cur = &out[len(out)-1]
			if n > 0 {
				cur.ops = append(cur.ops, s)
			}
		case last || o.n > 2*context: // trailing context, maybe a new hunk
			n := min(o.n, context)
			if n > 0 {
				cur.ops = append(cur.ops, op{kind: opEqual, a: o.a, b: o.b, n: n})
			}
			cur = nil
			if !last {
				s := op{kind: opEqual, a: o.a + o.n - context, b: o.b + o.n - context, n: context}
				out = append(out, hunk{a0: s.a, b0: s.b})
				cur = &out[len(out)-1]
				if context > 0 {
					cur.ops = append(cur.ops, s)
				}
			}
		default:
			cur.ops = append(cur.ops, o)
		}
	}
	for i := range out {
		h := &out[i]
		h.a1, h.b1 = h.a0, h.b0
		for _, o := range h.ops {
			switch o.kind {
			case opEqual:
				h.a1, h.b1 = o.a+o.n, o.b+o.n
			case opDelete:
				h.a1 = o.a + o.n
			case opInsert:
				h.b1 = o.b + o.n
			}
		}
	}
	return out
}

// pair is a matched pair of lines: a[a] == b[b].
type pair struct{ a, b int }

// differ finds a common subsequence of two line lists, as interned ids.
type differ struct {
	a, b []int32
	out  []pair // matched pairs, increasing in a and b
}

// myersLimit bounds the edit distance Myers' algorithm explores for one
// region; past it the region counts as all deleted and all inserted.
const myersLimit = 4096

// patience matches a[a0:a1] against b[b0:b1]: common ends first, then lines
// that occur once on each side as anchors (their longest increasing
// sequence), recursing between anchors; Myers where there are none.
func (d *differ) patience(a0, a1, b0, b1 int) {
	d.matchEnds(a0, a1, b0, b1, func(a0, a1, b0, b1 int) {
		anchors := d.anchors(a0, a1, b0, b1)
		if len(anchors) == 0 {
			d.myers(a0, a1, b0, b1)
			return
		}
		for _, p := range anchors {
			d.patience(a0, p.a, b0, p.b)
			d.out = append(d.out, p)
			a0, b0 = p.a+1, p.b+1
		}
		d.patience(a0, a1, b0, b1)
	})
}

// matchEnds pairs the lines a[a0:a1] and b[b0:b1] have in common at their
// start and end, and calls middle on what lies between when both sides have
// lines left, keeping the pairs in order.
func (d *differ) matchEnds(a0, a1, b0, b1 int, middle func(a0, a1, b0, b1 int)) {
	for a0 < a1 && b0 < b1 && d.a[a0] == d.b[b0] {
		d.out = append(d.out, pair{a0, b0})
		a0, b0 = a0+1, b0+1
	}
	n := 0
	for a1 > a0 && b1 > b0 && d.a[a1-1] == d.b[b1-1] {
		a1, b1, n = a1-1, b1-1, n+1
	}
	if a0 < a1 && b0 < b1 {
		middle(a0, a1, b0, b1)
	}
	for k := range n {
		d.out = append(d.out, pair{a1 + k, b1 + k})
	}
}

// anchors returns the longest increasing sequence of pairs of lines that
// occur exactly once in a[a0:a1] and once in b[b0:b1].
func (d *differ) anchors(a0, a1, b0, b1 int) []pair {
	type seen struct{ na, nb, ia, ib int }
	m := make(map[int32]*seen)
	for i := a0; i < a1; i++ {
		s := m[d.a[i]]
		if s == nil {
			s = &seen{}
			m[d.a[i]] = s
		}
		s.na++
		s.ia = i
	}
	for j := b0; j < b1; j++ {
		if s := m[d.b[j]]; s != nil {
			s.nb++
			s.ib = j
		}
	}
	var cand []pair
	for _, s := range m {
		if s.na == 1 && s.nb == 1 {
			cand = append(cand, pair{s.ia, s.ib})
		}
	}
	if len(cand) == 0 {
		return nil
	}
	slices.SortFunc(cand, func(x, y pair) int { return x.a - y.a })
	// Longest increasing subsequence in b, by patience sorting.
	tops := []int{}                // tops[k]: index in cand of the smallest tail of a run of length k+1
	prev := make([]int, len(cand)) // predecessor in its run
	for i, c := range cand {
		k := sort.Search(len(tops), func(k int) bool { return cand[tops[k]].b > c.b })
		if k > 0 {
			prev[i] = tops[k-1]
		} else {
			prev[i] = -1
		}
		if k == len(tops) {
			tops = append(tops, i)
		} else {
			tops[k] = i
		}
	}
	out := make([]pair, len(tops))
	for i, k := tops[len(tops)-1], len(tops)-1; k >= 0; i, k = prev[i], k-1 {
		out[k] = cand[i]
	}
	return out
}

// myers matches a[a0:a1] against b[b0:b1] with Myers' O(ND) algorithm in
// linear space, splitting at a middle snake and recursing.
func (d *differ) myers(a0, a1, b0, b1 int) {
	d.matchEnds(a0, a1, b0, b1, func(a0, a1, b0, b1 int) {
		x, y, ok := d.bisect(a0, a1, b0, b1)
		if ok && (x > a0 || y > b0) && (x < a1 || y < b1) {
			d.myers(a0, x, b0, y)
			d.myers(x, a1, y, b1)
		}
	})
}

// bisect finds the point where a shortest edit path of a[a0:a1] to
// b[b0:b1] crosses its middle, searching forward and backward at once (the
// "middle snake"). It reports false when the edit distance passes
// myersLimit.
func (d *differ) bisect(a0, a1, b0, b1 int) (x, y int, ok bool) {
	n, m := a1-a0, b1-b0
	limit := min((n+m+1)/2, myersLimit)
	size := 2*limit + 2
	off := limit
	v1 := make([]int, size)
	v2 := make([]int, size)
	for i := range v1 {
		v1[i], v2[i] = -1, -1
	}
	v1[off+1], v2[off+1] = 0, 0
	delta := n - m
	front := delta%2 != 0
	var k1start, k1end, k2start, k2end int
	for dd := 0; dd < limit; dd++ {
		for k1 := -dd + k1start; k1 <= dd-k1end; k1 += 2 {
			k1off := off + k1
			var x1 int
			if k1 == -dd || (k1 != dd && v1[k1off-1] < v1[k1off+1]) {
				x1 = v1[k1off+1]
			} else {
				x1 = v1[k1off-1] + 1
			}
			y1 := x1 - k1
			for x1 < n && y1 < m && d.a[a0+x1] == d.b[b0+y1] {
				x1, y1 = x1+1, y1+1
			}
			v1[k1off] = x1
			switch {
			case x1 > n:
				k1end += 2
			case y1 > m:
				k1start += 2
			case front:
				if k2off := off + delta - k1; k2off >= 0 && k2off < size && v2[k2off] != -1 {
					if x1 >= n-v2[k2off] {
						return a0 + x1, b0 + y1, true
					}
				}
			}
		}
		for k2 := -dd + k2start; k2 <= dd-k2end; k2 += 2 {
			k2off := off + k2
			var x2 int
			if k2 == -dd || (k2 != dd && v2[k2off-1] < v2[k2off+1]) {
				x2 = v2[k2off+1]
			} else {
				x2 = v2[k2off-1] + 1
			}
			y2 := x2 - k2
			for x2 < n && y2 < m && d.a[a1-x2-1] == d.b[b1-y2-1] {
				x2, y2 = x2+1, y2+1
			}
			v2[k2off] = x2
			switch {
			case x2 > n:
				k2end += 2
			case y2 > m:
				k2start += 2
			case !front:
				if k1off := off + delta - k2; k1off >= 0 && k1off < size && v1[k1off] != -1 {
					x1 := v1[k1off]
					y1 := x1 - (k1off - off)
					if x1 >= n-x2 {
						return a0 + x1, b0 + y1, true
					}
				}
			}
		}
	}
	return 0, 0, false
}

// LineWindow returns lines from (1-based) to to, not included, of the
// concatenation of parts, as one string: from the start of line from to
// the end of line to-1 without its line feed, or to the end of the text.
// strings.Split of it on "\n" gives those lines of strings.Split of the
// whole text (to > from).
func LineWindow(parts []string, from, to int) string {
	r := rope(parts)
	from = max(from, 1)
	start, _ := r.lineOffset(from - 1)
	end, ok := r.lineOffset(max(to, from+1) - 1)
	if ok {
		end-- // the line feed that ends line to-1
	}
	return r.slice(start, max(start, end))
}

// lineOffset returns the offset just after the n-th line feed of r (0 for
// n == 0), or r.len() and false when it has fewer.
func (r rope) lineOffset(n int) (int, bool) {
	off := 0
	if n == 0 {
		return 0, true
	}
	for _, p := range r {
		if c := strings.Count(p, "\n"); c < n {
			n -= c
			off += len(p)
			continue
		}
		for {
			i := strings.IndexByte(p, '\n')
			off += i + 1
			p = p[i+1:]
			if n--; n == 0 {
				return off, true
			}
		}
	}
	return off, false
}
