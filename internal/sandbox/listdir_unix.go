//go:build unix

package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// ListDir: see listdir.go.
type ListDir struct {
	s  *Set
	f  *os.File // a plain file of the handle: it lists with d_type
	fd int
	p  Path
}

// OpenListDir opens the directory at p for listing, checked as ReadDir
// checks it.
func (s *Set) OpenListDir(p Path) (*ListDir, error) {
	f, _, _, abs, err := s.openIn("readdir", p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := plainDup(f)
	if err != nil {
		return nil, s.fail("readdir", abs, err)
	}
	p.Abs = abs
	return &ListDir{s: s, f: d, fd: int(d.Fd()), p: p}, nil
}

// ReadDir lists the directory (once: a second call lists nothing more),
// sorted by name, with the types the kernel reports. An entry's Info is
// read within the root by path, as ReadDirTypes's is.
func (d *ListDir) ReadDir() ([]os.DirEntry, error) {
	list, err := d.f.ReadDir(-1)
	if err != nil {
		return nil, d.s.fail("readdir", d.p.Abs, err)
	}
	dir := &listedDir{r: d.s.roots[d.p.Root].r, rel: filepath.FromSlash(d.p.Rel)}
	for i, e := range list {
		list[i] = listEntry{DirEntry: e, dir: dir}
	}
	sortEntries(list)
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
	f := os.NewFile(uintptr(fd), p.Abs)
	if f, err = d.s.opened(f, p.Abs); err != nil {
		return nil, err
	}
	return &ListDir{s: d.s, f: f, fd: fd, p: p}, nil
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
func (d *ListDir) Close() error { return d.f.Close() }

// listedDir is the directory a listEntry was listed in: its root and its
// path relative to that root.
type listedDir struct {
	r   *os.Root
	rel string
}

// listEntry is rootEntry for ListDir, whose entries share their
// directory's path rather than each joining its own (Info is rare).
type listEntry struct {
	fs.DirEntry
	dir *listedDir
}

func (e listEntry) Info() (fs.FileInfo, error) {
	return e.dir.r.Lstat(filepath.Join(e.dir.rel, e.Name()))
}
