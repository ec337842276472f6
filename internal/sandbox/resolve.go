package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

const (
	// maxLinks bounds the symlinks one Resolve follows, as Linux does.
	maxLinks = 40
	// maxPath bounds the length of a requested path, as Linux's PATH_MAX
	// does; it keeps the cost of matching deny patterns bounded.
	maxPath = 4096
)

// Resolve turns p (absolute, or relative to cwd; cwd is absolute, and empty
// means Roots()[0]) into a Path inside a root.
//
// It follows symlinks component by component itself: a symlink inside a root
// pointing into another root is allowed and resolution continues in that
// root. A path outside every root (through "..", as an absolute path, or as a
// sibling whose name merely starts with a root's name), a symlink leading
// outside every root, and a deny pattern matching the requested path, the
// resolved path or a symlink on the way are refused with an *Error of Kind
// Denied.
//
// A missing final component or missing parent directories are allowed (Exists
// is false), so that files can be created. A dangling symlink resolves to its
// target when the target is inside a root, so that writing creates the
// target. A trailing slash on a path that exists requires a directory.
func (s *Set) Resolve(cwd, p string) (Path, error) {
	const op = "resolve"
	switch {
	case len(s.roots) == 0:
		return Path{}, invalid(op, p, "the sandbox has no roots")
	case p == "":
		return Path{}, invalid(op, p, "empty path")
	case strings.ContainsRune(p, 0) || strings.ContainsRune(cwd, 0):
		return Path{}, invalid(op, strconv.Quote(p), "the path contains a NUL byte")
	case p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, "~"+string(filepath.Separator)):
		return Path{}, invalid(op, p, "~ is not expanded; give an absolute path or one relative to the working directory")
	}
	if cwd == "" {
		cwd = s.roots[0].path
	} else if !filepath.IsAbs(cwd) {
		return Path{}, invalid(op, cwd, "the working directory is not an absolute path")
	}
	req := p
	if !filepath.IsAbs(req) {
		req = filepath.Join(cwd, req)
	}
	req = filepath.Clean(req)
	if len(req) > maxPath {
		return Path{}, invalid(op, req[:64]+"...", fmt.Sprintf("the path is longer than %d bytes", maxPath))
	}

	start, ok := s.real(req)
	if !ok {
		if gp, ok := s.granted(req); ok {
			if os.IsPathSeparator(p[len(p)-1]) {
				return Path{}, &Error{Kind: NotDir, Op: op, Path: req, Reason: "the path ends in a slash but is not a directory"}
			}
			return gp, nil
		}
		return Path{}, denied(op, req, "is outside the allowed roots", s.Roots())
	}
	if pat, ok := s.deniedBy(req); ok {
		return Path{}, denied(op, req, fmt.Sprintf("matches deny pattern %q", pat), nil)
	}
	w := walker{s: s, req: req}
	abs, exists, isDir, err := w.walk(start)
	if err != nil {
		return Path{}, err
	}
	ri, rel, ok := s.Contains(abs)
	if !ok {
		return Path{}, denied(op, req, fmt.Sprintf("resolves through the symlink %s to %s, outside the allowed roots", w.link, abs), s.Roots())
	}
	if pat, ok := s.deniedBy(abs); ok {
		return Path{}, denied(op, req, fmt.Sprintf("resolves to %s, which matches deny pattern %q", abs, pat), nil)
	}
	if exists && !isDir && os.IsPathSeparator(p[len(p)-1]) {
		return Path{}, &Error{Kind: NotDir, Op: op, Path: req, Reason: "the path ends in a slash but is not a directory"}
	}
	return Path{Abs: abs, Req: req, Root: ri, Rel: rel, Exists: exists}, nil
}

// real maps a clean absolute path inside a root, or inside a root as it was
// spelled before its symlinks were evaluated, to the path inside the real root.
func (s *Set) real(abs string) (string, bool) {
	if _, _, ok := s.Contains(abs); ok {
		return abs, true
	}
	for _, r := range s.roots {
		if r.given == "" {
			continue
		}
		if rel, ok := within(r.given, abs); ok {
			return filepath.Join(r.path, filepath.FromSlash(rel)), true
		}
	}
	return "", false
}

// walker follows one path through the roots.
type walker struct {
	s     *Set
	req   string // for messages
	links int    // symlinks followed so far
	link  string // the last symlink followed
}

// walk resolves start, which lies inside a root, and returns the absolute
// symlink-free path it leads to, whether that exists and whether it is a
// directory. Components inside a root are examined through its os.Root;
// where a symlink target leaves every root the walk goes on lexically, since
// it must come back into a root to be of any use.
func (w *walker) walk(start string) (abs string, exists, isDir bool, err error) {
	ri, rel, _ := w.s.Contains(start)
	cur := w.s.roots[ri].path
	todo := split(rel)
	exists, isDir = true, true
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		if name == ".." {
			if !exists {
				// The kernel would fail here too: "missing/.." does not exist.
				return "", false, false, &Error{Kind: NotFound, Op: "resolve", Path: w.req, Reason: cur + " does not exist", Err: fs.ErrNotExist}
			}
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, name)
		if !exists {
			cur = next
			continue
		}
		ri, rel, in := w.s.Contains(next)
		if real, ok := w.s.real(next); !in && ok {
			// A symlink target spelled with a root's unevaluated name.
			next = real
			ri, rel, in = w.s.Contains(next)
		}
		if !in {
			cur = next
			continue
		}
		r := w.s.roots[ri].r
		fi, err := r.Lstat(filepath.FromSlash(rel))
		if errors.Is(err, fs.ErrNotExist) {
			exists, isDir = false, false
			cur = next
			continue
		}
		if err != nil {
			return "", false, false, w.s.fail("resolve", next, err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			isDir = fi.IsDir()
			if !isDir && len(todo) > 0 {
				return "", false, false, &Error{Kind: NotDir, Op: "resolve", Path: w.req, Reason: next + " is not a directory", Err: syscall.ENOTDIR}
			}
			cur = next
			continue
		}
		if w.links++; w.links > maxLinks {
			return "", false, false, &Error{Kind: IO, Op: "resolve", Path: w.req, Reason: "too many levels of symbolic links", Err: syscall.ELOOP}
		}
		if pat, ok := w.s.deniedBy(next); ok {
			return "", false, false, denied("resolve", w.req, fmt.Sprintf("passes through the symlink %s, which matches deny pattern %q", next, pat), nil)
		}
		target, err := r.Readlink(filepath.FromSlash(rel))
		if err == nil && target == "" {
			err = fs.ErrNotExist // as Linux treats an empty target
		}
		if err != nil {
			return "", false, false, w.s.fail("resolve", next, err)
		}
		w.link = next
		if filepath.IsAbs(target) {
			vol := filepath.VolumeName(target)
			cur = vol + string(filepath.Separator)
			target = target[len(vol):]
		}
		todo = append(split(filepath.ToSlash(target)), todo...)
	}
	return cur, exists, isDir, nil
}

// split returns the components of a slash path, without empty and "."
// components.
func split(p string) []string {
	var out []string
	for c := range strings.SplitSeq(p, "/") {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return out
}
