//go:build unix

package sandbox

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// listFixture is a root holding d/ (a file, a subdirectory with a file,
// a link), a denied directory and, beside the root, a directory outside.
func listFixture(t *testing.T) (base, root string, s *Set) {
	base = tempBase(t)
	root = filepath.Join(base, "root")
	mkTree(t, root, "d/a.txt=aaa", "d/sub/b.txt=bbb", "d/link -> sub", "d/z=12345", "secret/key=k")
	mkTree(t, filepath.Join(base, "outside"), "key=the outside file")
	return base, root, newSet(t, []string{root}, []string{"secret/"})
}

func openList(t *testing.T, s *Set, root, rel string) *ListDir {
	t.Helper()
	p, err := s.Resolve(root, rel)
	must(t, err)
	d, err := s.OpenListDir(p)
	must(t, err)
	t.Cleanup(func() { d.Close() })
	return d
}

// TestListDir lists what ReadDirTypes lists, with the same names, types
// and Info, and reaches a subdirectory and a file by name.
func TestListDir(t *testing.T) {
	_, root, s := listFixture(t)
	d := openList(t, s, root, "d")
	p, _ := s.Resolve(root, "d")
	want, err := s.ReadDirTypes(p)
	must(t, err)
	got, err := d.ReadDir()
	must(t, err)
	if len(got) != len(want) {
		t.Fatalf("ListDir listed %d entries, ReadDirTypes %d", len(got), len(want))
	}
	for i := range want {
		w, g := want[i], got[i]
		wi, err := w.Info()
		must(t, err)
		gi, err := g.Info()
		must(t, err)
		if w.Name() != g.Name() || w.Type() != g.Type() || wi.Size() != gi.Size() || wi.Mode() != gi.Mode() {
			t.Errorf("entry %d: ReadDirTypes %s %v %d, ListDir %s %v %d", i, w.Name(), w.Type(), wi.Size(), g.Name(), g.Type(), gi.Size())
		}
	}
	sub, err := d.Sub("sub")
	must(t, err)
	defer sub.Close()
	if sp := sub.Path(); sp.Abs != filepath.Join(root, "d", "sub") || sp.Rel != "d/sub" || sp.Root != 0 {
		t.Errorf("Sub's path = %+v", sp)
	}
	list, err := sub.ReadDir()
	must(t, err)
	if len(list) != 1 || list[0].Name() != "b.txt" {
		t.Errorf("Sub lists %v, want [b.txt]", list)
	}
	f, err := sub.Open("b.txt")
	must(t, err)
	b, _ := io.ReadAll(f)
	f.Close()
	if string(b) != "bbb" {
		t.Errorf("Open read %q", b)
	}
}

// TestListDirRefuses: a link (to a directory inside or outside the root),
// a file, a denied directory, a name that is not one plain entry and a
// FIFO are each refused, and nothing is read through them.
func TestListDirRefuses(t *testing.T) {
	base, root, s := listFixture(t)
	must(t, os.Symlink(filepath.Join(base, "outside"), filepath.Join(root, "d", "out")))
	must(t, os.Symlink("../secret", filepath.Join(root, "d", "sec")))
	must(t, syscall.Mkfifo(filepath.Join(root, "d", "fifo"), 0o600))
	d := openList(t, s, root, "d")
	for _, name := range []string{"link", "out", "sec", "a.txt", "fifo"} {
		if sub, err := d.Sub(name); !errors.Is(err, ErrDenied) {
			if sub != nil {
				sub.Close()
			}
			t.Errorf("Sub(%q): %v; want denied", name, err)
		}
	}
	for _, name := range []string{"", ".", "..", "sub/b.txt", "x\x00"} {
		if _, err := d.Sub(name); !errors.Is(err, ErrInvalid) {
			t.Errorf("Sub(%q): %v; want invalid", name, err)
		}
		if _, err := d.Open(name); !errors.Is(err, ErrInvalid) {
			t.Errorf("Open(%q): %v; want invalid", name, err)
		}
	}
	for _, name := range []string{"out", "sec", "link"} {
		if _, err := d.Open(name); !errors.Is(err, ErrDenied) {
			t.Errorf("Open(%q): %v; want denied", name, err)
		}
	}
	for _, name := range []string{"fifo", "sub"} { // a FIFO would block an open without O_NONBLOCK
		if f, err := d.Open(name); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			if f != nil {
				f.Close()
			}
			t.Errorf("Open(%q): %v; want not a regular file", name, err)
		}
	}
	top := openList(t, s, root, ".")
	if _, err := top.Sub("secret"); !errors.Is(err, ErrDenied) {
		t.Errorf("Sub of a denied directory: %v", err)
	}
	if _, err := top.Open("secret"); !errors.Is(err, ErrDenied) {
		t.Errorf("Open of a denied directory: %v", err)
	}
}

