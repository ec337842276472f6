package textedit

import (
	"fmt"
	"strings"
)

// Region is one replacement in the original text: text[Start:End] became
// New. ApplyParts and ApplyAll give them in Result.Regions, in order and
// not overlapping, for DiffRegions.
type Region struct {
	Start, End int
	New        string
}

// seg is a piece of a text being edited: a[start:end] of the original
// when s is unset (orig), else the string s.
type seg struct {
	orig       bool
	start, end int
	s          string
}

// segText is a text as a sequence of segments over the original a: the
// text after some edits, held without building it.
type segText struct {
	a    string
	segs []seg
}

func (t *segText) chunk(i int) string {
	if g := t.segs[i]; g.orig {
		return t.a[g.start:g.end]
	}
	return t.segs[i].s
}

func (t *segText) len() int {
	n := 0
	for i := range t.segs {
		n += len(t.chunk(i))
	}
	return n
}

// join builds the text.
func (t *segText) join() string {
	var sb strings.Builder
	sb.Grow(t.len())
	for i := range t.segs {
		sb.WriteString(t.chunk(i))
	}
	return sb.String()
}

// hasPrefixAt reports whether the text from chunk i, offset off, starts
// with s.
func (t *segText) hasPrefixAt(i, off int, s string) bool {
	for ; s != "" && i < len(t.segs); i, off = i+1, 0 {
		c := t.chunk(i)[off:]
		n := min(len(c), len(s))
		if c[:n] != s[:n] {
			return false
		}
		s = s[n:]
	}
	return s == ""
}

// findAll is findAll (with no accept) over the text: the leftmost
// non-overlapping occurrences of old, left to right, the first keep of
// them recorded (all when keep < 0), as offsets in the text.
func (t *segText) findAll(old string, keep int) matches {
	var m matches
	pos, off := 0, 0 // where the next search starts; where chunk i starts
	for i := range t.segs {
		c := t.chunk(i)
		for {
			local := max(pos-off, 0)
			if local > len(c) {
				break
			}
			start := -1
			if j := strings.Index(c[local:], old); j >= 0 {
				start = local + j
			} else {
				// An occurrence starting in c and running on into the
				// next chunks.
				for p := max(local, len(c)-len(old)+1); p < len(c); p++ {
					if strings.HasPrefix(old, c[p:]) && t.hasPrefixAt(i+1, 0, old[len(c)-p:]) {
						start = p
						break
					}
				}
			}
			if start < 0 {
				break
			}
			m.count++
			if keep < 0 || len(m.pos) < keep {
				m.pos = append(m.pos, off+start)
				m.end = append(m.end, off+start+len(old))
			}
			pos = off + start + len(old)
		}
		off += len(c)
	}
	return m
}

// linesOf is linesOf over the text.
func (t *segText) linesOf(pos []int) []int {
	lines := make([]int, len(pos))
	line, off, k := 1, 0, 0
	for i := range t.segs {
		c := t.chunk(i)
		at := 0
		for ; k < len(pos) && pos[k] <= off+len(c); k++ {
			line += strings.Count(c[at:pos[k]-off], "\n")
			at = pos[k] - off
			lines[k] = line
		}
		if k == len(pos) {
			break
		}
		line += strings.Count(c[at:], "\n")
		off += len(c)
	}
	return lines
}

// splice replaces the text's [start, end) by s.
func (t *segText) splice(start, end int, s string) {
	var out []seg
	off := 0
	cut := func(g seg, lo, hi int) seg { // the part of g from lo to hi, offsets in g
		if g.orig {
			return seg{orig: true, start: g.start + lo, end: g.start + hi}
		}
		return seg{s: g.s[lo:hi]}
	}
	inserted := false
	for i, g := range t.segs {
		n := len(t.chunk(i))
		lo, hi := off, off+n
		off = hi
		if lo < start {
			out = append(out, cut(g, 0, min(n, start-lo)))
		}
		if !inserted && hi >= start {
			if s != "" {
				out = append(out, seg{s: s})
			}
			inserted = true
		}
		if hi > end && (lo >= start || hi > start) {
			out = append(out, cut(g, max(end-lo, 0), n))
		}
	}
	if !inserted && s != "" {
		out = append(out, seg{s: s})
	}
	t.segs = out[:0:0]
	for _, g := range out { // drop empty pieces
		if g.orig && g.start < g.end || !g.orig && g.s != "" {
			t.segs = append(t.segs, g)
		}
	}
}

