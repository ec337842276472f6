//go:build unix && !linux

package sandbox

import (
	"os"

	"golang.org/x/sys/unix"
)

// readEntries lists the directory open as fd, unsorted, through a
// duplicate of the descriptor as a file of no root (which lists lazily).
func readEntries(fd int) ([]listEntry, error) {
	dup, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(dup), "")
	defer f.Close()
	list, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	ents := make([]listEntry, len(list))
	for i, e := range list {
		ents[i] = listEntry{name: e.Name(), typ: e.Type()}
	}
	return ents, nil
}
