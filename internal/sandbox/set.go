// Package sandbox confines file access to a set of root directories.
//
// A Set holds one os.Root per root directory and a list of gitignore-style
// deny patterns. Resolve turns a path a tool was given into a Path: it follows
// symbolic links itself, one component at a time, so that a link from one root
// into another works, and it refuses, with an *Error of Kind Denied, a path
// that lies or leads outside every root or matches a deny pattern. The
// operations (Open, Stat, WriteFile, ...) then act through the os.Root of the
// resolved path's root, so a component swapped for an escaping symlink after
// Resolve makes the operation fail instead of reaching outside.
//
// What is promised:
//   - No operation of a Set reads, writes, creates or removes a file outside
//     the roots, whatever the path and whatever other processes do
//     concurrently (os.Root holds each root open and refuses symlinks that
//     leave it).
//   - A path that matches a deny pattern, before or after following symlinks,
//     or that passes through a symlink placed in a denied location, is refused.
//   - WriteFile replaces a file atomically: readers see the old or the new
//     content, never a mix, and a failed write leaves no temporary file.
//
// What is not:
//   - Deny patterns are checked by name, by Resolve and again by each
//     operation; Open and OpenFile also check what they opened, by the
//     name the kernel gives it (Linux), so a component swapped for a
//     symlink to a denied file between the check and the open is refused.
//     Stat and ReadDir follow such a swap (os.Root follows symlinks that
//     stay in the root) and may describe the denied file.
//   - Hard links, bind mounts, /proc and device files inside a root are not
//     detected, as os.Root does not detect them. Hard links are kept by
//     choice (pnpm's node_modules and `git clone --local` are made of
//     them): a file linked in from outside is read like any other, but
//     WriteFile replaces it by rename, so the other names keep their
//     content; `hands doctor` counts them.
//   - Commands run by a shell are not confined by a Set: no path check can
//     confine them.
//   - Paths are handled as strings: ".." is removed lexically before symlinks
//     are followed (like a shell's cd), "~" is not expanded but refused,
//     and roots are compared case-sensitively.
package sandbox

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Set confines file access to its roots. It is safe for concurrent use; Close
// it when done.
type Set struct {
	roots []root
	deny  []pattern

	// beforeRename, when set by a test, runs in WriteFile just before the
	// temporary file is renamed over the target.
	beforeRename func()

	log *tempLog // see SetTempLog

	grants *Grants // see WithGrants
	view   bool    // made by WithGrants: Close leaves the roots open
}

// tempLog is where WriteFile logs its temporary files (see SetTempLog).
type tempLog struct {
	mu sync.Mutex
	f  *os.File
}

type root struct {
	path  string // absolute, clean, symlinks evaluated
	given string // absolute and clean as given, when it differs from path
	r     *os.Root
	dir   *os.File // the root directory, to open beneath (see openBeneath); nil where unused
}

// Path is a path resolved by Resolve: inside a root and not denied.
type Path struct {
	// Abs is the resolved absolute path, symlinks followed.
	Abs string
	// Req is the requested path, absolute and cleaned, before following
	// symlinks.
	Req string
	// Root is the index in Roots of the root that holds Abs.
	Root int
	// Rel is the slash-separated path of Abs relative to that root, "." for
	// the root itself.
	Rel string
	// Exists reports whether Abs existed when it was resolved.
	Exists bool

	grant *grant // a granted file outside the roots (see Grants); Root is -1
}

// New opens one os.Root per root directory. Roots are made absolute, cleaned
// and have symlinks evaluated; each must exist and be a directory. A root
// given twice is kept once. deny are gitignore-style glob patterns (".env",
// "**/*.pem", ".git/**", "secrets/", "/build" anchored to the root) matched
// against the path relative to each root and against each of its parent
// directories; a pattern starting with "/" is also matched against the
// absolute path. Negated patterns ("!x") are refused.
func New(roots []string, deny []string) (*Set, error) {
	if len(roots) == 0 {
		return nil, invalid("open root", "", "no root directory given")
	}
	pats, err := compileDeny(deny)
	if err != nil {
		return nil, &Error{Kind: Invalid, Op: "compile", Reason: err.Error(), Err: err}
	}
	s := &Set{deny: pats, log: &tempLog{}}
	for _, dir := range roots {
		rt, err := openRoot(dir)
		if err != nil {
			s.Close()
			return nil, err
		}
		if slices.ContainsFunc(s.roots, func(o root) bool { return o.path == rt.path }) {
			if rt.dir != nil {
				rt.dir.Close()
			}
			rt.r.Close()
			continue
		}
		s.roots = append(s.roots, rt)
	}
	return s, nil
}

