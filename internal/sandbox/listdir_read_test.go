//go:build unix

package sandbox

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestListDirReadsWhatOsReads: ListDir's own reading of a directory gives
// the names and types os.ReadDir gives, in the same order, for every kind
// of entry and for a directory larger than one read of entries (1,500
// names of 60 bytes: over ten reads of the 8 KiB buffer), both at the top
// and below it.
func TestListDirReadsWhatOsReads(t *testing.T) {
	base := tempBase(t)
	root := filepath.Join(base, "root")
	mkTree(t, root, "d/file=x", "d/sub/", "d/link -> file", "d/dangling -> nowhere", "d/big/")
	d := filepath.Join(root, "d")
	must(t, syscall.Mkfifo(filepath.Join(d, "fifo"), 0o600))
	if l, err := net.Listen("unix", filepath.Join(d, "sock")); err == nil {
		defer l.Close()
	}
	for i := range 1500 {
		name := fmt.Sprintf("%s-%04d", strings.Repeat("n", 55), i)
		must(t, os.WriteFile(filepath.Join(d, "big", name), nil, 0o600))
	}
	s := newSet(t, []string{root}, nil)
	top := openList(t, s, root, "d")
	big, err := top.Sub("big")
	must(t, err)
	defer big.Close()
	for _, c := range []struct {
		dir  string
		list *ListDir
	}{{d, top}, {filepath.Join(d, "big"), big}} {
		want, err := os.ReadDir(c.dir)
		must(t, err)
		got, err := c.list.ReadDir()
		must(t, err)
		if len(got) != len(want) {
			t.Fatalf("%s: ListDir listed %d entries, os.ReadDir %d", c.dir, len(got), len(want))
		}
		for i := range want {
			if got[i].Name() != want[i].Name() || got[i].Type() != want[i].Type() || got[i].IsDir() != want[i].IsDir() {
				t.Errorf("%s: entry %d is %s %v, os.ReadDir's %s %v", c.dir, i, got[i].Name(), got[i].Type(), want[i].Name(), want[i].Type())
			}
		}
		again, err := c.list.ReadDir()
		must(t, err)
		if len(again) != 0 {
			t.Errorf("%s: a second ReadDir listed %d entries, want none", c.dir, len(again))
		}
	}
}

// TestFdPathLong: the path of a descriptor is read whole when it is
// longer than the first buffer fdPath reads it into.
func TestFdPathLong(t *testing.T) {
	base := tempBase(t)
	dir := base
	for range 12 {
		dir = filepath.Join(dir, strings.Repeat("p", 40))
	}
	must(t, os.MkdirAll(dir, 0o700))
	f, err := os.Open(dir)
	must(t, err)
	defer f.Close()
	real, ok := openedPath(f)
	if !ok {
		t.Skip("the kernel does not name open files here")
	}
	want, err := filepath.EvalSymlinks(dir)
	must(t, err)
	if len(want) <= 256 || real != want {
		t.Fatalf("openedPath = %q (%d bytes), want %q", real, len(real), want)
	}
}
