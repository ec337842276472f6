//go:build unix

package benchmem

import (
	"runtime"
	"syscall"
)

// MaxRSS returns the peak resident set size of the process in bytes.
func MaxRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) // bytes on macOS
	}
	return int64(ru.Maxrss) * 1024 // kilobytes elsewhere
}
