//go:build unix && !linux

package sandbox

import (
	"os"

	"golang.org/x/sys/unix"
)

// openBeneath is Linux's openat2: elsewhere the caller opens the os.Root
// way.
func openBeneath(*os.File, string) (int, error) { return -1, unix.ENOSYS }
