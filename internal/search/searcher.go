package search

import (
	"bytes"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/hands-dev/hands/internal/match"
	"github.com/hands-dev/hands/internal/walk"
)

// chunkSize is ripgrep's buffer capacity. Reading with the same geometry
// makes the handling of NUL bytes after the first chunk identical.
const chunkSize = 64 << 10

// searcher holds the per-goroutine state: the read buffer and the
// before-context carried across chunks.
type searcher struct {
	opts  *Options
	stats *Stats
	m     *match.Matcher
	buf   []byte
	side  []Line // the last lines of the previous chunks, for -B
	// skipped are the lines of the last file searched that were too long.
	skipped []Skipped
}

func newSearcher(opts *Options, stats *Stats) *searcher {
	return &searcher{opts: opts, stats: stats, m: opts.Matcher, buf: make([]byte, chunkSize)}
}

// fileState is the state of the search of one file.
type fileState struct {
	s            *searcher
	f            File
	lastEmitted  int // number of the last line reported, 0 if none
	pendingAfter int // after-context lines still to report
	matched      bool
	nul          int64 // offset of the first NUL byte, or -1
	explicit     bool
	mode         Mode
	// stopAtNUL: an explicit file in Content mode, whose search stops at
	// the first matching line holding a NUL, as ripgrep's does.
	stopAtNUL bool
}

// searchFile searches one file; it returns nil when the file has no match
// to report, and whether a NUL byte was met. explicit is set for files
// named in Options.Paths.
func (s *searcher) searchFile(e walk.Entry, explicit bool) (*File, bool, error) {
	f, err := s.searchFile1(e, explicit)
	if err != nil {
		return nil, false, err
	}
	return f.result(explicit)
}