// TestListDirMovedOutOfRoot: the directory held is moved out of the root
// after it was opened; its subdirectories are then refused, not listed
// from outside, and nothing changes there.
func TestListDirMovedOutOfRoot(t *testing.T) {
	base, root, s := listFixture(t)
	d := openList(t, s, root, "d")
	must(t, os.Rename(filepath.Join(root, "d"), filepath.Join(base, "moved")))
	if sub, err := d.Sub("sub"); !errors.Is(err, ErrDenied) {
		if sub != nil {
			sub.Close()
		}
		t.Fatalf("Sub after the directory moved out of the root: %v; want denied", err)
	}
	if f, err := d.Open("a.txt"); !errors.Is(err, ErrDenied) {
		if f != nil {
			f.Close()
		}
		t.Fatalf("Open after the directory moved out of the root: %v; want denied", err)
	}
	if b, err := os.ReadFile(filepath.Join(base, "moved", "sub", "b.txt")); err != nil || string(b) != "bbb" {
		t.Errorf("the moved directory changed: %q %v", b, err)
	}
}

// TestListDirSwappedForALink: a subdirectory listed as a directory is
// swapped for a link out of the root before it is opened; Sub refuses it
// and the outside is not listed.
func TestListDirSwappedForALink(t *testing.T) {
	base, root, s := listFixture(t)
	d := openList(t, s, root, "d")
	list, err := d.ReadDir()
	must(t, err)
	var sawSub bool
	for _, e := range list {
		sawSub = sawSub || e.Name() == "sub" && e.IsDir()
	}
	if !sawSub {
		t.Fatalf("listed %v without sub/", list)
	}
	must(t, os.Rename(filepath.Join(root, "d", "sub"), filepath.Join(root, "old")))
	must(t, os.Symlink(filepath.Join(base, "outside"), filepath.Join(root, "d", "sub")))
	if sub, err := d.Sub("sub"); !errors.Is(err, ErrDenied) {
		if sub != nil {
			sub.Close()
		}
		t.Fatalf("Sub of a directory swapped for a link: %v; want denied", err)
	}
	if b, _ := os.ReadFile(filepath.Join(base, "outside", "key")); string(b) != "the outside file" {
		t.Errorf("the outside changed: %q", b)
	}
}

// FuzzListDirSub: whatever the name, Sub and Open either refuse it or
// give the entry of that name in the directory, inside the root.
func FuzzListDirSub(f *testing.F) {
	for _, s := range []string{"sub", "..", "../d", "link", "a.txt", "", ".", "sub/", "/etc", "secret", "x\x00y"} {
		f.Add(s)
	}
	base := tempBase(f)
	root := filepath.Join(base, "root")
	mkTree(f, root, "d/sub/b.txt=bbb", "d/a.txt=aaa", "d/link -> ..", "secret/k=k")
	s, err := New([]string{root}, []string{"secret/"})
	must(f, err)
	defer s.Close()
	p, err := s.Resolve(root, "d")
	must(f, err)
	f.Fuzz(func(t *testing.T, name string) {
		d, err := s.OpenListDir(p)
		must(t, err)
		defer d.Close()
		if sub, err := d.Sub(name); err == nil {
			got := sub.Path().Abs
			sub.Close()
			if got != filepath.Join(root, "d", name) || filepath.Dir(got) != filepath.Join(root, "d") {
				t.Fatalf("Sub(%q) opened %s", name, got)
			}
		}
		if fl, err := d.Open(name); err == nil {
			fl.Close()
			if name != "a.txt" {
				t.Fatalf("Open(%q) opened a file", name)
			}
		}
	})
}

// TestListDirInfoStaysInRoot: the directory listed is swapped for a link
// out of the root before an entry's Info is read; the Info is refused,
// not read from the file outside.
func TestListDirInfoStaysInRoot(t *testing.T) {
	base, root, s := listFixture(t)
	d := openList(t, s, root, "d")
	list, err := d.ReadDir()
	must(t, err)
	var z os.DirEntry
	for _, e := range list {
		if e.Name() == "z" {
			z = e
		}
	}
	if z == nil {
		t.Fatalf("listed %v without z", list)
	}
	must(t, os.WriteFile(filepath.Join(base, "outside", "z"), []byte("the outside file, longer"), 0o644))
	must(t, os.Rename(filepath.Join(root, "d"), filepath.Join(root, "old")))
	must(t, os.Symlink(filepath.Join(base, "outside"), filepath.Join(root, "d")))
	if info, err := z.Info(); err == nil {
		t.Fatalf("Info through the swapped link = %d bytes, want a refusal", info.Size())
	}
	if b, _ := os.ReadFile(filepath.Join(base, "outside", "z")); string(b) != "the outside file, longer" {
		t.Errorf("the outside changed: %q", b)
	}
}
