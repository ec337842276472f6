//go:build !unix

package sandbox

import "os"

// readDirTypes lists f; elsewhere than on Unix it reads each entry's Info
// as it lists, as ReadDir does.
func readDirTypes(f *os.File, _ *os.Root, _ string) ([]os.DirEntry, error) {
	return f.ReadDir(-1)
}