func (s *searcher) searchFile1(e walk.Entry, explicit bool) (*fileState, error) {
	path := e.Path
	fh, err := e.Open()
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	st := &fileState{s: s, f: File{Path: path}, nul: -1, explicit: explicit}
	st.stopAtNUL = explicit && s.opts.Mode == Content
	st.mode = s.opts.Mode
	s.side = s.side[:0]
	if s.m.Multiline() {
		err = st.searchWhole(fh, explicit)
	} else {
		err = st.searchChunks(fh, explicit)
	}
	if len(s.buf) > chunkSize {
		s.buf = make([]byte, chunkSize) // a long line's buffer is not kept
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if st.matched {
		info, err := fh.Info()
		if err != nil {
			return nil, err
		}
		st.f.ModTime = info.ModTime
	}
	return st, nil
}

func (st *fileState) result(explicit bool) (*File, bool, error) {
	bin := st.nul >= 0
	if !st.matched {
		return nil, bin, nil
	}
	if bin {
		st.f.BinaryOffset = st.nul
		st.f.Binary = BinaryStopped
		if explicit {
			st.f.Binary = BinaryMatches
			if st.s.opts.Mode != Content {
				st.f.Binary = NotBinary // counted and listed as text
			}
		} else if st.s.opts.Mode == Count {
			return nil, bin, nil // ripgrep drops the count of a binary file
		}
	}
	return &st.f, bin, nil
}

// fill reads into buf[end:] until it is full or the file ends.
func fill(fh walk.File, buf []byte, end int) (int, bool, error) {
	for end < len(buf) {
		n, err := fh.Read(buf[end:])
		if err != nil {
			return end, true, err
		}
		if n == 0 {
			return end, true, nil
		}
		end += n
	}
	return end, false, nil
}

// searchChunks is line mode: lines are searched chunk by chunk, the
// partial last line carried to the next chunk.
func (st *fileState) searchChunks(fh walk.File, explicit bool) error {
	s := st.s
	buf := s.buf
	end := 0
	line := 1     // number of the line at buf[0]
	var off int64 // file offset of buf[0]
	for {
		old := end
		var eof bool
		var err error
		end, eof, err = fill(fh, buf, end)
		if err != nil {
			return err
		}
		atomic.AddInt64(&s.stats.BytesSearched, int64(end-old))
		if st.nul < 0 {
			if i := bytes.IndexByte(buf[old:end], 0); i >= 0 {
				st.nul = off + int64(old+i)
				if !explicit {
					return nil // drop what was not searched, as ripgrep does
				}
				if st.stopAtNUL && off == 0 && old == 0 {
					// A NUL in the first chunk: only whether it
					// matches is reported.
					st.mode = FilesWithMatches
				}
			}
		}
		limit := end
		if !eof {
			limit = bytes.LastIndexByte(buf[:end], '\n') + 1
			if limit == 0 { // a line longer than the buffer
				if len(buf) >= s.opts.MaxLineLen {
					// Too long to search: read past it in the same buffer.
					var n int
					var done bool
					n, end, done, err = st.skipLine(fh, buf, end, line, off, explicit)
					if err != nil || done {
						return err
					}
					if st.mode == Content {
						s.side = s.side[:0]
						st.pendingAfter = max(st.pendingAfter-1, 0)
					}
					line++
					off += int64(n)
					continue
				}
				// Grow to hold it: up to the bound, never twice over it.
				nb := make([]byte, min(2*len(buf), s.opts.MaxLineLen))
				copy(nb, buf[:end])
				buf = nb
				s.buf = buf
				continue
			}
		}
		if done := st.region(buf[:limit], line); done || eof {
			return nil
		}
		if st.mode == Content {
			line += bytes.Count(buf[:limit], nl)
			st.saveSide(buf[:limit], line)
		}
		copy(buf, buf[limit:end])
		end -= limit
		off += int64(limit)
	}
}

var nl = []byte{'\n'}

// skipLine reads past the line at the start of buf (buf[:end] holds its
// first bytes, and no newline), which is too long to search, reusing buf.
// It returns the line's length with its newline, where the bytes after it
// end in buf (moved to its start), and whether the file is done: it ended,
// or a NUL byte in the line drops it as binary.
func (st *fileState) skipLine(fh walk.File, buf []byte, end, line int, off int64, explicit bool) (n, rest int, done bool, err error) {
	s := st.s
	length := int64(0)
	for {
		if st.nul < 0 {
			if i := bytes.IndexByte(buf[:end], 0); i >= 0 {
				st.nul = off + length + int64(i)
				if !explicit {
					return 0, 0, true, nil
				}
			}
		}
		if i := bytes.IndexByte(buf[:end], '\n'); i >= 0 {
			length += int64(i)
			s.skipped = append(s.skipped, Skipped{Path: st.f.Path, Line: line, Length: length})
			rest = copy(buf, buf[i+1:end])
			return int(length) + 1, rest, false, nil
		}
		length += int64(end)
		var eof bool
		old := 0
		end, eof, err = fill(fh, buf, 0)
		atomic.AddInt64(&s.stats.BytesSearched, int64(end-old))
		if err != nil {
			return 0, 0, true, err
		}
		if eof && bytes.IndexByte(buf[:end], '\n') < 0 {
			length += int64(end)
			s.skipped = append(s.skipped, Skipped{Path: st.f.Path, Line: line, Length: length})
			return 0, 0, true, nil
		}
	}
}

// region searches complete lines; line is the number of the first. It
// reports whether the file is done (FilesWithMatches found a match).
func (st *fileState) region(buf []byte, line int) bool {
	s := st.s
	lines := s.m.Lines(buf)
	switch st.mode {
	case FilesWithMatches:
		if _, _, ok := lines.Next(); ok {
			st.matched = true
			st.f.Count = 1
			return true
		}
		return false
	case Count:
		for {
			if _, _, ok := lines.Next(); !ok {
				return false
			}
			st.matched = true
			st.f.Count++
		}
	}
	cur, curLine := 0, line
	for {
		start, end, ok := lines.Next()
		if !ok {
			break
		}
		if st.stopAtNUL && bytes.IndexByte(buf[start:end], 0) >= 0 {
			st.matched = true
			return true
		}
		st.matched = true
		st.f.Count++
		n := curLine + bytes.Count(buf[cur:start], nl)
		st.context(buf, cur, curLine, start, n)
		st.emit(n, buf[start:end], true)
		cur, curLine = min(end+1, len(buf)), n+1
	}
	st.after(buf, cur, curLine, len(buf))
	return false
}

// context reports the after-context of the previous match and the
// before-context of a match at buf[start:], line n, in the gap
// buf[cur:start] whose first line is curLine.
func (st *fileState) context(buf []byte, cur, curLine, start, n int) {
	st.after(buf, cur, curLine, start)
	B := st.s.opts.Before
	if B == 0 {
		return
	}
	first := max(n-B, st.lastEmitted+1) // first line of the before-context
	if first >= n {
		return
	}
	// Lines of previous chunks, when the context reaches above this
	// region (only for its first match: cur == 0).
	if first < curLine && cur == 0 {
		for _, l := range st.s.side {
			if l.Number >= first && l.Number < curLine && l.Number > st.lastEmitted {
				st.f.Lines = append(st.f.Lines, l)
				st.lastEmitted = l.Number
			}
		}
	}
	first = max(first, curLine)
	q := start
	for k := n; k > first; k-- {
		q = bytes.LastIndexByte(buf[:q-1], '\n') + 1
	}
	for ln := first; q < start; ln++ {
		e := bytes.IndexByte(buf[q:start], '\n') + q
		st.emit(ln, buf[q:e], false)
		q = e + 1
	}
}

// after reports up to pendingAfter lines of buf[cur:limit], the first
// being line curLine; it returns where it stopped.
func (st *fileState) after(buf []byte, cur, curLine, limit int) (int, int) {
	for st.pendingAfter > 0 && cur < limit {
		e := bytes.IndexByte(buf[cur:limit], '\n')
		if e < 0 {
			e = limit
		} else {
			e += cur
		}
		st.emit(curLine, buf[cur:e], false)
		st.pendingAfter--
		cur, curLine = e+1, curLine+1
	}
	return cur, curLine
}

func (st *fileState) emit(n int, text []byte, isMatch bool) {
	if n <= st.lastEmitted {
		return
	}
	l := Line{Number: n, Match: isMatch}
	if max := st.s.opts.MaxLineBytes; max > 0 && len(text) > max {
		for max > 0 && text[max]&0xC0 == 0x80 { // not inside a UTF-8 sequence
			max--
		}
		text, l.Cut = text[:max], true
	}
	l.Text = string(text)
	st.f.Lines = append(st.f.Lines, l)
	st.lastEmitted = n
	if isMatch {
		st.pendingAfter = st.s.opts.After
	}
}

// saveSide keeps the last Before lines of buf (which ends before line
// next) for the before-context of the next chunk.
func (st *fileState) saveSide(buf []byte, next int) {
	B := st.s.opts.Before
	if B == 0 {
		return
	}
	var tail []Line
	q := len(buf)
	for k := 1; k <= B && q > 0; k++ {
		p := bytes.LastIndexByte(buf[:q-1], '\n') + 1
		n := next - k
		if n > st.lastEmitted {
			tail = append(tail, Line{Number: n, Text: string(buf[p : q-1])})
		}
		q = p
	}
	slices.Reverse(tail)
	side := append(st.s.side, tail...)
	if len(side) > B {
		side = side[len(side)-B:]
	}
	st.s.side = side
}

// searchWhole is multiline mode: the file is read whole and matched at
// once. Like ripgrep, a file found by the walk with a NUL byte anywhere is
// skipped.
func (st *fileState) searchWhole(fh walk.File, explicit bool) error {
	s := st.s
	buf := s.buf
	end := 0
	for {
		if end == len(buf) {
			if len(buf) >= s.opts.MaxLineLen {
				// Too large to match whole: skipped, and said so.
				s.skipped = append(s.skipped, Skipped{Path: st.f.Path, Length: int64(end)})
				return nil
			}
			nb := make([]byte, min(2*len(buf), s.opts.MaxLineLen))
			copy(nb, buf)
			buf = nb
			s.buf = buf
		}
		var eof bool
		var err error
		end, eof, err = fill(fh, buf, end)
		if err != nil {
			return err
		}
		if eof {
			break
		}
	}
	atomic.AddInt64(&s.stats.BytesSearched, int64(end))
	if i := bytes.IndexByte(buf[:end], 0); i >= 0 {
		st.nul = int64(i)
		if !explicit {
			return nil
		}
		if st.stopAtNUL && i < chunkSize {
			st.matched = len(s.m.FindAll(buf[:end])) > 0
			return nil
		}
	}
	st.multiline(buf[:end])
	return nil
}

// multiline reports the matches of a whole buffer: each match covers the
// lines from the one where it starts to the one where it ends; matches
// covering the same lines count once.
func (st *fileState) multiline(buf []byte) {
	s := st.s
	locs := s.m.FindAll(buf)
	prevS, prevE := -1, -1
	cur, curLine := 0, 1
	for _, loc := range locs {
		if loc[0] == len(buf) && len(buf) > 0 && buf[len(buf)-1] == '\n' {
			break // the empty "line" after the last newline
		}
		ls := bytes.LastIndexByte(buf[:loc[0]], '\n') + 1
		var le int // end of the last line, before its '\n'
		if loc[1] > ls && buf[loc[1]-1] == '\n' {
			le = loc[1] - 1
		} else if i := bytes.IndexByte(buf[loc[1]:], '\n'); i >= 0 {
			le = loc[1] + i
		} else {
			le = len(buf)
		}
		if ls == prevS && le == prevE {
			continue
		}
		prevS, prevE = ls, le
		if st.stopAtNUL && bytes.IndexByte(buf[ls:le], 0) >= 0 {
			st.matched = true
			return
		}
		st.matched = true
		st.f.Count++
		if st.mode == FilesWithMatches {
			st.f.Count = 1
			return
		}
		if st.mode == Count {
			continue
		}
		var n int
		if ls < cur { // starts on the lines of the previous match
			n = curLine - bytes.Count(buf[ls:cur], nl)
		} else {
			n = curLine + bytes.Count(buf[cur:ls], nl)
			st.context(buf, cur, curLine, ls, n)
		}
		for q := ls; ; n++ {
			e := bytes.IndexByte(buf[q:le], '\n')
			if e < 0 {
				st.emit(n, buf[q:le], true)
				break
			}
			st.emit(n, buf[q:q+e], true)
			q += e + 1
		}
		cur, curLine = min(le+1, len(buf)), n+1
	}
	if st.mode == Content {
		st.after(buf, cur, curLine, len(buf))
	}
}
