//go:build unix

package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// ListDir: see listdir.go. Below the directory OpenListDir opened, a
// ListDir holds a plain descriptor, not an os.File: an os.File costs a
// fcntl, a finalizer and (listed through it) an entry per name allocated
// apart, for a handle that is only listed and closed.
type ListDir struct {
	s  *Set
	f  *os.File // the directory OpenListDir opened, nil below it
	fd int
	p  Path
}

// OpenListDir opens the directory at p for listing, checked as ReadDir
// checks it.
func (s *Set) OpenListDir(p Path) (*ListDir, error) {
	if _, rel, abs, err := s.at("readdir", p); err != nil {
		return nil, err
	} else if fd, err := openBeneath(s.roots[p.Root].dir, rel); err == nil {
		// Checked as openIn checks what it opens.
		real, known := fdPath(fd)
		if err := s.checkOpened(real, known, abs); err != nil {
			unix.Close(fd)
			return nil, err
		}
		p.Abs = abs
		return &ListDir{s: s, fd: fd, p: p}, nil
	}
	f, _, _, abs, err := s.openIn("readdir", p)
	if err != nil {
		return nil, err
	}
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, s.fail("readdir", abs, err)
	}
	fd := -1
	if err := rc.Control(func(raw uintptr) { fd = int(raw) }); err != nil {
		f.Close()
		return nil, s.fail("readdir", abs, err)
	}
	p.Abs = abs
	return &ListDir{s: s, f: f, fd: fd, p: p}, nil
}

// ReadDir lists the directory (once: a second call lists nothing more),
// sorted by name, with the types the kernel reports. An entry's Info is
// read within the root by path, as ReadDirTypes's is.
func (d *ListDir) ReadDir() ([]os.DirEntry, error) {
	ents, err := readEntries(d.fd)
	if err != nil {
		return nil, d.s.fail("readdir", d.p.Abs, err)
	}
	slices.SortFunc(ents, func(a, b listEntry) int { return strings.Compare(a.name, b.name) })
	dir := &listedDir{r: d.s.roots[d.p.Root].r, rel: filepath.FromSlash(d.p.Rel)}
	list := make([]os.DirEntry, len(ents))
	for i := range ents {
		ents[i].dir = dir
		list[i] = &ents[i]
	}
	return list, nil
}

// Sub opens the subdirectory name of d. A link, something other than a
// directory, a denied path and one that is found elsewhere than d's entry
// of that name (d was moved out of the roots) are refused.
func (d *ListDir) Sub(name string) (*ListDir, error) {
	const op = "readdir"
	if err := checkName(op, name); err != nil {
		return nil, err
	}
	p := d.child(name)
	if pat, ok := d.s.deniedBy(p.Abs); ok {
		return nil, denied(op, p.Abs, fmt.Sprintf("matches deny pattern %q", pat), nil)
	}
	fd, err := openat(d.fd, name, unix.O_DIRECTORY)
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
		return nil, denied(op, p.Abs, "is a symbolic link or not a directory", nil)
	}
	if err != nil {
		return nil, d.s.fail(op, p.Abs, err)
	}
	real, known := fdPath(fd)
	if err := d.s.checkOpened(real, known, p.Abs); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return &ListDir{s: d.s, fd: fd, p: p}, nil
}

// Open opens the regular file name of d for reading; a link or anything
// other than a regular file is refused.
func (d *ListDir) Open(name string) (*os.File, error) {
	const op = "open"
	if err := checkName(op, name); err != nil {
		return nil, err
	}
	p := d.child(name)
	if pat, ok := d.s.deniedBy(p.Abs); ok {
		return nil, denied(op, p.Abs, fmt.Sprintf("matches deny pattern %q", pat), nil)
	}
	fd, err := openat(d.fd, name, unix.O_NONBLOCK)
	if errors.Is(err, unix.ELOOP) {
		return nil, denied(op, p.Abs, "is a symbolic link", nil)
	}
	if err != nil {
		return nil, d.s.fail(op, p.Abs, err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, d.s.fail(op, p.Abs, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return nil, &Error{Kind: IO, Op: op, Path: p.Abs, Reason: "not a regular file"}
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, d.s.fail(op, p.Abs, err)
	}
	return d.s.opened(os.NewFile(uintptr(fd), p.Abs), p.Abs)
}

// openat opens name in the directory dirfd read-only, never following a
// link.
func openat(dirfd int, name string, flag int) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|flag, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// Close closes the directory's handle.
func (d *ListDir) Close() error {
	if d.f != nil {
		return d.f.Close()
	}
	return unix.Close(d.fd)
}

// listedDir is the directory a listEntry was listed in: its root and its
// path relative to that root.
type listedDir struct {
	r   *os.Root
	rel string
}

// listEntry is rootEntry for ListDir: the entries of one listing are one
// slice, their names cut from one string, and they share their
// directory's path rather than each joining its own (Info is rare).
type listEntry struct {
	name string
	typ  fs.FileMode
	dir  *listedDir
}

func (e *listEntry) Name() string      { return e.name }
func (e *listEntry) IsDir() bool       { return e.typ.IsDir() }
func (e *listEntry) Type() fs.FileMode { return e.typ }
func (e *listEntry) String() string    { return fs.FormatDirEntry(e) }
func (e *listEntry) Info() (fs.FileInfo, error) {
	return e.dir.r.Lstat(filepath.Join(e.dir.rel, e.name))
}
