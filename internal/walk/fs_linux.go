package walk

import (
	"io/fs"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	direntpkg "github.com/hands-dev/hands/internal/dirent"
	"golang.org/x/sys/unix"
)

// dirRef is an open directory, shared by the jobs that still need it: its
// subdirectories waiting to be opened and its files waiting to be
// reported. Everything below a root is opened relative to its parent's
// descriptor with O_NOFOLLOW, as os.Root does, so a directory swapped for
// a symbolic link while the walk runs is not entered and a file swapped
// for one is not opened: what is opened is the name that was listed and
// checked, in the directory that was opened, never a path followed anew.
type dirRef struct {
	fd   int
	refs atomic.Int32
}

func (d *dirRef) acquire() { d.refs.Add(1) }

func (d *dirRef) release() {
	if d.refs.Add(-1) == 0 {
		syscall.Close(d.fd)
	}
}

const (
	openDirFlags  = syscall.O_RDONLY | syscall.O_DIRECTORY | syscall.O_CLOEXEC
	openFileFlags = syscall.O_RDONLY | syscall.O_CLOEXEC | syscall.O_NOCTTY | syscall.O_NONBLOCK
)

func retry(f func() error) error {
	for {
		if err := f(); err != syscall.EINTR {
			return err
		}
	}
}

// openRootDir opens a walk's root directory, following symbolic links in
// its path (a root is trusted as given), and returns where it really is.
func openRootDir(path string) (*dirRef, string, error) {
	var fd int
	err := retry(func() (err error) { fd, err = syscall.Open(path, openDirFlags, 0); return })
	if err != nil {
		return nil, "", &fs.PathError{Op: "open", Path: path, Err: err}
	}
	real, err := fdPath(fd)
	if err != nil {
		syscall.Close(fd)
		return nil, "", &fs.PathError{Op: "open", Path: path, Err: err}
	}
	d := &dirRef{fd: fd}
	d.refs.Store(1)
	return d, real, nil
}

// fdPath returns the path the kernel knows an open descriptor by.
func fdPath(fd int) (string, error) {
	buf := make([]byte, 4096)
	n, err := syscall.Readlink("/proc/self/fd/"+strconv.Itoa(fd), buf)
	if err != nil {
		return "", err
	}
	return string(buf[:n]), nil
}

// openDir opens the subdirectory name of d, refusing a symbolic link.
func (d *dirRef) openDir(name string) (*dirRef, error) {
	var fd int
	err := retry(func() (err error) { fd, err = syscall.Openat(d.fd, name, openDirFlags|syscall.O_NOFOLLOW, 0); return })
	if err != nil {
		return nil, err
	}
	c := &dirRef{fd: fd}
	c.refs.Store(1)
	return c, nil
}

// dirent is one entry of a directory listing.
type dirent struct {
	name string
	typ  fs.FileMode
}

// readDir lists d, with the types the file system gives (an lstat only
// where it gives none).
func (d *dirRef) readDir(buf []byte) ([]dirent, error) {
	var out []dirent
	for {
		var n int
		err := retry(func() (err error) { n, err = syscall.ReadDirent(d.fd, buf); return })
		if err != nil {
			return out, err
		}
		if n <= 0 {
			return out, nil
		}
		direntpkg.Each(buf[:n], func(_ uint64, typ uint8, name []byte) {
			e := dirent{name: string(name)}
			t, known := direntpkg.Type(typ)
			if !known {
				var st unix.Stat_t
				if err := fstatat(d.fd, e.name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
					return
				}
				t = direntpkg.StatType(st.Mode)
			}
			e.typ = t
			out = append(out, e)
		})
	}
}

func fstatat(dirfd int, name string, st *unix.Stat_t, flags int) error {
	return retry(func() error { return unix.Fstatat(dirfd, name, st, flags) })
}

// Info is what Stat or Open learned about a file.
type Info struct {
	ModTime time.Time
	Size    int64
	Type    fs.FileMode // the type bits, as in Entry.Type
	Links   uint64      // the number of hard links
}

func infoOf(st *unix.Stat_t) Info {
	return Info{
		ModTime: time.Unix(st.Mtim.Sec, st.Mtim.Nsec),
		Size:    st.Size,
		Type:    direntpkg.StatType(st.Mode),
		Links:   uint64(st.Nlink),
	}
}

// File is an open file read with raw system calls: os.File costs an
// extra fstat, a poller registration attempt and a finalizer per file,
// which shows when searching thousands of small files.
type File struct{ fd int }

// Read reads like io.Reader, except that the end of the file is a read of
// 0 bytes with no error.
func (f File) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(f.fd, p)
		if err == syscall.EINTR {
			continue
		}
		if n < 0 {
			n = 0
		}
		return n, err
	}
}

// Close closes the file.
func (f File) Close() error { return syscall.Close(f.fd) }

// Info returns what fstat says of the file.
func (f File) Info() (Info, error) {
	var st unix.Stat_t
	if err := retry(func() error { return unix.Fstat(f.fd, &st) }); err != nil {
		return Info{}, err
	}
	return infoOf(&st), nil
}

// Open opens the entry's file for reading (O_NONBLOCK: a FIFO put in its
// place cannot block). Below a root it opens the entry's name relative to
// the directory it was listed in, refusing a symbolic link unless the walk
// followed it (then it opens the resolved target, which must still be
// that); a root is opened by its path, and must lead where
// Options.Confine allows. It is valid only during the callback the entry
// was given to. The caller closes the file.
func (e Entry) Open() (File, error) {
	var fd int
	var err error
	switch {
	case e.dir != nil:
		err = retry(func() (err error) {
			fd, err = syscall.Openat(e.dir.fd, e.name(), openFileFlags|syscall.O_NOFOLLOW, 0)
			return
		})
	case e.target != "":
		err = retry(func() (err error) { fd, err = syscall.Open(e.target, openFileFlags|syscall.O_NOFOLLOW, 0); return })
	default:
		err = retry(func() (err error) { fd, err = syscall.Open(e.Path, openFileFlags, 0); return })
	}
	if err != nil {
		return File{-1}, &fs.PathError{Op: "open", Path: e.Path, Err: err}
	}
	if e.target != "" || e.dir == nil && e.confine != nil {
		// Opened by a path: it must have led where it was checked to lead.
		real, err := fdPath(fd)
		if err == nil && (e.target != "" && real != e.target || e.confine != nil && !e.confine(real)) {
			err = syscall.EXDEV
		}
		if err != nil {
			syscall.Close(fd)
			return File{-1}, &fs.PathError{Op: "open", Path: e.Path, Err: err}
		}
	}
	return File{fd}, nil
}

// Stat returns what lstat says of the entry (stat, for a followed link),
// relative to the directory it was listed in. It is valid only during the
// callback the entry was given to.
func (e Entry) Stat() (Info, error) {
	var st unix.Stat_t
	var err error
	switch {
	case e.dir != nil:
		err = fstatat(e.dir.fd, e.name(), &st, unix.AT_SYMLINK_NOFOLLOW)
	case e.target != "":
		err = retry(func() error { return unix.Lstat(e.target, &st) })
	default:
		err = retry(func() error { return unix.Stat(e.Path, &st) })
	}
	if err != nil {
		return Info{}, &fs.PathError{Op: "stat", Path: e.Path, Err: err}
	}
	return infoOf(&st), nil
}
