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

// Dir is a directory opened by OpenDir. Its methods are safe for
// concurrent use; Close it when done.
type Dir struct {
	f    *os.File // the handle
	path string   // the anchor joined with the names, as given
	real string   // where the kernel says it is, or path
}

// OpenDir opens the directory anchor/elems[0]/elems[1]/…, making each
// missing directory of elems with mode 0700. The anchor (a home
// directory, /tmp) is trusted as given; each of elems is opened relative
// to its parent's handle with O_NOFOLLOW, and refused (an *Error of Kind
// Denied) when it is a symbolic link, not a directory, not owned by the
// server's user, or writable by its group or others: a directory someone
// else could change or swap is not one the server writes in.
func OpenDir(anchor string, elems ...string) (*Dir, error) {
	fd, err := unix.Open(anchor, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &Error{Kind: IO, Op: "open directory", Path: anchor, Err: err}
	}
	path := anchor
	for _, e := range elems {
		path = filepath.Join(path, e)
		next, err := subdir(fd, path, e)
		unix.Close(fd)
		if err != nil {
			return nil, err
		}
		fd = next
	}
	return newDir(fd, path), nil
}

// Sub opens the directory name in d, making it with mode 0700 when it is
// missing, and checking it as OpenDir checks each of its elems.
func (d *Dir) Sub(name string) (*Dir, error) {
	path := filepath.Join(d.path, name)
	fd, err := subdir(d.fd(), path, name)
	if err != nil {
		return nil, err
	}
	return newDir(fd, path), nil
}

func newDir(fd int, path string) *Dir {
	d := &Dir{f: os.NewFile(uintptr(fd), path), path: path, real: path}
	if real, ok := openedPath(d.f); ok {
		d.real = real
	}
	return d
}

// subdir opens (after making it when missing) the directory name in the
// directory fd, refusing a link, something else than a directory, one
// another user owns, and one its group or others may write.
func subdir(fd int, path, name string) (int, error) {
	const op = "open directory"
	if err := checkName(op, name); err != nil {
		return -1, err
	}
	if err := unix.Mkdirat(fd, name, 0o700); err != nil && !errors.Is(err, unix.EEXIST) {
		return -1, &Error{Kind: IO, Op: op, Path: path, Err: err}
	}
	next, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
		return -1, denied(op, path, "is a symbolic link or not a directory", nil)
	}
	if err != nil {
		return -1, &Error{Kind: IO, Op: op, Path: path, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(next, &st); err != nil {
		unix.Close(next)
		return -1, &Error{Kind: IO, Op: op, Path: path, Err: err}
	}
	if int(st.Uid) != os.Geteuid() {
		unix.Close(next)
		return -1, denied(op, path, fmt.Sprintf("is owned by user %d, not by this server's user %d", st.Uid, os.Geteuid()), nil)
	}
	if st.Mode&0o022 != 0 {
		unix.Close(next)
		return -1, denied(op, path, fmt.Sprintf("is writable by its group or others (mode %#o)", st.Mode&0o777), nil)
	}
	return next, nil
}

// Path returns the directory's path as OpenDir was given it.
func (d *Dir) Path() string { return d.path }

// stat describes the directory.
func (d *Dir) stat() (os.FileInfo, error) { return d.f.Stat() }

// Close closes the handle.
func (d *Dir) Close() error { return d.f.Close() }

func (d *Dir) fd() int { return int(d.f.Fd()) }

// Create makes the file name in d, new (O_EXCL, so never through a link
// or over a file already there), for reading and writing, with mode perm.
func (d *Dir) Create(name string, perm os.FileMode) (*os.File, error) {
	return d.openat("create", name, unix.O_RDWR|unix.O_CREAT|unix.O_EXCL, perm)
}

// Open opens the regular file name in d for reading, refusing a link.
func (d *Dir) Open(name string) (*os.File, error) {
	f, err := d.openat("open", name, unix.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = denied("open", f.Name(), "is not a regular file", nil)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Append opens the regular file name in d for appending, refusing a link.
func (d *Dir) Append(name string) (*os.File, error) {
	f, err := d.openat("append", name, unix.O_WRONLY|unix.O_APPEND|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = denied("append", f.Name(), "is not a regular file", nil)
		}
		return nil, err
	}
	return f, nil
}

func (d *Dir) openat(op, name string, flag int, perm os.FileMode) (*os.File, error) {
	if err := checkName(op, name); err != nil {
		return nil, err
	}
	path := filepath.Join(d.path, name)
	fd, err := unix.Openat(d.fd(), name, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return nil, d.fail(op, path, err)
	}
	return os.NewFile(uintptr(fd), path), nil
}

// Remove removes the file name from d, not following a link.
func (d *Dir) Remove(name string) error {
	if err := checkName("remove", name); err != nil {
		return err
	}
	return d.fail("remove", filepath.Join(d.path, name), unix.Unlinkat(d.fd(), name, 0))
}

// RemoveDir removes the empty directory name from d.
func (d *Dir) RemoveDir(name string) error {
	if err := checkName("remove", name); err != nil {
		return err
	}
	return d.fail("remove", filepath.Join(d.path, name), unix.Unlinkat(d.fd(), name, unix.AT_REMOVEDIR))
}

func (d *Dir) fail(op, path string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.ENOENT):
		return &Error{Kind: NotFound, Op: op, Path: path, Reason: "no such file or directory", Err: fs.ErrNotExist}
	case errors.Is(err, unix.EEXIST):
		return &Error{Kind: IO, Op: op, Path: path, Reason: "something is already there", Err: fs.ErrExist}
	case errors.Is(err, unix.ELOOP):
		return denied(op, path, "is a symbolic link", nil)
	}
	return &Error{Kind: IO, Op: op, Path: path, Err: err}
}
