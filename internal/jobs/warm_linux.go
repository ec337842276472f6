package jobs

import (
	"os"

	"golang.org/x/sys/unix"
)

// warmSupported says whether commands may get warm shells here.
const warmSupported = true

// commandFile makes the memfd a warm shell reads its command from.
func commandFile() (*os.File, error) {
	fd, err := unix.MemfdCreate("hands-command", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, os.NewSyscallError("memfd_create", err)
	}
	return os.NewFile(uintptr(fd), "hands-command"), nil
}
