//go:build unix

package textedit

import "syscall"

// maxRSS returns the peak resident set size of the process in bytes.
func maxRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return int64(ru.Maxrss) * 1024 // kilobytes on Linux
}
