package sandbox

import (
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// openTmpfile makes an unnamed file in the directory d (O_TMPFILE).
func openTmpfile(d *os.File, perm os.FileMode) (*os.File, error) {
	fd, err := unix.Openat(int(d.Fd()), ".", unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), filepath.Join(d.Name(), "(unnamed)")), nil
}

// linkTmpfile gives the unnamed file f, still open, the name name in d.
func linkTmpfile(f *os.File, d *os.File, name string) error {
	return unix.Linkat(unix.AT_FDCWD, "/proc/self/fd/"+strconv.Itoa(int(f.Fd())), int(d.Fd()), name, unix.AT_SYMLINK_FOLLOW)
}

// renameIn renames from to to, both names in the directory d.
func renameIn(_ *os.Root, d *os.File, _ string, from, to string) error {
	return unix.Renameat(int(d.Fd()), from, int(d.Fd()), to)
}
