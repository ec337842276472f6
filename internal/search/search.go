// Package search is the grep and glob engine: it walks the roots (package
// walk, with ignore files), searches each file with a compiled pattern
// (package match) and returns per-file results in a deterministic order.
//
// Grep answers what ripgrep answers with the equivalent flags: the same
// files (ignore files, hidden files, -g globs, -t types, binary files),
// the same matching lines, line numbers, context lines and counts. Files
// are read in 64 KiB chunks with ripgrep's buffer geometry, so that a
// file with a NUL byte is handled exactly as ripgrep does by default: a
// NUL in the first chunk skips the file; a NUL further on stops the search
// there, keeping the lines found before it (File.Binary reports it, and in
// Count mode the file is dropped as ripgrep does).
//
// Results are sorted newest first by modification time, then by path, in
// every mode (ripgrep has no such order; Claude Code's Grep sorts files by
// modification time). Paths are absolute: each root, made absolute, joined
// with the names below it.
package search

import (
	"cmp"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hands-dev/hands/internal/ignore"
	"github.com/hands-dev/hands/internal/match"
	"github.com/hands-dev/hands/internal/walk"
)

// Mode selects what Grep reports for each file.
type Mode uint8

const (
	// Content reports the matching lines (and context lines).
	Content Mode = iota
	// FilesWithMatches reports only the files that match (ripgrep's -l);
	// the search of a file stops at its first match.
	FilesWithMatches
	// Count reports the number of matching lines of each file (-c).
	Count
)

func (m Mode) String() string {
	switch m {
	case FilesWithMatches:
		return "files_with_matches"
	case Count:
		return "count"
	}
	return "content"
}

// Options describes a search. Paths and Matcher are required; the zero
// value of every other field means ripgrep's default.
type Options struct {
	// Paths are the files and directories to search. A file given here
	// is searched even if ignored or hidden, and a NUL byte in it does
	// not skip it (as ripgrep does for explicit paths).
	Paths []string
	// Matcher is the compiled pattern; its options decide case and
	// multiline matching.
	Matcher *match.Matcher
	// Mode is Content, FilesWithMatches or Count.
	Mode Mode
	// Globs are ripgrep -g globs: "*.go" matches base names, "src/*.go"
	// paths relative to each root, "!vendor" excludes.
	Globs []string
	// Types and TypesNot are ripgrep type names (-t, -T).
	Types, TypesNot []string
	// Before and After are the context lines in Content mode (-B, -A).
	Before, After int
	// MaxLineBytes cuts the text of reported lines longer than it
	// (Line.Cut tells); 0 keeps whole lines.
	MaxLineBytes int
	// Hidden, NoIgnore, Ignore, Follow, Skip and Workers are passed to
	// the walk; see walk.Options.
	Hidden   bool
	NoIgnore bool
	Ignore   ignore.Config
	Follow   func(target string) bool
	Skip     func(path string, isDir bool) bool
	Workers  int
	// Confine is asked about the real path of each of Paths as it is
	// opened; see walk.Options.Confine.
	Confine func(real string) bool
	// MaxLineLen is the longest line searched, in bytes (in multiline
	// mode, the largest file); longer ones are skipped and listed in
	// Result.Skipped, so memory is bounded by it rather than by the input.
	// 0 means DefaultMaxLineLen.
	MaxLineLen int
	// Counts, when set, is kept up to date as the search runs.
	Counts *Counts
}

// DefaultMaxLineLen is the default of Options.MaxLineLen.
const DefaultMaxLineLen = 16 << 20

// Skipped is a line, or in multiline mode a file, too long to search.
type Skipped struct {
	Path string
	// Line is the number of the line skipped; 0 for a whole file.
	Line int
	// Length is the line's length in bytes (for a whole file, at least
	// this much was read before giving up).
	Length int64
}

// Result is the outcome of Grep.
type Result struct {
	// Files are the files with at least one match, newest first, then by
	// path.
	Files []File
	Stats Stats
	// Errors are the first few errors met (unreadable files); the search
	// goes on past them. Stats.Errors counts them all.
	Errors []error
	// Skipped are the first few lines too long to search (see
	// Options.MaxLineLen); Stats.Skipped counts them all.
	Skipped []Skipped
}

