package textedit

import "strings"

// regionDiffSpan is how far apart, in bytes, the first and last changes
// may be for DiffRegions to diff them as one; a var for tests.
var regionDiffSpan = 1 << 20

// DiffRegions is DiffParts from a to the text the regions make of it (as
// ApplyParts and ApplyAllParts give them). When the changes lie within
// 1 MiB of one another it is exactly DiffParts. Farther apart, each group
// of regions whose context lines meet is diffed on its own: a few changes
// spread through a large file (replace_all, a multi-edit) cost their lines
// and context, not a diff of every line between the first and the last.
// Each group is diffed as Diff diffs, so a hunk is the same as in the diff
// of the whole text unless its lines could align in more than one way
// across groups.
func DiffRegions(path string, a string, regions []Region, context int) string {
	if len(regions) == 0 {
		return ""
	}
	if regions[len(regions)-1].End-regions[0].Start <= regionDiffSpan {
		return DiffParts(path, a, regionParts(a, regions), context)
	}
	context = max(context, 0)
	var sb strings.Builder
	writeHeader(&sb, path)
	header := sb.Len()
	lineA, delta, at := 0, 0, 0 // lines of a before at; lines b has gained so far
	for i := 0; i < len(regions); {
		ws := linesBack(a, lineStart(a, regions[i].Start), context)
		j := i
		we := linesOn(a, regions[j].End, context+1)
		// Regions whose windows meet, or come within a line (where the
		// whole diff could merge their hunks), are diffed together.
		for j+1 < len(regions) && linesBack(a, lineStart(a, regions[j+1].Start), context+1) <= we {
			j++
			we = max(we, linesOn(a, regions[j].End, context+1))
		}
		b := rope{a[ws:regions[i].Start]}
		for k := i; k <= j; k++ {
			end := we
			if k < j {
				end = regions[k+1].Start
			}
			b = append(b, regions[k].New, a[regions[k].End:end])
		}
		lineA += strings.Count(a[at:ws], "\n")
		at = ws
		aw := a[ws:we]
		if b.len() != len(aw) || b.prefixWith(aw) != len(aw) {
			writeHunks(&sb, aw, b, context, lineA, lineA+delta)
			added := 0
			for _, p := range b {
				added += strings.Count(p, "\n")
			}
			delta += added - strings.Count(aw, "\n")
		}
		i = j + 1
	}
	if sb.Len() == header {
		return ""
	}
	return sb.String()
}

// regionParts returns the text the regions make of a, as parts.
func regionParts(a string, regions []Region) []string {
	parts := make([]string, 0, 2*len(regions)+1)
	at := 0
	for _, r := range regions {
		parts = append(parts, a[at:r.Start], r.New)
		at = r.End
	}
	return append(parts, a[at:])
}

// linesBack returns the start of the line n lines before the line that
// starts at p.
func linesBack(s string, p, n int) int {
	for ; n > 0 && p > 0; n-- {
		p = lineStart(s, p-1)
	}
	return p
}

// linesOn returns the end of the n-th line from the one holding offset p
// (n = 1: the end of p's own line, after its newline), or len(s).
func linesOn(s string, p, n int) int {
	for ; n > 0 && p < len(s); n-- {
		j := strings.IndexByte(s[p:], '\n')
		if j < 0 {
			return len(s)
		}
		p += j + 1
	}
	return p
}
