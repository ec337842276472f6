//go:build unix

package mcpserver

import (
	"io"
	"syscall"

	"golang.org/x/sys/unix"
)

// inputPending reports whether in is a descriptor with something to read
// already; false where it cannot tell.
func inputPending(in io.Reader) bool {
	sc, ok := in.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	pending := false
	rc.Control(func(fd uintptr) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 0)
		pending = err == nil && n > 0 && fds[0].Revents&unix.POLLIN != 0
	})
	return pending
}