// result returns the text's parts and its regions over a.
func (t *segText) result() ([]string, []Region) {
	var parts []string
	var regions []Region
	at := 0 // the end, in a, of the last original piece
	var with strings.Builder
	open := false
	flush := func(next int) {
		if open || next != at {
			regions = append(regions, Region{Start: at, End: next, New: with.String()})
			parts = append(parts, with.String())
		}
		with.Reset()
		open = false
	}
	for _, g := range t.segs {
		if !g.orig {
			with.WriteString(g.s)
			open = true
			continue
		}
		flush(g.start)
		parts = append(parts, t.a[g.start:g.end])
		at = g.end
	}
	flush(len(t.a))
	return parts, regions
}

// ApplyAll applies edits in order, each to the text the previous ones
// produced. It is all or nothing: on the first failing edit it returns an
// *EditError naming that edit's index, and no Result. ApplyAll returns
// ErrNoChange when the edits together give back the original text.
func ApplyAll(text string, edits []Edit) (Result, error) {
	res, err := ApplyAllParts(text, edits)
	if err != nil {
		return res, err
	}
	res.Text, res.Parts, res.Regions = strings.Join(res.Parts, ""), nil, nil
	return res, nil
}

// ApplyAllParts is ApplyAll without building the new text, as ApplyParts
// is Apply: Result.Parts are slices of text and the replacements, and
// Result.Regions the replaced regions of text. An edit that matches
// exactly is found in the pieces; only one that needs a normalisation (or
// fails) sees the text the edits before it left built whole.
func ApplyAllParts(text string, edits []Edit) (Result, error) {
	if len(edits) == 0 {
		return Result{}, ErrNoEdits
	}
	t := &segText{a: text}
	if text != "" {
		t.segs = []seg{{orig: true, start: 0, end: len(text)}}
	}
	var res Result
	var norms []string
	for i, e := range edits {
		r, ok := t.applyExact(e)
		if !ok {
			cur := t.join()
			var err error
			if r, err = ApplyParts(cur, e); err != nil {
				return Result{}, &EditError{Index: i, Err: err}
			}
			t = &segText{a: text}
			for _, p := range r.Parts {
				if p != "" {
					t.segs = append(t.segs, seg{s: p})
				}
			}
		}
		res.Count += r.Count
		res.Lines = append(res.Lines, r.Lines...)
		if r.Normalization != "" {
			norms = append(norms, fmt.Sprintf("edits[%d]: %s", i, r.Normalization))
		}
	}
	res.Parts, res.Regions = t.result()
	if res.Parts == nil {
		res.Parts = []string{""}
	}
	if equalParts(text, res.Parts) {
		return Result{}, ErrNoChange
	}
	res.Normalization = strings.Join(norms, "; ")
	return res, nil
}

// applyExact applies e to t when Old occurs exactly as given the number of
// times e asks for, as ApplyParts's exact match does; ok false leaves t as
// it is, for ApplyParts on the whole text (a normalisation, or an error).
func (t *segText) applyExact(e Edit) (r Result, ok bool) {
	if e.Old == "" || e.Old == e.New || e.Expected < 0 {
		return r, false
	}
	m := t.findAll(e.Old, -1)
	switch {
	case m.count == 0,
		e.Expected > 0 && m.count != e.Expected,
		e.Expected == 0 && !e.ReplaceAll && m.count != 1:
		return r, false
	}
	newText := e.New
	if strings.Contains(newText, "\r\n") && t.findAll("\r\n", 0).count == 0 {
		newText, r.Normalization = strings.ReplaceAll(newText, "\r\n", "\n"), NormLineEndings
	}
	if newText == e.Old {
		return Result{}, false // ApplyParts says no change, with its message
	}
	r.Count, r.Lines = m.count, t.linesOf(m.pos)
	for k := len(m.pos) - 1; k >= 0; k-- {
		t.splice(m.pos[k], m.end[k], newText)
	}
	return r, true
}
