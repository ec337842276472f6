package textedit

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Edit is one exact string replacement.
type Edit struct {
	// Old is the text to find. It must not be empty.
	Old string
	// New replaces Old; empty deletes it.
	New string
	// ReplaceAll replaces every occurrence instead of requiring exactly one.
	ReplaceAll bool
	// Expected, when positive, is the number of occurrences the caller
	// expects: Apply fails unless Old occurs exactly that many times, and
	// then replaces all of them (with or without ReplaceAll). Zero means not
	// given.
	Expected int
}

// Result is the outcome of a successful Apply, ApplyParts or ApplyAll.
type Result struct {
	// Text is the text after the replacement (Apply, ApplyAll).
	Text string
	// Parts is the text after the replacement as ApplyParts gives it, in
	// place of Text: the concatenation of Parts, which are slices of the
	// original text and the replacements, so that they share the
	// original's memory.
	Parts []string
	// Count is the number of occurrences replaced.
	Count int
	// Lines holds the 1-based line, in the text the edit was applied to, at
	// which each replaced occurrence starts. For ApplyAll it holds the lines
	// of every edit in order, each counted in the text that edit saw.
	Lines []int
	// Normalization names the normalisation that made Old match, or is ""
	// for an exact match: "line-endings", "trailing-whitespace",
	// "line-number-prefix" or "typographic-quotes". For ApplyAll it lists
	// the edits that needed one, as "edits[1]: trailing-whitespace", joined
	// with "; ".
	Normalization string
	// Regions are the replaced regions of the original text (ApplyParts,
	// ApplyAll), for DiffRegions.
	Regions []Region
}

// Normalisation names, as Result.Normalization reports them.
const (
	NormLineEndings        = "line-endings"
	NormTrailingWhitespace = "trailing-whitespace"
	NormLineNumberPrefix   = "line-number-prefix"
	NormTypographicQuotes  = "typographic-quotes"
)

var (
	// ErrEmptyOld is returned for an edit whose Old is empty.
	ErrEmptyOld = errors.New("old string is empty; to create a file use write")
	// ErrNoChange is returned when an edit would leave the text as it was:
	// Old equals New, or the replacement (after a normalisation) or a
	// sequence of edits gives back the original text.
	ErrNoChange = errors.New("old and new strings are identical; nothing to change")
	// ErrNegativeExpected is returned for an edit with a negative Expected.
	ErrNegativeExpected = errors.New("expected count is negative; give a positive count or leave it out")
	// ErrNoEdits is returned by ApplyAll for an empty list of edits.
	ErrNoEdits = errors.New("no edits given")
)

// maxErrorLines caps the line numbers an error carries.
const maxErrorLines = 50

// NotFoundError is returned when Old occurs nowhere, even after the
// normalisations.
type NotFoundError struct {
	// Old is the string that was looked for.
	Old string
	// Hint helps the caller fix Old: where the closest text is, or that it
	// matches only if whitespace is ignored. A hint is never applied.
	Hint string
}

// Error implements error.
func (e *NotFoundError) Error() string {
	msg := "old string not found in the file"
	if e.Hint != "" {
		msg += "; " + e.Hint
	}
	return msg
}

// AmbiguousError is returned when Old occurs more than once and the edit
// neither replaces all nor gives an expected count.
type AmbiguousError struct {
	// Count is the number of occurrences.
	Count int
	// Lines holds the 1-based start lines of the first occurrences (at most
	// 50).
	Lines []int
}

// Error implements error.
func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("old string occurs %d times (%s); add surrounding lines to make it unique, or replace all occurrences",
		e.Count, formatLines(e.Lines, e.Count))
}

// CountMismatchError is returned when Old occurs a number of times other
// than Edit.Expected.
type CountMismatchError struct {
	// Expected is Edit.Expected.
	Expected int
	// Found is the number of occurrences.
	Found int
	// Lines holds the 1-based start lines of the first occurrences (at most
	// 50).
	Lines []int
}

// Error implements error.
func (e *CountMismatchError) Error() string {
	return fmt.Sprintf("expected %d occurrences of old string but found %d (%s); fix the expected count or the old string",
		e.Expected, e.Found, formatLines(e.Lines, e.Found))
}

