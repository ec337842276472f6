package hands

import (
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// chmodDir makes the directory at p, not a link put in its place, the
// owner's to list and change. An O_PATH handle opens even a directory of
// mode 0; chmod through /proc applies to what it holds.
func chmodDir(p string) {
	fd, err := syscall.Open(p, unix.O_PATH|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	syscall.Chmod("/proc/self/fd/"+strconv.Itoa(fd), 0o700)
	syscall.Close(fd)
}
