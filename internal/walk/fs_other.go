//go:build !linux

package walk

import (
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
	Links   uint64      // the number of hard links
}

func infoOf(fi fs.FileInfo) Info {
	info := Info{ModTime: fi.ModTime(), Size: fi.Size(), Type: fi.Mode().Type(), Links: 1}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		info.Links = uint64(st.Nlink)
	}
	return info
}

func (e Entry) openPath() string {
	if e.target != "" {
		return e.target
	}
	return e.Path
}

// Open opens the entry's file for reading and returns its descriptor.
// The caller closes the descriptor.
func (e Entry) Open() (int, error) {
	fd, err := syscall.Open(e.openPath(), syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: e.Path, Err: err}
	}
	return fd, nil
}

// FileInfo returns what fstat says of an open descriptor.
func FileInfo(fd int) (Info, error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return Info{}, err
	}
	info := Info{ModTime: time.Unix(st.Mtimespec.Sec, st.Mtimespec.Nsec), Size: st.Size, Links: uint64(st.Nlink)}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFDIR:
		info.Type = fs.ModeDir
	case syscall.S_IFLNK:
		info.Type = fs.ModeSymlink
	case syscall.S_IFREG:
	default:
		info.Type = fs.ModeIrregular
	}
	return info, nil
}

// Stat returns what lstat says of the entry (stat, for a followed link).
func (e Entry) Stat() (Info, error) {
	fi, err := os.Lstat(e.openPath())
	if err != nil {
		return Info{}, err
	}
	return infoOf(fi), nil
}
