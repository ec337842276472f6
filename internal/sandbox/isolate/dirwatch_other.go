//go:build !linux

package isolate

import (
	"os"
	"path/filepath"
)

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

// resolved is filepath.EvalSymlinks(p), and whether it succeeded.
func resolved(p string) (string, bool) {
	r, err := filepath.EvalSymlinks(p)
	return r, err == nil
}

// lookup is the view of one socket selection: here every lookup is made
// when asked.
type lookup struct{}

func lookups() lookup { return lookup{} }

func (lookup) done() {}

func (lookup) readDir(d string) []os.DirEntry { return readDir(d) }

func (lookup) resolve(p string) (string, bool) { return resolved(p) }

// tmpSockets lists the sockets and socket directories (isTmpSocketDir) a
// temporary directory holds.
func (l lookup) tmpSockets(tmp string) []string {
	var out []string
	for _, e := range readDir(tmp) {
		if e.Type()&os.ModeSocket != 0 || e.IsDir() && isTmpSocketDir(e.Name()) {
			out = append(out, filepath.Join(tmp, e.Name()))
		}
	}
	return out
}

// readUnixSockets lists the sockets bound by a path in the table at path.
func readUnixSockets(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	return parseUnixSockets(f)
}
