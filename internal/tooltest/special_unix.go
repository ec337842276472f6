//go:build unix

package tooltest

import (
	"net"
	"syscall"
)

// makeSpecial makes a named pipe or a Unix socket file at path; the socket
// file stays after its listener is closed, with nothing listening.
func makeSpecial(kind, path string) error {
	if kind == "fifo" {
		return syscall.Mkfifo(path, 0o644)
	}
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return err
	}
	l.SetUnlinkOnClose(false)
	return l.Close()
}
