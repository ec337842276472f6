//go:build !unix

package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Dir is a directory opened by OpenDir. Its methods are safe for
// concurrent use; Close it when done.
type Dir struct {
	r    *os.Root
	path string
	real string
}

// OpenDir opens the directory anchor/elems[0]/elems[1]/…, making each
// missing directory of elems with mode 0700; a component that is a
// symbolic link or not a directory is refused (an *Error of Kind Denied).
// Ownership is not checked on this system.
func OpenDir(anchor string, elems ...string) (*Dir, error) {
	r, err := os.OpenRoot(anchor)
	if err != nil {
		return nil, &Error{Kind: IO, Op: "open directory", Path: anchor, Err: err}
	}
	d := &Dir{r: r, path: anchor, real: anchor}
	for _, e := range elems {
		next, err := d.Sub(e)
		d.Close()
		if err != nil {
			return nil, err
		}
		d = next
	}
	return d, nil
}

// Sub opens the directory name in d, making it with mode 0700 when it is
// missing, and checking it as OpenDir checks each of its elems.
func (d *Dir) Sub(name string) (*Dir, error) {
	const op = "open directory"
	if err := checkName(op, name); err != nil {
		return nil, err
	}
	path := filepath.Join(d.path, name)
	if err := d.r.Mkdir(name, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, &Error{Kind: IO, Op: op, Path: path, Err: err}
	}
	fi, err := d.r.Lstat(name)
	if err == nil && (fi.Mode()&fs.ModeSymlink != 0 || !fi.IsDir()) {
		return nil, denied(op, path, "is a symbolic link or not a directory", nil)
	}
	var r *os.Root
	if err == nil {
		r, err = d.r.OpenRoot(name)
	}
	if err != nil {
		return nil, &Error{Kind: IO, Op: op, Path: path, Err: err}
	}
	return &Dir{r: r, path: path, real: path}, nil
}

// Path returns the directory's path as OpenDir was given it.
func (d *Dir) Path() string { return d.path }

// stat describes the directory.
func (d *Dir) stat() (os.FileInfo, error) { return d.r.Stat(".") }

// Close closes the handle.
func (d *Dir) Close() error { return d.r.Close() }

// Create makes the file name in d, new (O_EXCL), for reading and writing.
func (d *Dir) Create(name string, perm os.FileMode) (*os.File, error) {
	if err := checkName("create", name); err != nil {
		return nil, err
	}
	f, err := d.r.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
	return f, d.fail("create", name, err)
}

// Open opens the regular file name in d for reading, refusing a link.
func (d *Dir) Open(name string) (*os.File, error) {
	if err := checkName("open", name); err != nil {
		return nil, err
	}
	fi, err := d.r.Lstat(name)
	if err == nil && !fi.Mode().IsRegular() {
		return nil, denied("open", filepath.Join(d.path, name), "is not a regular file", nil)
	}
	if err != nil {
		return nil, d.fail("open", name, err)
	}
	f, err := d.r.Open(name)
	return f, d.fail("open", name, err)
}

// Append opens the regular file name in d for appending, refusing a link.
func (d *Dir) Append(name string) (*os.File, error) {
	if err := checkName("append", name); err != nil {
		return nil, err
	}
	fi, err := d.r.Lstat(name)
	if err == nil && !fi.Mode().IsRegular() {
		return nil, denied("append", filepath.Join(d.path, name), "is not a regular file", nil)
	}
	if err != nil {
		return nil, d.fail("append", name, err)
	}
	f, err := d.r.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	return f, d.fail("append", name, err)
}

// Remove removes the file name from d.
func (d *Dir) Remove(name string) error {
	if err := checkName("remove", name); err != nil {
		return err
	}
	return d.fail("remove", name, d.r.Remove(name))
}

// RemoveDir removes the empty directory name from d.
func (d *Dir) RemoveDir(name string) error { return d.Remove(name) }

func (d *Dir) fail(op, name string, err error) error {
	if err == nil {
		return nil
	}
	path := filepath.Join(d.path, name)
	if errors.Is(err, fs.ErrNotExist) {
		return &Error{Kind: NotFound, Op: op, Path: path, Reason: "no such file or directory", Err: err}
	}
	return &Error{Kind: IO, Op: op, Path: path, Err: err}
}
