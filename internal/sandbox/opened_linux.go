package sandbox

import (
	"os"
	"strconv"
)

// openedPath returns the path the kernel knows an open file by.
func openedPath(f *os.File) (string, bool) {
	p, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
	return p, err == nil
}
