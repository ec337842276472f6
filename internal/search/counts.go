package search

import "sync/atomic"

// Counts is what a running search has done so far, for progress reports:
// another goroutine may read it while Grep or Glob runs.
type Counts struct {
	// Files counts the files searched (Grep) or the entries of the type
	// asked for that were looked at (Glob).
	Files atomic.Int64
	// Matches counts the matching lines (Grep; 1 a file in
	// FilesWithMatches mode) or the paths that matched (Glob).
	Matches atomic.Int64
}

// searched records one file searched with n matches; c may be nil.
func (c *Counts) searched(n int) {
	if c == nil {
		return
	}
	c.Files.Add(1)
	if n > 0 {
		c.Matches.Add(int64(n))
	}
}
