//go:build !linux

package isolate

import "os"

// readDir lists d unsorted (a shared /tmp holds hundreds of entries, and
// the masks are sorted at the end); nil if it cannot. There is no
// namespace, and so no mask, on this OS: it is read for `hands doctor`.
func readDir(d string) []os.DirEntry {
	f, err := os.Open(d)
	if err != nil {
		return nil
	}
	defer f.Close()
	entries, _ := f.ReadDir(-1)
	return entries
}
