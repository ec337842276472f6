//go:build !unix

package benchmem

// MaxRSS returns 0: the platform does not report it.
func MaxRSS() int64 { return 0 }
