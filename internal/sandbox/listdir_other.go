//go:build !unix

package sandbox

import (
	"os"
)

// ListDir: see listdir.go. Here each operation goes through Resolve.
type ListDir struct {
	s *Set
	p Path
}

// OpenListDir opens the directory at p for listing, checked as ReadDir
// checks it.
func (s *Set) OpenListDir(p Path) (*ListDir, error) {
	if _, _, _, err := s.at("readdir", p); err != nil {
		return nil, err
	}
	return &ListDir{s: s, p: p}, nil
}

// ReadDir lists the directory, sorted by name.
func (d *ListDir) ReadDir() ([]os.DirEntry, error) { return d.s.ReadDirTypes(d.p) }

// Sub opens the subdirectory name of d.
func (d *ListDir) Sub(name string) (*ListDir, error) {
	if err := checkName("readdir", name); err != nil {
		return nil, err
	}
	p, err := d.s.Resolve(d.p.Abs, name)
	if err != nil {
		return nil, err
	}
	if !p.Exists {
		return nil, &Error{Kind: NotFound, Op: "readdir", Path: p.Abs, Reason: "no such file or directory"}
	}
	return d.s.OpenListDir(p)
}

// Open opens the file name of d for reading.
func (d *ListDir) Open(name string) (*os.File, error) {
	if err := checkName("open", name); err != nil {
		return nil, err
	}
	p, err := d.s.Resolve(d.p.Abs, name)
	if err != nil {
		return nil, err
	}
	f, err := d.s.Open(p)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, &Error{Kind: IO, Op: "open", Path: p.Abs, Reason: "not a regular file"}
	}
	return f, nil
}

// Close releases the directory.
func (d *ListDir) Close() error { return nil }
