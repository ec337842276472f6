//go:build unix

package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// readDirTypes lists the directory f, opened in r at rel, with the types
// the kernel reports (d_type) and no lstat per entry: it reads a duplicate
// of f's descriptor as a file of no root, which lists lazily. Only names
// come from that descriptor; an entry's Info is read through r.
func readDirTypes(f *os.File, r *os.Root, rel string) ([]os.DirEntry, error) {
	d, err := plainDup(f)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	list, err := d.ReadDir(-1)
	for i, e := range list {
		list[i] = rootEntry{DirEntry: e, r: r, rel: filepath.Join(rel, e.Name())}
	}
	return list, err
}

// plainDup returns a duplicate of f's descriptor as a file of no root,
// which lists lazily (a file opened through an os.Root lstats each entry
// as it lists).
func plainDup(f *os.File) (*os.File, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	fd, derr := -1, error(nil)
	if err := rc.Control(func(raw uintptr) { fd, derr = unix.FcntlInt(raw, unix.F_DUPFD_CLOEXEC, 0) }); err != nil {
		return nil, err
	}
	if derr != nil {
		return nil, derr
	}
	return os.NewFile(uintptr(fd), f.Name()), nil
}

// rootEntry is a directory entry whose Info is read within its root, not
// by the path the entry was listed under (which a swapped link could lead
// out of the root).
type rootEntry struct {
	fs.DirEntry
	r   *os.Root
	rel string
}

func (e rootEntry) Info() (fs.FileInfo, error) { return e.r.Lstat(e.rel) }
