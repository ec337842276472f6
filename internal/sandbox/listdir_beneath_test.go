//go:build linux

package sandbox

import (
	"errors"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestOpenBeneath: the one-call open of a listed directory takes a plain
// path below the root, and refuses (for OpenListDir to open the os.Root
// way) a link on the way, to a directory inside the root or outside it,
// and a path leading out with "..", opening nothing outside.
func TestOpenBeneath(t *testing.T) {
	base := tempBase(t)
	root := filepath.Join(base, "root")
	mkTree(t, root, "a/b/c.txt=c", "in -> a", "out -> ../outside")
	mkTree(t, filepath.Join(base, "outside"), "key=k")
	s := newSet(t, []string{root}, nil)
	dir := s.roots[0].dir
	if dir == nil {
		t.Fatal("no handle on the root")
	}
	fd, err := openBeneath(dir, "a/b")
	if errors.Is(err, unix.ENOSYS) {
		t.Skip("no openat2 here")
	}
	must(t, err)
	real, ok := fdPath(fd)
	unix.Close(fd)
	if want := filepath.Join(root, "a", "b"); ok && real != want {
		t.Errorf("opened %s, want %s", real, want)
	}
	for _, rel := range []string{"in/b", "in", "out", "../outside", "a/../../outside", "a/b/c.txt"} {
		if fd, err := openBeneath(dir, rel); err == nil {
			real, _ := fdPath(fd)
			unix.Close(fd)
			t.Errorf("openBeneath(%q) opened %s, want a refusal", rel, real)
		}
	}
	// Through the link, OpenListDir lists the target as before.
	d := openList(t, s, root, "in/b")
	list, err := d.ReadDir()
	must(t, err)
	if len(list) != 1 || list[0].Name() != "c.txt" {
		t.Errorf("in/b lists %v, want [c.txt]", list)
	}
}