// EditError is returned by ApplyAll for the first edit that failed; nothing
// was applied.
type EditError struct {
	// Index is the 0-based position of the failed edit in the list.
	Index int
	// Err is the edit's error.
	Err error
}

// Error implements error.
func (e *EditError) Error() string {
	return fmt.Sprintf("edits[%d]: %v (no edit was applied)", e.Index, e.Err)
}

// Unwrap returns the edit's error.
func (e *EditError) Unwrap() error { return e.Err }

// formatLines renders line numbers as "line 3" or "lines 3, 7 and 9", noting
// how many were left out of total.
func formatLines(lines []int, total int) string {
	if len(lines) == 0 {
		return "no lines"
	}
	var sb strings.Builder
	if len(lines) == 1 && total <= 1 {
		return "line " + strconv.Itoa(lines[0])
	}
	sb.WriteString("lines ")
	for i, l := range lines {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(strconv.Itoa(l))
	}
	if total > len(lines) {
		fmt.Fprintf(&sb, " and %d more", total-len(lines))
	}
	return sb.String()
}

// Apply replaces e.Old by e.New in text.
//
// Old must occur exactly once, or e.Expected times when that is given, or at
// least once with ReplaceAll. When it does not occur exactly as given, Apply
// tries these normalisations, in this order, each on its own, and uses the
// first that finds the required number of occurrences:
//
//  1. line-endings: CR LF in Old (and in text) counts as LF. New takes the
//     line ending of the text it replaces.
//  2. trailing-whitespace: spaces and tabs at the end of each line of Old and
//     of text are ignored (at the end of Old only if the match ends a line).
//     The whole matched region of the file, its own trailing whitespace
//     included, is replaced by New as given.
//  3. line-number-prefix: every line of Old starts with a line number as the
//     read tool prints it ("     12\t", "12→" or "    12│", consecutive
//     numbers). The prefixes are stripped from Old, and from New when every
//     non-empty line of New carries one in the same format.
//  4. typographic-quotes: ‘ ’ count as ' and “ ” as ". If Old needed straight
//     quotes turned into the file's curly ones (or the reverse), New's quotes
//     of that kind are converted the same way, curly ones opening after a
//     space or an opening bracket and closing elsewhere.
//
// When Old matches exactly, New is used as given, except that CR LF in New
// becomes LF if text has no CR LF (as text from Decode normally has not);
// Result.Normalization then says "line-endings".
//
// Result.Normalization names the normalisation used. A normalisation that
// finds the wrong number of occurrences is not used; it only feeds the hint
// of the NotFoundError. Nothing is ever matched by similarity.
//
// Errors: ErrEmptyOld, ErrNoChange, ErrNegativeExpected, *NotFoundError,
// *AmbiguousError, *CountMismatchError.
func Apply(text string, e Edit) (Result, error) {
	res, err := ApplyParts(text, e)
	if err != nil {
		return res, err
	}
	res.Text, res.Parts, res.Regions = strings.Join(res.Parts, ""), nil, nil
	return res, nil
}

// ApplyParts is Apply without building the new text: Result.Parts holds
// it in pieces, most of them slices of text, for a caller that writes it
// out (EncodeParts) and diffs it (DiffParts) without holding a large file
// twice.
func ApplyParts(text string, e Edit) (Result, error) {
	switch {
	case e.Old == "":
		return Result{}, ErrEmptyOld
	case e.Old == e.New:
		return Result{}, ErrNoChange
	case e.Expected < 0:
		return Result{}, ErrNegativeExpected
	}
	want := func(n int) bool {
		switch {
		case e.Expected > 0:
			return n == e.Expected
		case e.ReplaceAll:
			return n >= 1
		}
		return n == 1
	}
	keep := maxErrorLines
	if e.ReplaceAll || e.Expected > 0 {
		keep = -1
	}

	// Exact.
	if m := findAll(text, e.Old, keep, nil); m.count > 0 {
		if !want(m.count) {
			return Result{}, countError(text, e, m)
		}
		newText, norm := e.New, ""
		if strings.Contains(newText, "\r\n") && !strings.Contains(text, "\r\n") {
			// Decoded text has LF endings; CR LF in New would come back
			// as CR CR LF in a CRLF file and as mixed endings in an LF one.
			newText, norm = strings.ReplaceAll(newText, "\r\n", "\n"), NormLineEndings
		}
		return replace(text, view{s: text}, m, func(int, int) string { return newText }, norm)
	}

	// Normalisations.
	var tried []string
	for _, n := range normalizations {
		c, ok := n.prepare(text, e)
		if !ok {
			continue
		}
		m := findAll(c.view.s, c.old, keep, c.accept)
		if m.count == 0 {
			continue
		}
		if !want(m.count) {
			tried = append(tried, fmt.Sprintf("after normalising %s it occurs %d times (%s)",
				n.what, m.count, formatLines(linesOf(c.view.s, m.pos, maxErrorLines), m.count)))
			continue
		}
		return replace(text, c.view, m, c.repl, n.name)
	}
	return Result{}, &NotFoundError{Old: e.Old, Hint: hint(text, e.Old, tried)}
}

