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