// Stats counts what a search did.
type Stats struct {
	FilesSearched int64
	FilesMatched  int64
	MatchedLines  int64 // in Count mode, the sum of the counts
	BytesSearched int64
	// Binary counts the files skipped or cut short at a NUL byte.
	Binary int64
	// Ignored counts the entries left out by ignore files.
	Ignored int64
	Errors  int64
	// Skipped counts lines (files, in multiline mode) too long to search.
	Skipped int64
}

// File is the result of one file.
type File struct {
	Path    string
	ModTime time.Time
	// Count is the number of matching lines (in multiline mode, of
	// matches, as ripgrep counts), 1 in FilesWithMatches mode.
	Count int
	// Lines holds, in Content mode, the matching and context lines in
	// order. A gap between line numbers is where ripgrep prints "--".
	Lines []Line
	// Binary tells whether and how a NUL byte cut the search short;
	// BinaryOffset is then the NUL's offset.
	Binary       Binary
	BinaryOffset int64
}

// Binary says how a file with a NUL byte was handled.
type Binary uint8

const (
	// NotBinary: no NUL byte was met.
	NotBinary Binary = iota
	// BinaryStopped: a file found by the walk had a NUL byte after some
	// matches; Lines holds the matches before it (ripgrep prints
	// "WARNING: stopped searching binary file after match").
	BinaryStopped
	// BinaryMatches: a file given in Options.Paths has a NUL byte and
	// matches; in Content mode Lines holds the lines before the first
	// matching line with a NUL, if the NUL was not in the first 64 KiB
	// (ripgrep prints "binary file matches").
	BinaryMatches
)

// Line is one reported line.
type Line struct {
	Number int    // from 1
	Text   string // without the line terminator ("\r" stays)
	Match  bool   // false for a context line
	Cut    bool   // Text was cut at Options.MaxLineBytes
}

const maxErrors = 10

// Grep runs a search. It returns an error for invalid options (a bad glob
// or type name, a missing root) or when ctx is cancelled; other errors
// are in Result.Errors.
func Grep(ctx context.Context, opts Options) (*Result, error) {
	if opts.Matcher == nil {
		return nil, errors.New("search: no pattern")
	}
	wo, err := walkOptions(opts.Globs, opts.Types, opts.TypesNot, opts.Hidden, opts.NoIgnore, opts.Ignore, opts.Follow, opts.Skip, opts.Workers)
	if err != nil {
		return nil, err
	}
	wo.Confine = opts.Confine
	if opts.MaxLineLen <= 0 {
		opts.MaxLineLen = DefaultMaxLineLen
	}
	g := &grep{opts: &opts}
	g.pool.New = func() any { return newSearcher(&opts, &g.stats) }
	if len(opts.Paths) == 0 {
		return nil, errors.New("search: no paths")
	}
	explicit := map[string]bool{}
	for _, p := range opts.Paths {
		if abs, err := filepath.Abs(p); err == nil {
			explicit[abs] = true
		}
	}
	st, err := walk.Walk(ctx, opts.Paths, wo, func(e walk.Entry) error {
		if !e.IsRegular() {
			return nil
		}
		s := g.pool.Get().(*searcher)
		defer g.pool.Put(s)
		f, bin, err := s.searchFile(e, e.Depth == 0 && explicit[e.Path])
		atomic.AddInt64(&g.stats.FilesSearched, 1)
		if f != nil {
			opts.Counts.searched(f.Count)
		} else {
			opts.Counts.searched(0)
		}
		if err != nil {
			g.addErr(err)
			return nil
		}
		if bin {
			atomic.AddInt64(&g.stats.Binary, 1)
		}
		if len(s.skipped) > 0 {
			g.addSkipped(s.skipped)
			s.skipped = s.skipped[:0]
		}
		if f != nil {
			g.mu.Lock()
			g.files = append(g.files, *f)
			g.mu.Unlock()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	g.pool = sync.Pool{}
	res := &Result{Files: g.files, Stats: g.stats, Errors: g.errs, Skipped: g.skipped}
	slices.SortFunc(res.Skipped, func(a, b Skipped) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line))
	})
	res.Stats.Ignored = st.Ignored
	for i := range res.Files {
		res.Stats.FilesMatched++
		res.Stats.MatchedLines += int64(res.Files[i].Count)
	}
	sortFiles(res.Files, func(f *File) (time.Time, string) { return f.ModTime, f.Path })
	return res, nil
}

