package sandbox

import (
	"os"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// openedPath returns the path the kernel knows an open file by.
func openedPath(f *os.File) (string, bool) { return fdPath(int(f.Fd())) }

// fdPath returns the path the kernel knows the descriptor fd by: its link
// in /proc/self/fd, read through a handle on that directory held from the
// first call, which spares the kernel the walk of /proc/self/fd on every
// check (one per file opened and per directory listed).
func fdPath(fd int) (string, bool) {
	name := strconv.Itoa(fd)
	dirfd, rel := procFD(), name
	if dirfd < 0 {
		dirfd, rel = unix.AT_FDCWD, "/proc/self/fd/"+name
	}
	for size := 256; size <= 1<<16; size *= 2 {
		buf := make([]byte, size)
		n, err := unix.Readlinkat(dirfd, rel, buf)
		if err == unix.EINTR {
			size /= 2
			continue
		}
		if err != nil {
			return "", false
		}
		if n < size {
			return string(buf[:n]), true
		}
	}
	return "", false
}

// procFD is a handle on /proc/self/fd, or -1 when it cannot be opened (the
// links are then read by path).
var procFD = sync.OnceValue(func() int {
	fd, err := unix.Open("/proc/self/fd", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1
	}
	return fd
})

// rootHandle returns the directory r is, opened for openBeneath, or nil.
func rootHandle(r *os.Root) *os.File {
	f, err := r.Open(".")
	if err != nil {
		return nil
	}
	return f
}

// openBeneath opens the directory rel (relative, local) below dir with one
// openat2 that the kernel keeps beneath dir and refuses to take through
// any symbolic link: what it opens is the directory rel names, with no
// link followed, never anything outside dir. os.Root opens the same
// directory one component at a time, as an os.File tried with the poller:
// seven more system calls. Any failure (a link on the way, which os.Root
// follows when it stays inside; an old kernel) is for the caller to retry
// the os.Root way.
func openBeneath(dir *os.File, rel string) (int, error) {
	if dir == nil {
		return -1, unix.ENOSYS
	}
	rc, err := dir.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd := -1
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	cerr := rc.Control(func(raw uintptr) {
		for {
			fd, err = unix.Openat2(int(raw), rel, &how)
			if err != unix.EINTR {
				return
			}
		}
	})
	if cerr != nil {
		return -1, cerr
	}
	return fd, err
}
