//go:build !linux

package walk

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// dirRef is a directory by its path: elsewhere than Linux the walk opens
// by path, and a directory swapped for a link while it runs can be
// followed.
type dirRef struct{ path string }

func (d *dirRef) acquire() {}
func (d *dirRef) release() {}

func openRootDir(path string) (*dirRef, string, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, "", err
	}
	return &dirRef{path: path}, real, nil
}

func (d *dirRef) openDir(name string) (*dirRef, error) {
	p := filepath.Join(d.path, name)
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, syscall.ENOTDIR
	}
	return &dirRef{path: p}, nil
}

type dirent struct {
	name string
	typ  fs.FileMode
}

func (d *dirRef) readDir([]byte) ([]dirent, error) {
	ents, err := os.ReadDir(d.path)
	out := make([]dirent, len(ents))
	for i, e := range ents {
		out[i] = dirent{e.Name(), e.Type()}
	}
	return out, err
}

// Info is what Stat or Open learned about a file.
type Info struct {
	ModTime time.Time
	Size    int64
	Type    fs.FileMode // the type bits, as in Entry.Type
	Links   uint64      // the number of hard links; 1 where the platform does not say
}

func infoOf(fi fs.FileInfo) Info {
	return Info{ModTime: fi.ModTime(), Size: fi.Size(), Type: fi.Mode().Type(), Links: links(fi)}
}

func (e Entry) openPath() string {
	if e.target != "" {
		return e.target
	}
	return e.Path
}

// File is an open file.
type File struct{ f *os.File }

// Read reads like io.Reader, except that the end of the file is a read of
// 0 bytes with no error.
func (f File) Read(p []byte) (int, error) {
	n, err := f.f.Read(p)
	if err == io.EOF {
		err = nil
	}
	return n, err
}

// Close closes the file.
func (f File) Close() error { return f.f.Close() }

// Info returns what fstat says of the file.
func (f File) Info() (Info, error) {
	fi, err := f.f.Stat()
	if err != nil {
		return Info{}, err
	}
	return infoOf(fi), nil
}

// Open opens the entry's file for reading. The caller closes the file.
func (e Entry) Open() (File, error) {
	f, err := os.Open(e.openPath())
	return File{f}, err
}

// Stat returns what lstat says of the entry (stat, for a followed link).
func (e Entry) Stat() (Info, error) {
	fi, err := os.Lstat(e.openPath())
	if err != nil {
		return Info{}, err
	}
	return infoOf(fi), nil
}