type grep struct {
	opts    *Options
	pool    sync.Pool
	mu      sync.Mutex
	files   []File
	errs    []error
	skipped []Skipped
	stats   Stats
}

func (g *grep) addSkipped(sk []Skipped) {
	atomic.AddInt64(&g.stats.Skipped, int64(len(sk)))
	g.mu.Lock()
	for _, k := range sk {
		if len(g.skipped) < maxErrors {
			g.skipped = append(g.skipped, k)
		}
	}
	g.mu.Unlock()
}

func (g *grep) addErr(err error) {
	atomic.AddInt64(&g.stats.Errors, 1)
	g.mu.Lock()
	if len(g.errs) < maxErrors {
		g.errs = append(g.errs, err)
	}
	g.mu.Unlock()
}

func walkOptions(globs, types, typesNot []string, hidden, noIgnore bool, cfg ignore.Config, follow func(string) bool, skip func(string, bool) bool, workers int) (walk.Options, error) {
	ov, err := ignore.NewOverrides(globs)
	if err != nil {
		return walk.Options{}, err
	}
	ty, err := ignore.NewTypes(types, typesNot)
	if err != nil {
		return walk.Options{}, err
	}
	return walk.Options{
		Hidden: hidden, NoIgnore: noIgnore, Ignore: cfg, Overrides: ov, Types: ty,
		Follow: follow, Skip: skip, Workers: workers,
	}, nil
}

// sortFiles sorts newest first, then by path.
func sortFiles[T any](s []T, key func(*T) (time.Time, string)) {
	type item struct {
		t int64
		p string
		i int
	}
	items := make([]item, len(s))
	for i := range s {
		t, p := key(&s[i])
		items[i] = item{t.UnixNano(), p, i}
	}
	slices.SortFunc(items, func(a, b item) int {
		if a.t != b.t {
			return cmp.Compare(b.t, a.t)
		}
		return strings.Compare(a.p, b.p)
	})
	out := make([]T, len(s))
	for k, it := range items {
		out[k] = s[it.i]
	}
	copy(s, out)
}

// EntryType selects the entries Glob reports.
type EntryType uint8

const (
	// Files reports regular files. Symbolic links are reported only when
	// followed (GlobOptions.Follow), as ripgrep --files does.
	Files EntryType = iota
	// Dirs reports directories.
	Dirs
	// Any reports both.
	Any
)

// GlobOptions describes a Glob call. Paths is required; the zero value of
// every other field means defaults.
type GlobOptions struct {
	// Paths are the directories to list.
	Paths []string
	// Pattern is matched against paths relative to each root (see
	// package glob): "*.go" only at the top, "**/*.go" at any depth. An
	// empty pattern matches everything.
	Pattern string
	// FoldCase makes Pattern case-insensitive.
	FoldCase bool
	// Type selects files, directories or both.
	Type EntryType
	// Links lists the symbolic links the walk does not follow among the
	// files, with what lstat says of them (their own modification time);
	// their targets are neither read nor stat'ed.
	Links bool
	// Hidden, NoIgnore, Ignore, Follow, Skip and Workers are passed to
	// the walk; see walk.Options.
	Hidden   bool
	NoIgnore bool
	Ignore   ignore.Config
	Follow   func(target string) bool
	Skip     func(path string, isDir bool) bool
	Workers  int
	// Confine is asked about the real path of each directory the walk
	// starts from (a path, or the literal directories a pattern starts
	// with below it) as it is opened; see walk.Options.Confine.
	Confine func(real string) bool
	// Counts, when set, is kept up to date as the walk runs.
	Counts *Counts
}

// Entry is one path found by Glob.
type Entry struct {
	Path    string
	ModTime time.Time
	IsDir   bool
	Size    int64
}

// GlobResult is the outcome of Glob.
type GlobResult struct {
	// Entries are newest first, then by path.
	Entries []Entry
	// Ignored counts the entries left out by ignore files.
	Ignored int64
}

func (e *Entry) key() (time.Time, string) { return e.ModTime, e.Path }