func openRoot(dir string) (root, error) {
	const op = "open root"
	if dir == "" || strings.ContainsRune(dir, 0) {
		return root{}, invalid(op, dir, "not a directory name")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return root{}, &Error{Kind: IO, Op: op, Path: dir, Err: err}
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return root{}, rootErr(abs, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return root{}, rootErr(abs, err)
	}
	if !fi.IsDir() {
		return root{}, &Error{Kind: NotDir, Op: op, Path: abs, Reason: "the root is not a directory"}
	}
	r, err := os.OpenRoot(real)
	if err != nil {
		return root{}, rootErr(abs, err)
	}
	rt := root{path: real, r: r, dir: rootHandle(r)}
	if abs != real {
		rt.given = abs
	}
	return rt, nil
}

func rootErr(abs string, err error) error {
	if errors.Is(err, os.ErrNotExist) {
		return &Error{Kind: NotFound, Op: "open root", Path: abs, Reason: "the root does not exist", Err: err}
	}
	return &Error{Kind: IO, Op: "open root", Path: abs, Err: err}
}

// Close closes the roots. Operations after Close fail.
func (s *Set) Close() error {
	if s.view {
		return nil
	}
	var errs []error
	for _, r := range s.roots {
		if r.dir != nil {
			r.dir.Close()
		}
		errs = append(errs, r.r.Close())
	}
	return errors.Join(errs...)
}

// Roots returns the absolute roots, symlinks evaluated, in the order given.
// Roots()[0] is the default working directory.
func (s *Set) Roots() []string {
	out := make([]string, len(s.roots))
	for i, r := range s.roots {
		out[i] = r.path
	}
	return out
}

// Contains reports whether abs lies lexically inside some root, and which:
// the index of the innermost root holding it and the slash-separated path
// relative to that root ("." for the root itself). abs is cleaned first; a
// relative path is never contained.
func (s *Set) Contains(abs string) (root int, rel string, ok bool) {
	if !filepath.IsAbs(abs) {
		return 0, "", false
	}
	abs = filepath.Clean(abs)
	best := -1
	for i, r := range s.roots {
		if rl, in := within(r.path, abs); in && (best < 0 || len(r.path) > len(s.roots[best].path)) {
			best, rel = i, rl
		}
	}
	return max(best, 0), rel, best >= 0
}

// within returns the slash path of abs relative to dir, if abs is dir or
// below it. Both must be clean and absolute.
func within(dir, abs string) (string, bool) {
	if abs == dir {
		return ".", true
	}
	prefix := dir
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	if !strings.HasPrefix(abs, prefix) {
		return "", false
	}
	return filepath.ToSlash(abs[len(prefix):]), true
}

// at checks a Path handed back to an operation (it may not come from
// Resolve) and returns its os.Root, its name relative to it and its absolute
// name for messages.
func (s *Set) at(op string, p Path) (*os.Root, string, string, error) {
	if p.grant != nil {
		return nil, "", p.Abs, refuseGrant(op, p)
	}
	if p.Root < 0 || p.Root >= len(s.roots) {
		return nil, "", p.Abs, invalid(op, p.Abs, "path not resolved by this sandbox")
	}
	r := s.roots[p.Root]
	if p.Rel == "" || strings.ContainsRune(p.Rel, 0) {
		return nil, "", p.Abs, invalid(op, p.Abs, "path not resolved by this sandbox")
	}
	rel := filepath.FromSlash(p.Rel)
	abs := filepath.Join(r.path, rel)
	if !filepath.IsLocal(rel) {
		return nil, "", abs, denied(op, abs, "is outside the allowed roots", s.Roots())
	}
	if pat, ok := s.deniedBy(abs); ok {
		return nil, "", abs, denied(op, abs, fmt.Sprintf("matches deny pattern %q", pat), nil)
	}
	return r.r, rel, abs, nil
}

// Open opens the file or directory at p for reading.
func (s *Set) Open(p Path) (*os.File, error) {
	if p.grant != nil {
		return openGrant(p)
	}
	f, _, _, _, err := s.openIn("open", p)
	return f, err
}

// openIn opens the file or directory at p for reading within its root and
// checks, by where the kernel says it is, that what was opened is still in
// a root and not denied (see opened). It returns the root and p's name
// relative to it, and its absolute name for messages.
func (s *Set) openIn(op string, p Path) (f *os.File, r *os.Root, rel, abs string, err error) {
	r, rel, abs, err = s.at(op, p)
	if err != nil {
		return nil, nil, "", abs, err
	}
	if f, err = r.Open(rel); err != nil {
		return nil, nil, "", abs, s.fail(op, abs, err)
	}
	if f, err = s.opened(f, abs); err != nil {
		return nil, nil, "", abs, err
	}
	return f, r, rel, abs, nil
}

// opened checks what an operation opened, as the kernel names it: os.Root
// follows links that stay in the root, so a component swapped for a link
// to a denied file between Resolve and the open would be read. What was
// opened must be inside a root and not denied.
func (s *Set) opened(f *os.File, abs string) (*os.File, error) {
	real, ok := openedPath(f)
	if err := s.checkOpened(real, ok, abs); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// checkOpened checks real, where the kernel says what was opened as abs
// is (when known), as opened does.
func (s *Set) checkOpened(real string, known bool, abs string) error {
	if !known || real == abs {
		return nil
	}
	if _, _, in := s.Contains(real); !in {
		return denied("open", abs, "leads outside the allowed roots (it changed while it was opened)", s.Roots())
	}
	if pat, ok := s.deniedBy(real); ok {
		return denied("open", abs, fmt.Sprintf("leads to %s, which matches deny pattern %q (it changed while it was opened)", real, pat), nil)
	}
	return nil
}

// OpenFile opens the file at p with the flags and permission of os.OpenFile.
// O_CREATE does not create missing parent directories; see MkdirAll.
func (s *Set) OpenFile(p Path, flag int, perm os.FileMode) (*os.File, error) {
	if p.grant != nil && flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) == 0 {
		return openGrant(p)
	}
	r, rel, abs, err := s.at("open", p)
	if err != nil {
		return nil, err
	}
	f, err := r.OpenFile(rel, flag, perm)
	if err != nil {
		return nil, s.fail("open", abs, err)
	}
	return s.opened(f, abs)
}

// Stat returns information about the file at p, following a final symlink
// that stays inside its root.
func (s *Set) Stat(p Path) (os.FileInfo, error) {
	if p.grant != nil {
		return statGrant(p)
	}
	r, rel, abs, err := s.at("stat", p)
	if err != nil {
		return nil, err
	}
	fi, err := r.Stat(rel)
	return fi, s.fail("stat", abs, err)
}

// Lstat returns information about the file at p without following a final
// symlink.
func (s *Set) Lstat(p Path) (os.FileInfo, error) {
	if p.grant != nil {
		return statGrant(p)
	}
	r, rel, abs, err := s.at("lstat", p)
	if err != nil {
		return nil, err
	}
	fi, err := r.Lstat(rel)
	return fi, s.fail("lstat", abs, err)
}

// ReadDir returns the entries of the directory at p sorted by name, with
// each entry's Info read as it is listed. Denied entries are listed;
// callers that must hide them check Denied.
func (s *Set) ReadDir(p Path) ([]os.DirEntry, error) {
	return s.readDir(p, false)
}

// ReadDirTypes is ReadDir for callers that need the entries' names and
// types only: the Info of an entry is read when asked for (an lstat within
// the root), not for every entry as ReadDir does (a directory opened in an
// os.Root lstats each entry while listing it).
func (s *Set) ReadDirTypes(p Path) ([]os.DirEntry, error) {
	return s.readDir(p, true)
}

func (s *Set) readDir(p Path, lazy bool) ([]os.DirEntry, error) {
	// os.Root keeps the open inside the root; what was opened must also
	// not be a denied directory swapped in after Resolve.
	f, r, rel, abs, err := s.openIn("readdir", p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var list []os.DirEntry
	if lazy {
		list, err = readDirTypes(f, r, rel)
	} else {
		list, err = f.ReadDir(-1)
	}
	if err != nil {
		return nil, s.fail("readdir", abs, err)
	}
	slices.SortFunc(list, func(a, b os.DirEntry) int { return cmp.Compare(a.Name(), b.Name()) })
	return list, nil
}

// MkdirAll creates the directory at p and any missing parents.
func (s *Set) MkdirAll(p Path, perm os.FileMode) error {
	r, rel, abs, err := s.at("mkdir", p)
	if err != nil {
		return err
	}
	return s.fail("mkdir", abs, r.MkdirAll(rel, perm))
}

// Remove removes the file or empty directory at p. A root itself cannot be
// removed.
func (s *Set) Remove(p Path) error {
	r, rel, abs, err := s.at("remove", p)
	if err != nil {
		return err
	}
	if rel == "." {
		return invalid("remove", abs, "a root cannot be removed")
	}
	return s.fail("remove", abs, r.Remove(rel))
}
