package jobs

import (
	"bytes"
	"sync/atomic"
	"unicode/utf8"
)

// lastLineScan is how many bytes at the end of the output LastLine looks
// at; a buffer always holds at least this much of the end in memory.
const lastLineScan = 4096

// Tail lets a caller read the last line of a foreground command's output
// while RunWith waits for it (Options.Tail). The zero value is ready; it
// reads "" until the command has started.
type Tail struct {
	s atomic.Pointer[sink]
}

// LastLine returns the last line the command has written so far (see
// Manager.LastLine).
func (t *Tail) LastLine(limit int) string {
	if t == nil {
		return ""
	}
	s := t.s.Load()
	if s == nil {
		return ""
	}
	return s.lastLine(limit)
}

// LastLine returns the last non-blank line a background job has written
// so far, as safe text (see Truncate) of at most limit characters: a line
// rewritten with carriage returns shows its last state, a longer line is
// cut with "…". An unknown id is ErrNotFound.
func (m *Manager) LastLine(id string, limit int) (string, error) {
	j, err := m.job(id)
	if err != nil {
		return "", err
	}
	return j.sink.lastLine(limit), nil
}

// lastLine is the merged output's last non-blank line, within limit
// characters.
func (s *sink) lastLine(limit int) string {
	s.mu.Lock()
	b := s.merged
	from := max(0, b.size-lastLineScan)
	end, _ := b.bytes(from, b.size)
	end = bytes.Clone(end)
	s.mu.Unlock()
	return renderLastLine(end, from > 0, limit)
}

// renderLastLine picks the last non-blank line of end, the end of an
// output (cut says output came before it), and renders it within limit
// characters.
func renderLastLine(end []byte, cut bool, limit int) string {
	end = bytes.TrimRight(end, " \t\r\n")
	i := bytes.LastIndexAny(end, "\r\n")
	line := end[i+1:]
	if i < 0 && cut {
		// The line began before the bytes at hand: show its end, from a
		// character's start.
		for len(line) > 0 && !utf8.RuneStart(line[0]) {
			line = line[1:]
		}
		s, _ := renderSuffix(line, max(limit-1, 0), false)
		return "…" + s
	}
	if s, n := renderPrefix(line, limit, false); n == len(line) {
		return s
	}
	s, _ := renderPrefix(line, max(limit-1, 0), false)
	return s + "…"
}