// countError is the error for an exact old string found a wrong number of
// times.
func countError(text string, e Edit, m matches) error {
	lines := linesOf(text, m.pos, maxErrorLines)
	if e.Expected > 0 {
		return &CountMismatchError{Expected: e.Expected, Found: m.count, Lines: lines}
	}
	return &AmbiguousError{Count: m.count, Lines: lines}
}

// matches are the non-overlapping occurrences of a string in a view.
type matches struct {
	count int
	pos   []int // start offsets, in the view, of the first occurrences
	end   []int // end offsets, in the view
}

// findAll finds the non-overlapping occurrences of old in s, left to right,
// that accept allows (nil allows all). It records the positions of the first
// keep of them, or of all when keep < 0.
func findAll(s, old string, keep int, accept func(s string, start, end int) bool) matches {
	var m matches
	for i := 0; i <= len(s); {
		j := strings.Index(s[i:], old)
		if j < 0 {
			break
		}
		start, end := i+j, i+j+len(old)
		if accept != nil && !accept(s, start, end) {
			i = start + 1
			continue
		}
		m.count++
		if keep < 0 || len(m.pos) < keep {
			m.pos = append(m.pos, start)
			m.end = append(m.end, end)
		}
		i = end
	}
	return m
}

// linesOf returns the 1-based lines of the first max offsets in pos
// (ascending), counting newlines once from the start.
func linesOf(s string, pos []int, max int) []int {
	if max >= 0 && len(pos) > max {
		pos = pos[:max]
	}
	lines := make([]int, len(pos))
	line, at := 1, 0
	for i, p := range pos {
		line += strings.Count(s[at:p], "\n")
		at = p
		lines[i] = line
	}
	return lines
}

// replace builds the result of replacing the matches m, found in v, in text.
// repl returns the replacement for the region text[start:end].
func replace(text string, v view, m matches, repl func(start, end int) string, norm string) (Result, error) {
	type region struct {
		start, end int
		with       string
	}
	regions := make([]region, len(m.pos))
	grow := 0
	for i := range m.pos {
		s, e := v.origStart(m.pos[i]), v.origEnd(m.end[i])
		if e < s { // an empty match inside removed text
			e = s
		}
		r := repl(s, e)
		regions[i] = region{s, e, r}
		grow += len(r) - (e - s)
	}
	parts := make([]string, 0, 2*len(regions)+1)
	at := 0
	starts := make([]int, len(regions))
	for i, r := range regions {
		parts = append(parts, text[at:r.start], r.with)
		at = r.end
		starts[i] = r.start
	}
	parts = append(parts, text[at:])
	if grow == 0 && equalParts(text, parts) {
		if norm != "" {
			return Result{}, fmt.Errorf("%w (after normalising %s)", ErrNoChange, norm)
		}
		return Result{}, ErrNoChange
	}
	out := make([]Region, len(regions))
	for i, r := range regions {
		out[i] = Region{Start: r.start, End: r.end, New: r.with}
	}
	return Result{Parts: parts, Count: len(regions), Lines: linesOf(text, starts, -1), Normalization: norm, Regions: out}, nil
}

// equalParts reports whether the concatenation of parts is s.
func equalParts(s string, parts []string) bool {
	for _, p := range parts {
		if len(p) > len(s) || s[:len(p)] != p {
			return false
		}
		s = s[len(p):]
	}
	return s == ""
}
