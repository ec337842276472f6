//go:build !linux

package hands

import "os"

// chmodDir makes the directory at p the owner's to list and change.
func chmodDir(p string) {
	if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
		os.Chmod(p, 0o700)
	}
}
